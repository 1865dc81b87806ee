"""One review from a target's description to its result: the change resolved, the tree
checked out, the model's requests made, the tests run there when asked. Every front end
(`kiln review`, /review) goes through here."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from agent.cost.meter import Meter
from agent.errors import UsageError
from agent.llm.base import ModelClient
from agent.llm.request import OnRequest
from agent.review.reviewer import Reviewer, ReviewOptions, ReviewResult
from agent.review.target import checkout, open_repo, resolve
from agent.settings.config import Settings
from sandbox.frozen import frozen


@frozen
class TargetSpec:
    rev: str | None = None
    staged: bool = False
    uncommitted: bool = False
    base: str | None = None

    @classmethod
    def parse(cls, text: str) -> TargetSpec:
        """`/review` arguments: REV, A..B, --staged, --uncommitted or --base BRANCH."""
        words = shlex.split(text)
        if not words:
            return cls()
        if words == ["--staged"]:
            return cls(staged=True)
        if words == ["--uncommitted"]:
            return cls(uncommitted=True)
        if len(words) == 2 and words[0] == "--base":
            return cls(base=words[1])
        if len(words) == 1 and not words[0].startswith("-"):
            return cls(rev=words[0])
        raise UsageError(
            f"`{text}` is not a review target; give REV, A..B, --staged, --uncommitted or "
            "--base BRANCH."
        )


async def review(
    root: Path,
    settings: Settings,
    client: ModelClient,
    meter: Meter,
    spec: TargetSpec,
    options: ReviewOptions,
    *,
    on_request: OnRequest | None = None,
    progress: Callable[[str], None] | None = None,
    run_tests: bool = False,
    session_id: str = "",
) -> ReviewResult:
    repo = open_repo(root)
    target = resolve(
        repo, spec.rev, staged=spec.staged, uncommitted=spec.uncommitted, base_branch=spec.base
    )
    with checkout(repo, target) as tree:
        reviewer = Reviewer(client, meter, settings, tree, options, on_request, progress)
        result = await reviewer.review(target)
        if run_tests:
            from agent.review.tests_at import tests_at

            result.tests = await tests_at(tree, settings, session_id)
    return result
