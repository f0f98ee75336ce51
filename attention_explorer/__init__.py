"""Attention Explorer: see softmax(Q·Kᵀ/√d_k)·V move while you drag the vectors.

From Python (attention_explorer/api.py), as napari and matplotlib are driven:

    import attention_explorer as ae
    r = ae.attend(query, keys, values)      # every number the window shows: r.scores, r.weights, r.output, …
    w = ae.show(query, keys, values)        # the window (IPython with %gui qt keeps its prompt)
    ae.run()                                # a plain script: until the windows close

The names below are imported on first use (PEP 562): `import attention_explorer` alone loads neither Qt nor numpy.
"""

from typing import TYPE_CHECKING, Any

from attention_explorer.version import __version__

_API = ("Attention", "ScenarioError", "Window", "attend", "run", "show", "show_model")
__all__ = ["__version__", *_API]

if TYPE_CHECKING:
    from attention_explorer.api import Attention, ScenarioError, Window, attend, run, show, show_model  # noqa: F401


def __getattr__(name: str) -> Any:
    if name in _API:
        from attention_explorer import api

        value = getattr(api, name)
        globals()[name] = value  # the next lookup finds it at once
        return value
    raise AttributeError(f"module 'attention_explorer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
