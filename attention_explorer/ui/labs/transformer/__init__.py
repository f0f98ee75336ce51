"""The real-transformer page."""
