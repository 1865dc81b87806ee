"""kiln's core: the agent loop, model backends, tools and the event stream.

Nothing in this package imports Textual; tests/test_import_hygiene.py proves it.
"""

__version__ = "0.1.0"
