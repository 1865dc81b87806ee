"""One model request as the store keeps it: what the model saw, what it said, what it cost."""

from __future__ import annotations

from collections.abc import Callable

from agent.events import Usage
from agent.llm.base import Message, ToolSpec
from sandbox.frozen import frozen


@frozen
class ModelRequest:
    """One completed request: the messages and tools sent, the reply, its usage and cost."""

    step: int  # the run's step that asked (a request outside the steps keeps the last one)
    role: str  # "main" or "fast": metered separately by `kiln cost`
    model: str
    messages: tuple[Message, ...]  # exactly what was sent, system prompt first
    tools: tuple[ToolSpec, ...]
    reply: Message
    usage: Usage
    cost_usd: float | None  # None: the model's price is unknown
    ttft_s: float | None = None
    duration_s: float = 0.0


# Whoever keeps requests (the session: its store) takes each one as it completes.
OnRequest = Callable[[ModelRequest], None]
