"""A tiny full-text index over a set of documents."""

from search.index import Index

__all__ = ["Index"]
