"""The training lab's scene: d_k, steps, learning rate and seed of two runs, scaled and unscaled."""
