"""Real pretrained transformers in plain numpy: reading a local checkpoint and its forward pass."""
