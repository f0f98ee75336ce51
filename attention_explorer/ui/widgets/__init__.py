"""Small widgets and pyqtgraph helpers the panels and labs share."""
