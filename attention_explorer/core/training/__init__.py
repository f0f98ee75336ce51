"""Training a tiny attention model, scaled against unscaled (the training lab and `attention-explorer train`)."""
