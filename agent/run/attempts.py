"""Parallel attempts inside a session (`/attempts N`): N independent tries at the person's
request, each a writing child (run/children.py) in a sandbox of its own over the session's
workspace, as many at once as `[agents] max_parallel` allows (one for the embedded model,
whose server answers one request at a time). The first samples as configured, each other one
at the model's candidate temperature.

Once all have ended, the one kept is the one with evidence (`done`), then the smaller diff,
then fewer steps, as `kiln run --attempts` chooses (agent/headless/attempts.py, whose
attempts are whole runs instead); its diff is taken into the session's workspace as one
checkpointed step, tested, and the run ends judged by that (agent/run/evidence.py). The
others' diffs are left. Every attempt is a child in the stream (SubagentStarted/Finished),
in the meter and under the run's budget; cancelling the run cancels them all.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, NoReturn

from agent.custom.agents import BUILT_IN
from agent.events import Notice, RunStatus, StopReason
from agent.llm.base import Message, ModelClient, ModelEvent, ToolCall, ToolSpec
from agent.present import lines_changed
from agent.run.checks import after_changes
from agent.run.children import Child, Drive, new_agent_id, run_limited, take
from agent.run.core import Run
from agent.run.stops import Stop, attempt_rank
from agent.tools.delegate import NAME


class _Sampling:
    """A client whose requests sample at `temperature` unless one asks otherwise."""

    def __init__(self, client: ModelClient, temperature: float) -> None:
        self.client, self.temperature = client, temperature
        self.profile = client.profile

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        hotter = self.temperature if temperature is None else temperature
        return self.client.stream(messages, tools, max_tokens=max_tokens, temperature=hotter)

    async def aclose(self) -> None:
        return None  # the session's client: the session closes it


async def attempt(run: Run, count: int, first: str, briefing: Any, drive: Drive) -> NoReturn:
    """Run `count` attempts at the person's request, each from the run's first message
    `first` (and a small model's `briefing`), take the best one's diff, and end the run."""
    asked = run.conversation.instructions
    words = asked[-1] if asked else first
    general = next(d for d in BUILT_IN if d.name == "general")
    children = [
        Child(
            ToolCall(f"attempt-{k}", NAME, {"task": words}), general, words, new_agent_id(),
            drive, client=_client(run, k), first=first, briefing=briefing,
        )
        for k in range(1, count + 1)
    ]  # fmt: skip
    limit = asyncio.Semaphore(max(1, min(count, run.settings.parallel_attempts)))
    jobs = [asyncio.ensure_future(run_limited(limit, run, child)) for child in children]
    try:
        await asyncio.gather(*jobs)
    finally:
        for job in jobs:
            job.cancel()
        await asyncio.gather(*jobs, return_exceptions=True)
    kept = _kept(run, children)
    tally = _tally(run, children, kept)
    run.emit(Notice(tally))
    # The conversation goes on from here: the next request follows a reply, not a request.
    run.conversation.add_assistant(Message("assistant", tally))
    if kept is None:
        raise Stop(StopReason.NOTHING_CHANGED, f"None of the {count} attempts changed anything.")
    taken = await take(run, kept.agent_id)
    if not taken.ok:
        raise Stop(StopReason.NO_PROGRESS, taken.output)
    run.state.pending_change = True
    await after_changes(run, auto_test=True)
    number = children.index(kept) + 1
    raise Stop(StopReason.DONE, f"Kept attempt {number} of {count}. {taken.output}")


def _client(run: Run, number: int) -> ModelClient | None:
    """The first attempt samples as configured; each other one hotter."""
    if number == 1:
        return None
    profile = run.deps.client.profile
    return _Sampling(run.deps.client, max(profile.temperature, profile.candidate_temperature))


def _kept(run: Run, children: list[Child]) -> Child | None:
    """The attempt with evidence, then the smaller diff, then fewer steps; one that changed
    nothing is never kept."""
    diffs = run.state.child_diffs
    changed = [c for c in children if diffs.get(c.agent_id, "").strip()]
    return min(changed, key=lambda c: _key(run, c, children), default=None)


def _key(run: Run, child: Child, children: list[Child]) -> tuple[int, int, int, int]:
    status, steps = run.state.child_ended.get(child.agent_id, (RunStatus.ERROR, 0))
    return (attempt_rank(status), lines_changed(run.state.child_diffs[child.agent_id]), steps,
            children.index(child))  # fmt: skip


def _tally(run: Run, children: list[Child], kept: Child | None) -> str:
    """One line per attempt: how it ended, its diff, its steps; and which one is kept."""
    lines = []
    for number, child in enumerate(children, 1):
        status, steps = run.state.child_ended.get(child.agent_id, (RunStatus.ERROR, 0))
        diff = run.state.child_diffs.get(child.agent_id, "")
        mark = " (kept)" if child is kept else ""
        lines.append(
            f"attempt {number} ({child.agent_id}): {status}, {lines_changed(diff)} lines changed, "
            f"{steps} steps{mark}"
        )
    return "\n".join(lines)
