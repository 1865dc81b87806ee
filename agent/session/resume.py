"""A stored session reopened (`--resume ID`, or "last"): what the store kept of it, and its
workspace's changes brought back into the new sandbox at the start."""

from __future__ import annotations

from agent.errors import KilnError
from agent.events import Event
from agent.llm.base import Message
from agent.store.db import SessionRow, Store
from agent.tools.shell import apply_in
from sandbox.base import Sandbox
from sandbox.frozen import frozen


@frozen
class Stored:
    """What the store kept of a session: its row, its conversation, its diff and its events."""

    row: SessionRow
    history: list[Message]  # the conversation, as it was saved
    diff: str  # the workspace's changes then, re-applied at the start
    events: list[Event]


def stored(store: Store, session_id: str) -> Stored:
    """The session `session_id` names (an id, its prefix or "last"), as the store kept it."""
    from agent.store.codec import event_from_dict

    row = store.find(session_id)
    if row is None:
        raise KilnError(f"There is no stored session {session_id!r}; see `kiln sessions list`.")
    history, diff = store.state(row.id)
    return Stored(row, history, diff, [event_from_dict(d) for d in store.events(row.id)])


async def reapply(sandbox: Sandbox, diff: str) -> None:
    """Bring a resumed session's workspace back to where it was."""
    if await apply_in(sandbox, diff) is not None:
        raise KilnError(
            "The stored changes of this session no longer apply to the repository; "
            "start a new session instead."
        )
