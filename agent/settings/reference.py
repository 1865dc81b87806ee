"""Every setting a TOML file can hold, read from the settings' own definitions: each
dataclass field carries its description in `metadata["doc"]`.

The configuration reference in the docs is written from these (`docs/hooks.py`), and a
setting without a description fails that build, so a new setting is documented where it
is defined or not at all.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from agent.llm.profile import ModelProfile, Prices
from agent.settings import repo_keys
from agent.settings.config import _SECTIONS, ENV_KEYS, LspServer, McpServer
from sandbox.frozen import frozen


@frozen
class Entry:
    """One setting: its key as written under its table, its default and what it does."""

    key: str
    default: Any
    doc: str
    env: str  # the KILN_* variable that sets it, or ""
    repo: repo_keys.KeyRule | None  # what a repository's own `.kiln.toml` may do with it


@frozen
class Table:
    """A TOML table of settings (`[limits]`, `[models.NAME]`) and what it is for."""

    name: str
    doc: str
    entries: tuple[Entry, ...]


def tables() -> list[Table]:
    """Every table in the order `kiln config show` lists them, the named ones last."""
    found = [_table(name, cls, name) for name, cls in _SECTIONS.items()]
    found.append(_table("models.NAME", ModelProfile, "models.main", skip=frozenset({"prices"})))
    found.append(_table("models.NAME.prices", Prices, "models.main.prices"))
    found.append(_table("mcp_servers.NAME", McpServer, "mcp_servers.docs"))
    found.append(_table("lsp.NAME", LspServer, "lsp.python"))
    return found


def undocumented() -> list[str]:
    """The settings whose definition carries no description (`table.key`)."""
    return [f"{t.name}.{e.key}" for t in tables() for e in t.entries if not e.doc.strip()]


def _table(name: str, cls: type, example: str, skip: frozenset[str] = frozenset()) -> Table:
    env_of = {key: var for var, key in ENV_KEYS.items()}
    entries = tuple(
        Entry(
            key=f.name,
            default=_default(f),
            doc=str(f.metadata.get("doc", "")),
            env=env_of.get(f"{example}.{f.name}", ""),
            repo=repo_keys.rule_for(f"{example}.{f.name}"),
        )
        for f in dataclasses.fields(cls)
        if f.name not in skip
    )
    return Table(name, " ".join((cls.__doc__ or "").split()), entries)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None
