"""mkdocs hook: the configuration reference, written from the settings' own definitions.

`docs/configuration.md` holds the prose and a `<!-- settings -->` marker; at build time the
marker becomes a table per TOML table, one row per setting with its default, its
description (the field's `metadata["doc"]`), the variable that sets it and what a
repository's own `.kiln.toml` may do with it. A setting without a description stops the
build, strict or not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from agent.settings.reference import Entry, Table, tables, undocumented
from agent.settings.repo_keys import RepoRule

MARKER = "<!-- settings -->"
# Each table's heading anchor, so other pages can link to `configuration.md#limits`.
ANCHORS = {"models.NAME": "models", "models.NAME.prices": "models-prices",
           "mcp_servers.NAME": "mcp-servers"}  # fmt: skip


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if Path(page.file.src_path).as_posix() != "configuration.md":
        return markdown
    missing = undocumented()
    if missing:
        raise PluginError(
            f"These settings have no description: {', '.join(missing)}. Add one where each "
            "is defined: field(..., metadata={'doc': '...'})."
        )
    if MARKER not in markdown:
        raise PluginError(f"docs/configuration.md lost its {MARKER} marker; put it back.")
    return markdown.replace(MARKER, "\n".join(_table(t) for t in tables()))


def _table(table: Table) -> str:
    anchor = ANCHORS.get(table.name, table.name)
    rows = "\n".join(_row(e) for e in table.entries)
    return (
        f"## `[{table.name}]` {{#{anchor}}}\n\n{table.doc}\n\n"
        "| key | default | what it does | variable | in a repository's `.kiln.toml` |\n"
        "| --- | --- | --- | --- | --- |\n"
        f"{rows}\n"
    )


def _row(entry: Entry) -> str:
    env = f"`{entry.env}`" if entry.env else ""
    cells = (f"`{entry.key}`", _toml(entry.default), entry.doc, env, _repo(entry))
    # Python-Markdown splits no cell at a pipe inside backticks, and a pipe escaped there
    # would show its backslash.
    return "| " + " | ".join(cells) + " |"


def _repo(entry: Entry) -> str:
    rule = entry.repo
    if rule is None:
        return "after `kiln trust`"
    said = {
        RepoRule.HARMLESS: "honoured",
        RepoRule.TRUSTED: "after `kiln trust`",
        RepoRule.NEVER: "never",
    }[rule.rule]
    return f"{said} ({rule.why})"


def _toml(value: Any) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, tuple | list):
        return "`[]`" if not value else "`[" + ", ".join(f'"{v}"' for v in value) + "]`"
    if isinstance(value, dict):
        return "`{}`" if not value else f"`{value}`"
    if hasattr(value, "__dataclass_fields__"):
        return f"[the table below](#{ANCHORS['models.NAME.prices']})"
    return f"`{value}`"
