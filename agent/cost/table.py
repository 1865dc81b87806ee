"""The price table shipped with kiln (`prices.toml`), and finding a model's row in it.

Servers name one model many ways: `claude-sonnet-4-5-20250929`, `anthropic/claude-sonnet-4.5`,
`us.anthropic.claude-sonnet-4-5-20250929-v1:0`, `claude-sonnet-4-5@20250929`. A name is
tried as it is first (so a dated row with its own price wins), then normalised. Nothing
looser than that: a name that only resembles a row (`gpt-5.1` and `gpt-5`, `qwen2.5-coder:7b`
and `qwen-plus`) is not priced, because a wrong price is worse than an unknown one.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path

from agent.llm.base import Prices
from sandbox.frozen import frozen


@frozen
class PriceRow:
    """One model's row of the price table: its prices, and the date and source they come from."""

    model: str  # the table's name for it
    prices: Prices
    date: str
    source: str


# Suffixes that name a snapshot or an alias of the same model, stripped until none is left.
_SUFFIXES = (
    re.compile(r"[-@]\d{8}$"),  # -20250929, @20250929 (Vertex)
    re.compile(r"-\d{4}-\d{2}-\d{2}$"),  # -2024-08-06
    re.compile(r"-v\d+(:\d+)?$"),  # -v1:0 (Bedrock), -v2
    re.compile(r"-latest$"),
)


def _provider_free(name: str) -> str:
    """Lower case, without a router's `vendor/` or Bedrock's `us.anthropic.` prefix."""
    name = name.strip().lower().rsplit("/", 1)[-1]
    head, dot, rest = name.partition("anthropic.")
    return rest if dot and head.strip(".") in ("", "us", "eu", "apac", "global") else name


def normalised(name: str) -> str:
    name = re.sub(r"(?<=\d)\.(?=\d)", "-", _provider_free(name))
    stripped = True
    while stripped:
        stripped = False
        for suffix in _SUFFIXES:
            shorter = suffix.sub("", name)
            if shorter != name and shorter:
                name, stripped = shorter, True
    return name


@functools.cache
def _table() -> tuple[dict[str, PriceRow], dict[str, PriceRow]]:
    """(rows by exact name, rows by normalised name), read once."""
    # Read by its path, as kiln's other data files are: importlib.resources would cost
    # the session's start 4 ms for the same bytes.
    text = Path(__file__).with_name("prices.toml").read_text(encoding="utf-8")
    exact: dict[str, PriceRow] = {}
    for model, row in tomllib.loads(text)["models"].items():
        prices = Prices(
            input=float(row["input"]),
            cached_input=float(row["cached_input"]),
            cache_write=float(row["cache_write"]),
            output=float(row["output"]),
        )
        exact[model.lower()] = PriceRow(model, prices, str(row["date"]), str(row["source"]))
    loose: dict[str, PriceRow] = {}
    # A family's own row first: a dated row (gpt-4o-2024-05-13) never shadows its family.
    for name, row in sorted(exact.items(), key=lambda item: normalised(item[0]) != item[0]):
        loose.setdefault(normalised(name), row)
    return exact, loose


def rows() -> list[PriceRow]:
    return list(_table()[0].values())


def lookup(model: str) -> PriceRow | None:
    """The table's row for `model`, or None when kiln does not know its price."""
    if not model.strip():
        return None
    exact, loose = _table()
    return exact.get(_provider_free(model)) or loose.get(normalised(model))
