"""The saturation lab."""
