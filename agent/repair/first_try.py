"""A small model's first try at a request, before its own tool loop: the one entry point.

A request with no failing test gets a failing test written from the person's words first
(reproduce.py); then a stub is implemented whole (implement.py), and other code has its
suspect functions rewritten and varied (rewrites.py). Each step hands the next the
briefing it is to work from, so nothing waits on the policy between runs. Any of them may
end the run (Stop(DONE) when the tests pass); when none does, the loop goes on.
"""

from __future__ import annotations

from agent.events import TaskShape
from agent.prompts.briefing import Briefing
from agent.repair.implement import implement_first
from agent.repair.reproduce import reproduce_first
from agent.repair.rewrites import rewrite_first
from agent.run.core import Run


async def first_try(run: Run, briefing: Briefing | None, task: str, shape: TaskShape) -> None:
    """Reproduce, implement, rewrite, from `briefing` (the small model's first message;
    None for a big model, a question or a later run: then nothing is tried). `task`: the
    person's words as given."""
    if briefing is None:
        return
    briefing = await reproduce_first(run, briefing, task, wanted=shape is TaskShape.CHANGE)
    briefing = await implement_first(run, briefing, task)
    await rewrite_first(run, briefing)
