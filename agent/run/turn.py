"""One model request as events: streamed text, reasoning, retries, an estimated meter."""

from __future__ import annotations

import time
from collections.abc import Callable

from agent.cost.meter import Meter
from agent.errors import ModelError
from agent.events import (
    Event,
    Notice,
    ReasoningDelta,
    TextDelta,
    UsageUpdated,
)
from agent.llm.base import (
    Completion,
    Message,
    ModelClient,
    ReasoningChunk,
    RetryNotice,
    TextChunk,
    ToolSpec,
)

ESTIMATE_EVERY_S = 0.25  # the live meter moves while tokens stream, without flooding


async def request_turn(
    client: ModelClient,
    messages: list[Message],
    tools: list[ToolSpec],
    meter: Meter,
    emit: Callable[[Event], None],
) -> Completion:
    streamed = ""
    last_estimate = time.monotonic()
    async for event in client.stream(messages, tools):
        if isinstance(event, TextChunk):
            streamed += event.text
            emit(TextDelta(event.text))
        elif isinstance(event, ReasoningChunk):
            streamed += event.text
            emit(ReasoningDelta(event.text))
        elif isinstance(event, RetryNotice):
            emit(
                Notice(
                    f"model request failed ({event.reason}); retry {event.attempt} "
                    f"in {event.delay_s:.1f}s",
                    level="warning",
                )
            )
        elif isinstance(event, Completion):
            return event
        if streamed and time.monotonic() - last_estimate >= ESTIMATE_EVERY_S:
            last_estimate = time.monotonic()
            pending, total, cost = meter.estimate(streamed)
            emit(UsageUpdated(total, pending, cost, estimated=True))
    raise ModelError("The model server ended its reply without completing it; try again.")
