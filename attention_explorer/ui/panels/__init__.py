"""The explorer's panels around the canvas; each redraws from the ExplorerModel."""
