"""The command line: `attention-explorer` and `python -m attention_explorer`."""
