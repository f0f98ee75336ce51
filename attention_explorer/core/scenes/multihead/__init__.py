"""Multi-head self-attention with W_O."""
