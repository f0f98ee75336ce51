"""Fixtures of the core's tests: the reference libraries of the comparisons with transformers."""

import pytest


@pytest.fixture(scope="session")
def torch_and_transformers():
    """(torch, transformers), imported when a comparison first runs, or that test skipped with the reason.

    Not at collection: there every xdist worker spent about 10 s importing them.
    """
    torch = pytest.importorskip("torch", reason="compare with transformers: needs torch (pip install torch==2.13.0)")
    transformers = pytest.importorskip("transformers", reason="compare with transformers: needs transformers")
    return torch, transformers
