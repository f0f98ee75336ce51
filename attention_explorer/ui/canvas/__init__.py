"""The vector canvas: Q and the keys as arrows you drag."""
