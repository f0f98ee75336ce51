"""The Spot-the-bug page."""
