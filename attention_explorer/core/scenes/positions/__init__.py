"""The positions lab's scene: how position enters q·k (sinusoidal against RoPE)."""
