"""Attention Explorer: see softmax(Q·Kᵀ/√d_k)·V move while you drag the vectors."""

__version__ = "0.1.0"
