"""Qt views of the ExplorerModel: one module per panel, assembled by main_window."""
