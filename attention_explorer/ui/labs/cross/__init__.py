"""The cross-attention lab."""
