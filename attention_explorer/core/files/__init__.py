"""File rules shared by every kind: JSON rules and writing, bulk numbers, fields, presets, open any file."""
