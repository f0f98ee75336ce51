"""Lessons: predict-then-reveal questions, their panel, and lecture scripts walked with the clicker."""
