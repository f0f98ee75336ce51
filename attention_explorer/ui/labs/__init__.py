"""The labs beside the canvas: saturation, variance, self-attention, a real transformer."""
