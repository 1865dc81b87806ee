"""The pieces the loop and its verification steps share: deps, Stop, guarded work."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from agent import tools
from agent.cost.meter import Meter
from agent.errors import ModelError
from agent.errors import SandboxError as KilnSandboxError
from agent.events import Event, Phase, PhaseChanged, StopReason
from agent.llm.base import ModelClient
from agent.prompts.conversation import Conversation
from agent.run.pump import Cancelled, DeadlinePassed, Emit, Pump
from agent.run.state import RunState
from agent.settings.config import Settings
from agent.tools.gate import ApprovalStop
from sandbox.base import SandboxError

T = TypeVar("T")


class Stop(Exception):
    def __init__(self, reason: StopReason, message: str = "") -> None:
        super().__init__(message or reason.value)
        self.reason = reason
        self.message = message


@dataclass
class LoopDeps:
    """What a run needs; the Session owns all of it and keeps it across runs."""

    client: ModelClient
    tool_context: tools.ToolContext
    conversation: Conversation
    meter: Meter
    cancel: asyncio.Event
    before_change: Callable[[], Awaitable[None]]  # e.g. wait for the baseline test run
    phase: Phase = Phase.PLAN
    last_diff: str = ""

    @property
    def settings(self) -> Settings:
        return self.tool_context.settings


async def enter(deps: LoopDeps, phase: Phase) -> AsyncIterator[Event]:
    if deps.phase is not phase:
        deps.phase = phase
        yield PhaseChanged(phase)


async def guarded(
    deps: LoopDeps, state: RunState, work: Callable[[Emit], Awaitable[T]], box: list[T]
) -> AsyncIterator[Event]:
    """Run `work` through a Pump, translating every way it can fail into a Stop."""
    pump = Pump(work, deps.cancel, state.deadline)
    try:
        async for event in pump.events():
            yield event
    except Cancelled:
        raise Stop(StopReason.CANCELLED, "Cancelled.") from None
    except DeadlinePassed:
        raise Stop(StopReason.WALL_CLOCK, "The wall-clock limit was reached.") from None
    except ModelError as exc:
        raise Stop(StopReason.MODEL_ERROR, exc.message) from None
    except (SandboxError, KilnSandboxError) as exc:
        raise Stop(StopReason.SANDBOX_ERROR, str(exc)) from None
    except ApprovalStop as exc:
        raise Stop(
            StopReason.APPROVAL_NEEDED,
            f"`{exc.request.summary}` needs approval, and this run may not ask "
            "(--approval fail); the repository is untouched.",
        ) from None
    box.append(pump.result)
