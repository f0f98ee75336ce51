"""The Qt side: the views of the models in state/, in one folder per role (window, canvas, panels, labs, ...)."""
