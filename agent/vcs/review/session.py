"""/review inside a session: the session's model and meter (so /cost counts it), and
its store."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from agent.errors import KilnError
from agent.vcs.review.reviewer import ReviewOptions, ReviewResult
from agent.vcs.review.runner import TargetSpec, review

if TYPE_CHECKING:
    from agent.session import Session


async def review_for_session(session: Session, arg: str) -> ReviewResult:
    spec = TargetSpec.parse(arg)
    await session.start()
    meter = session.meter
    if session.client is None or meter is None:
        raise KilnError("The session is not ready yet (see the sandbox state).")
    store = session.store
    on_request = (
        functools.partial(store.record_request, session.session_id) if store is not None else None
    )
    return await review(
        session.repo, session.settings, session.client, meter, spec, ReviewOptions(),
        on_request=on_request,
    )  # fmt: skip
