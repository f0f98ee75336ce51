"""The training lab: scaled against unscaled attention, trained live."""
