"""Cross-attention: queries from a target sequence, keys and values from a source."""
