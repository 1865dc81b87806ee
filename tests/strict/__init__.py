"""Strict test servers: each provider's wire format on 127.0.0.1, refusing what the real
server refuses (rules, status codes and error texts from
`/work/shared/reference/hosted-api-rules.md`, each rule's source in a comment).

    from tests.strict import StrictServer

    with StrictServer("anthropic", FIX_SCRIPT, model="claude-sonnet-4-5") as server:
        ... run kiln with --base-url server.base_url ...
    assert server.refusals == []

Profiles: see `PROFILES` in `providers.py`.
"""

from tests.strict.base import Refusal, UsageReport
from tests.strict.providers import PROFILES
from tests.strict.server import SeenRequest, StrictServer

__all__ = ["PROFILES", "Refusal", "SeenRequest", "StrictServer", "UsageReport"]
