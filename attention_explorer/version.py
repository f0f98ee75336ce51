"""The program's version, as pyproject.toml says it.

Its own module, so that what shows it (Help ▸ About, the downloader's User-Agent) does not import the package's
__init__, whose public names import them in turn.
"""

__version__ = "0.1.0"
