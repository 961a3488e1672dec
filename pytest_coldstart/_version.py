"""The distribution version (one place; hatch reads it, every layer may import it)."""

__version__ = "0.1.0"
