"""The multi-head lab."""
