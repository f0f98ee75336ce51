"""Self-attention on a token sequence."""
