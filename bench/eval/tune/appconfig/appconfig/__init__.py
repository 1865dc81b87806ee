"""Application settings: defaults < config file < environment."""

from appconfig.loader import load

__all__ = ["load"]
