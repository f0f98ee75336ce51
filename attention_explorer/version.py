"""The program's version (pyproject.toml says the same): its own module, so that what shows it (Help ▸ About, the
downloader's User-Agent) does not import the package's __init__, whose public names import them in turn."""

__version__ = "0.1.0"
