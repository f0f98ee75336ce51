"""The self-attention lab."""
