"""The positions lab."""
