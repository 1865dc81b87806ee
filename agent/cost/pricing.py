"""What one model's requests cost: its prices, where they came from, or that nobody knows.

In order: prices set in config (`[models.NAME.prices]`), the shipped table by model name,
then a model served on this machine, which costs nothing but, when the profile says so,
`price_per_hour` of the time its requests took (a rented GPU). A hosted model none of
these price is *unknown*: its tokens are counted, and its cost is shown as unknown, never
as $0.00.
"""

from __future__ import annotations

import dataclasses
import urllib.parse

from agent.cost import table
from agent.events import Usage
from agent.llm.base import ModelProfile, Prices
from agent.settings.config import Settings
from sandbox.frozen import frozen

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


@frozen
class Pricing:
    """How a meter prices the requests of one model."""

    model: str = ""
    prices: Prices | None = dataclasses.field(default_factory=Prices)  # None: unknown
    price_per_hour: float = 0.0  # of request wall time, on top of the token prices
    source: str = "local"  # "config" | "table <date> <url>" | "local" | "unknown"

    @property
    def known(self) -> bool:
        return self.prices is not None

    def cost(self, usage: Usage, duration_s: float = 0.0) -> float | None:
        """US dollars for one request's tokens and time; None when the price is unknown."""
        if self.prices is None:
            return None
        return self.prices.cost(usage) + self.price_per_hour * max(duration_s, 0.0) / 3600


UNKNOWN = Pricing(prices=None, source="unknown")


def is_local(base_url: str) -> bool:
    """A server on this machine (llama.cpp, Ollama, vLLM, kiln's own local model)."""
    try:
        host = urllib.parse.urlsplit(base_url).hostname or ""
    except ValueError:
        return False
    return host in LOCAL_HOSTS


def pricing_for(profile: ModelProfile, settings: Settings | None = None) -> Pricing:
    """The pricing of `profile`'s requests (see the module's docstring for the order)."""
    per_hour = profile.price_per_hour
    if profile.prices != Prices() or _prices_set_in(settings, profile):
        return Pricing(profile.model, profile.prices, per_hour, "config")
    row = table.lookup(profile.model)
    if row is not None:
        return Pricing(profile.model, row.prices, per_hour, f"table {row.date} {row.source}")
    if per_hour or profile.server_log or is_local(profile.base_url):
        return Pricing(profile.model, Prices(), per_hour, "local")
    return dataclasses.replace(UNKNOWN, model=profile.model)


def _prices_set_in(settings: Settings | None, profile: ModelProfile) -> bool:
    """Prices written in config, all of them 0 included (a free hosted model is priced)."""
    if settings is None:
        return False
    for name, configured in settings.models.items():
        if configured.model and configured.model != profile.model:
            continue
        if any(key.startswith(f"models.{name}.prices.") for key in settings.sources):
            return True
    return False
