"""Helpers the tests share: tiny models they build, a local Hub, time budgets, limit tables."""
