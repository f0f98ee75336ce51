"""The variance lab."""
