"""The Session every front end holds (`core.py`, over what it holds in `parts.py` and its
events' plumbing in `streams.py`), its start-up (`startup.py`, the model clients in
`models.py`), its test command with the baseline run (`baseline.py`), a stored session
reopened (`resume.py`), and one way to open a session for the TUI and line mode
(`opening.py`)."""

from agent.session.core import Session

__all__ = ["Session"]
