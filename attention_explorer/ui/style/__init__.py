"""How things look: the palette, sizes and themes."""
