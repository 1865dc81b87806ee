"""A request of kiln's own (a rewrite, a candidate fix, a summary): metered and stored like
any other, never the end of the run when it fails, and carrying the person's task."""

from __future__ import annotations

import contextlib

from agent.errors import ModelError
from agent.events import Level, Notice, UsageUpdated
from agent.llm.base import Adapted, Completion, Message, ToolSpec
from agent.run.core import Run


async def ask_once(
    run: Run,
    messages: list[Message],
    tool_specs: list[ToolSpec],
    *,
    max_tokens: int | None = None,
    temperature: float | None = None,
    fast: bool = False,
) -> Completion | None:
    """The model's completed reply, or None if the request failed after its retries.
    `fast`: the fast model answers, where one is configured.

    The run's task goes with every request: where `messages` do not hold it word for word
    (a summary of the newest steps only), it is put at the head of their first user
    message. Requests outside a task (a review's) have no instructions and go unchanged."""
    from agent.prompts.briefing import with_task  # most runs never ask anything of their own

    deps = run.deps
    asked = run.conversation.instructions
    messages = with_task(messages, asked[-1] if asked else "")
    helper = deps.fast if fast else None
    client = helper.client if helper else deps.client
    pricing = helper.pricing if helper else None
    role = "fast" if helper else ""
    with contextlib.suppress(ModelError):
        stream = client.stream(messages, tool_specs, max_tokens=max_tokens, temperature=temperature)
        async for event in stream:
            if isinstance(event, Adapted):  # said once by the client, whichever request met it
                run.emit(Notice(event.said, level=Level.INFO))
            if isinstance(event, Completion):
                if deps.on_request is not None:  # stored and priced like any request
                    record = deps.meter.request(
                        run.state.steps, messages, tool_specs, event, role=role, pricing=pricing
                    )
                    deps.on_request(record)
                deps.meter.add(event.usage, event.duration_s, pricing)
                run.emit(UsageUpdated(deps.meter.total, event.usage, deps.meter.cost_usd))
                return event
    return None
