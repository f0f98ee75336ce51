"""The QObject models every view shares: the explorer, the sequence, the document, the animation."""
