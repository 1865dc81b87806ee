"""Model backends. `base.py` holds the protocol and the neutral message types."""
