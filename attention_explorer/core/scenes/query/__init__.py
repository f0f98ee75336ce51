"""One query against N keys and values: the explorer's scene."""
