"""The model clients a session holds: the main one, resolved from the settings; the fast
one (`[models.fast]`) for kiln's own small jobs; and the one /model switches to."""

from __future__ import annotations

import dataclasses

from agent.cost.pricing import pricing_for
from agent.errors import KilnError
from agent.llm.base import ModelClient, ModelProfile
from agent.run.core import FastModel
from agent.settings.config import Settings


async def main_client(settings: Settings) -> ModelClient:
    """The client of the model the settings name for the session (`resolve.py` chooses)."""
    from agent.settings.resolve import open_client, resolve_profile

    return await open_client(await resolve_profile(settings))


async def fast_model(settings: Settings, notes: list[str]) -> FastModel | None:
    """`[models.fast]`, for kiln's own small jobs; unreachable, the main model does them."""
    if "fast" not in settings.models:
        return None
    from agent.settings.resolve import open_client, resolve_profile

    try:
        profile = await resolve_profile(settings, "fast")
        client = await open_client(profile)
    except KilnError as exc:
        notes.append(f"The fast model cannot be used ({exc.message}); the main model summarises.")
        return None
    return FastModel(client, pricing_for(profile, settings))


async def chosen(
    settings: Settings, current: ModelProfile, choice: str
) -> tuple[ModelProfile, ModelClient]:
    """/model: a profile (`[models.NAME]`) or, failing that, a model at the current server,
    and a client for it."""
    from agent.settings.resolve import open_client, resolve_profile

    if choice in settings.models:
        profile = await resolve_profile(settings, choice)
    else:
        profile = dataclasses.replace(current, model=choice)
    return profile, await open_client(profile)
