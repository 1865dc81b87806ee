"""The Session every front end holds (`core.py`), its start-up (`startup.py`) and its
test command with the baseline run (`baseline.py`)."""

from agent.session.core import Session

__all__ = ["Session"]
