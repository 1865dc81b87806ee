"""What kiln adds after a small model's edit leaves tests failing: the code as it is now.

A small model edits from memory: after its own edit it still "sees" the code of the first
message, so its next old_text does not match, or it fixes a line that is gone. So next to
the test digest it is shown the files it changed, as they are now.

Tried and dropped: undoing an edit that made fewer tests pass. At a low temperature the
1.5B model then got nearly the same conversation again and repeated its first wrong edit
word for word until the repeat limit stopped it (1 of 5 bundled tasks solved in three
runs, against 3 of 5 without the undo); fixing forward from its own broken code worked
better.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from agent.events import Event
from agent.prompts.briefing import FIX_CALL, quoted, read_texts
from agent.run.deps import LoopDeps, guarded
from agent.run.state import RunState


async def after_small_model_edit(
    deps: LoopDeps, state: RunState, paths: list[str], feedback: str
) -> AsyncIterator[Event]:
    """Add `feedback` (the test digest after the edit) and, if tests fail, the files."""
    report = state.last_tests
    if report is not None and not report.ok:
        texts: list[dict[str, str]] = []
        sandbox = deps.tool_context.sandbox
        async for event in guarded(deps, state, lambda e: read_texts(sandbox, paths), texts):
            yield event
        files = quoted(texts[0])
        if files:
            now = "\n\n".join(files)
            feedback += f"\n\nThe files you changed, as they are now:\n\n{now}\n\n{FIX_CALL}"
    deps.conversation.add_feedback(feedback)
