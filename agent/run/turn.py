"""One model request: streamed text and reasoning, retries, an estimated meter, as events."""

from __future__ import annotations

import time

from agent import tools
from agent.errors import ModelError
from agent.events import Level, Notice, ReasoningDelta, TextDelta, UsageUpdated
from agent.llm.base import Adapted, Completion, ReasoningChunk, RetryNotice, TextChunk
from agent.run.core import Run
from agent.run.room import calibrate, make_room

ESTIMATE_EVERY_S = 0.25  # the live meter moves while tokens stream, without flooding


async def request_turn(run: Run) -> Completion:
    """Ask the model once with the whole conversation; returns its completed reply."""
    deps, emit = run.deps, run.emit
    await make_room(run)
    sent = deps.conversation.messages()
    specs = tools.specs(deps.tool_context)  # the coding group, then MCP tools: fixed per session
    streamed = ""
    last_estimate = time.monotonic()
    async for event in deps.client.stream(sent, specs):
        if isinstance(event, TextChunk):
            streamed += event.text
            emit(TextDelta(event.text))
        elif isinstance(event, ReasoningChunk):
            streamed += event.text
            emit(ReasoningDelta(event.text))
        elif isinstance(event, Adapted):
            emit(Notice(event.said, level=Level.INFO))
        elif isinstance(event, RetryNotice):
            emit(
                Notice(
                    f"model request failed ({event.reason}); retry {event.attempt} "
                    f"in {event.delay_s:.1f}s",
                    level=Level.WARNING,
                )
            )
        elif isinstance(event, Completion):
            calibrate(run, sent, event)
            if deps.on_request is not None:  # kept before its UsageUpdated (the store pairs them)
                deps.on_request(deps.meter.request(run.state.steps, sent, specs, event))
            return event
        if streamed and time.monotonic() - last_estimate >= ESTIMATE_EVERY_S:
            last_estimate = time.monotonic()
            pending, total, cost = deps.meter.estimate(streamed)
            emit(UsageUpdated(total, pending, cost, estimated=True))
    raise ModelError("The model server ended its reply without completing it; try again.")
