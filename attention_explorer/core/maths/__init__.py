"""Pure maths of attention and of the labs: softmax, masks, scoring, positions, planes, sweeps."""
