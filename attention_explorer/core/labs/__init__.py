"""The labs' maths: softmax saturation, the variance of q·k, one key's full turn."""
