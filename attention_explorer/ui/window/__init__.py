"""The main window: docks and pages, its actions, keys, files and settings."""
