"""/review inside a session: the session's model and meter (so /cost counts it), and
its store. The command layer hands in the session's parts; the review never imports the
session."""

from __future__ import annotations

from pathlib import Path

from agent.cost.meter import Meter
from agent.errors import KilnError
from agent.llm.base import ModelClient
from agent.llm.request import OnRequest
from agent.review.reviewer import ReviewOptions, ReviewResult
from agent.review.runner import TargetSpec, review
from agent.settings.config import Settings


async def review_for_session(
    repo: Path,
    settings: Settings,
    client: ModelClient | None,
    meter: Meter | None,
    spec: TargetSpec,
    *,
    on_request: OnRequest | None = None,
) -> ReviewResult:
    if client is None or meter is None:
        raise KilnError("The session is not ready yet (see the sandbox state).")
    return await review(repo, settings, client, meter, spec, ReviewOptions(), on_request=on_request)
