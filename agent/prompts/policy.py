"""How kiln talks to the model it has, chosen once when the session starts.

A big model reads around on its own. A small one (a few billion parameters; `small_model`
in its profile) tends to guess what a file contains instead of reading it, and after its
own edit it still "sees" the code of the first message, so its next old_text does not
match, or it fixes a line that is gone. The small-model policy therefore gives it a short
system prompt with one worked example; the failing tests, the code involved, the task's
documents and the task in the first message; a nudge that names a real file; and after an
edit that leaves tests failing, the files it changed as they are now.

Tried and dropped: undoing an edit that made fewer tests pass. At a low temperature the
1.5B model then got nearly the same conversation again and repeated its first wrong edit
word for word until the repeat limit stopped it (1 of 5 bundled tasks solved in three
runs, against 3 of 5 without the undo); fixing forward from its own broken code worked
better.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from agent.events import TaskShape
from agent.llm.base import ModelProfile
from agent.prompts.shape import shape_of
from agent.prompts.system import NUDGE, SMALL_MODEL_PROMPT, small_model_nudge, system_prompt
from agent.tools.testdigest import TestDigest
from sandbox.base import Sandbox
from sandbox.frozen import frozen

# A small model's briefing (agent/prompts/briefing.py) is imported with its first message.
if TYPE_CHECKING:
    from agent.context.index import RepoIndex
    from agent.prompts.briefing import Briefing

Baseline = Callable[[], Awaitable[TestDigest | None]]  # waits for the tests run at the start
TESTS_AFTER_EDITS = "[kiln ran the tests after your edits]\n"


@frozen
class FirstMessage:
    """The first message of a session's first run, and the briefing it was made from: a
    small model's first try at a fix works from that (agent/repair/first_try.py)."""

    text: str
    briefing: Briefing | None = None


class PromptPolicy:
    """A capable model: the task as given, a plain nudge, the test digest after edits."""

    name = "standard"
    # What the policy asks of the rest of kiln, read there instead of its name:
    reads_on_its_own = True  # it reads files through tools; else they come with the task
    default_timeout_s: float | None = None  # the wall clock when none is configured
    default_candidates = 0  # candidate fixes per failing edit when none are configured

    def map_tokens(self, configured: int) -> int:
        """The repo map's share of the stable prefix."""
        return configured

    def system_prompt(self, repo_name: str, test_command: str, stable_extra: str = "") -> str:
        return system_prompt(repo_name, test_command, stable_extra)

    async def first_message(
        self, task: str, baseline: Baseline, sandbox: Sandbox, index: RepoIndex | None = None
    ) -> FirstMessage:
        return FirstMessage(task)

    def nudge(self, last_tests: TestDigest | None) -> str:
        return NUDGE

    async def after_edit(self, report: TestDigest, paths: list[str], sandbox: Sandbox) -> str:
        """What kiln tells the model once it ran the tests after the model's edits."""
        return TESTS_AFTER_EDITS + report.text


class SmallModelPolicy(PromptPolicy):
    name = "small model"
    reads_on_its_own = False
    # A failing run must not spin for many minutes.
    default_timeout_s: float | None = 180.0
    default_candidates = 8

    def map_tokens(self, configured: int) -> int:
        return 0  # a small model's window is kept for the code the task is about

    def system_prompt(self, repo_name: str, test_command: str, stable_extra: str = "") -> str:
        return system_prompt(repo_name, test_command, stable_extra, base=SMALL_MODEL_PROMPT)

    async def first_message(
        self, task: str, baseline: Baseline, sandbox: Sandbox, index: RepoIndex | None = None
    ) -> FirstMessage:
        from agent.prompts.briefing import brief
        from agent.prompts.question import question_message

        if shape_of(task) is TaskShape.QUESTION:  # the answer is read, nothing is fixed
            return FirstMessage(await question_message(task, sandbox, index))
        if index is not None:
            await asyncio.to_thread(index.refresh)
        briefing = await brief(task, await baseline(), sandbox, index)
        return FirstMessage(briefing.text, briefing)

    def nudge(self, last_tests: TestDigest | None) -> str:
        from agent.prompts.briefing import code_file_in

        return small_model_nudge(code_file_in(last_tests.text) if last_tests else "")

    async def after_edit(self, report: TestDigest, paths: list[str], sandbox: Sandbox) -> str:
        from agent.prompts.briefing import FIX_CALL, quoted, read_texts

        feedback = TESTS_AFTER_EDITS + report.text
        if report.ok:
            return feedback
        files = quoted(await read_texts(sandbox, paths))
        if not files:
            return feedback
        now = "\n\n".join(files)
        return f"{feedback}\n\nThe files you changed, as they are now:\n\n{now}\n\n{FIX_CALL}"


def policy_for(profile: ModelProfile) -> PromptPolicy:
    return SmallModelPolicy() if profile.small_model else PromptPolicy()
