"""find_symbol: where a name is defined, its code, what else its file defines, and where
the language server of its file (agent/lsp/) says it is used.

The answer reflects the workspace as the model changed it: the session's index holds
the host repository's tags (cached on disk), and every file the sandbox reports changed
is re-tagged from the sandbox's copy before answering.
"""

from __future__ import annotations

import asyncio
import difflib
from typing import Any

from agent.context.index import RepoIndex
from agent.context.tags import Definition, is_taggable
from agent.tools.base import ToolContext, ToolFailure, ToolResult, arg_str, tool

MAX_DEFINITIONS = 6  # shown in full; the rest are listed by place
MAX_CODE_LINES = 60
NEIGHBOURS = 4  # other definitions of the same file shown on each side
MAX_WITH_USES = 2  # definitions whose uses the language server is asked for
MAX_USES = 12


async def session_index(ctx: ToolContext) -> RepoIndex:
    """The session's index, brought up to date with the disk and then with the sandbox."""
    if ctx.repo_index is None:
        ctx.repo_index = RepoIndex.for_repository(ctx.sandbox.repo)
    index = ctx.repo_index
    await asyncio.to_thread(index.refresh)
    changed = {p for p in await ctx.sandbox.changed_files() if is_taggable(p)}
    for path in list(index.overlay):
        if path not in changed:  # changed back to what the disk holds
            del index.overlay[path]
    for path in sorted(changed):
        try:
            data: bytes | None = await ctx.sandbox.read_file(path)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            data = None
        index.update(path, data)
    return index


def _matches(
    records: dict[str, tuple[tuple[Definition, ...], dict[str, int]]], wanted: str
) -> list[tuple[str, Definition]]:
    """Definitions named `wanted`; "Class.method" asks for the one inside that class."""
    container, _, member = wanted.rpartition(".")
    found = []
    for path in sorted(records):
        definitions = records[path][0]
        for definition in definitions:
            if definition[0] != member:
                continue
            if container and not any(
                d[0] == container and d[1] == "class" and d[2] < definition[2] <= d[3]
                for d in definitions
            ):
                continue
            found.append((path, definition))
    return found


def _code(lines: list[str], start: int, end: int, path: str) -> str:
    shown_end = min(end, start + MAX_CODE_LINES - 1, len(lines))
    body = [f"{n:>5}\t{lines[n - 1]}" for n in range(start, shown_end + 1)]
    if shown_end < end:
        body.append(
            f"[{end - shown_end} more lines; read_file {path} "
            f"start_line={shown_end + 1} end_line={end}]"
        )
    return "\n".join(body)


def _neighbours(definitions: tuple[Definition, ...], chosen: Definition) -> str:
    at = definitions.index(chosen)
    around = definitions[max(0, at - NEIGHBOURS) : at + NEIGHBOURS + 1]
    return "\n".join(
        f"{'>' if d is chosen else ' '}{d[2]:>5} {d[4]}" for d in around if len(around) > 1
    )


async def _uses(ctx: ToolContext, path: str, line: int, name: str) -> str:
    """Where the definition is used, by the language server of its file once an edit has
    started it (it knows a call of this function from one of a namesake); "" without."""
    if ctx.language_servers is None:
        return ""
    places = await ctx.language_servers.references(ctx.sandbox, path, line, name)
    if not places:
        return ""
    more = f" and {len(places) - MAX_USES} more" if len(places) > MAX_USES else ""
    return f"\n[used at: {', '.join(places[:MAX_USES])}{more}]"


@tool(
    "find_symbol",
    "Find where a class, function or method is defined: its code with line numbers and "
    "the other definitions around it in its file. Use `Class.method` for one method.",
    {"name": {"type": "string", "description": "e.g. 'parse_date' or 'Invoice.total'"}},
    ["name"],
)
async def find_symbol(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    wanted = arg_str(args, "name").strip()
    if not wanted:
        raise ToolFailure("`name` is empty; give the name of a class, function or method.")
    index = await session_index(ctx)
    records = index.records()
    found = _matches(records, wanted)
    if not found:
        names = sorted({d[0] for record in records.values() for d in record[0]})
        close = difflib.get_close_matches(wanted.rpartition(".")[2], names, n=5)
        hint = f" Similar names: {', '.join(close)}." if close else ""
        return ToolResult(True, f"No definition of {wanted} found.{hint} Try search.")
    blocks: list[str] = []
    for path, definition in found[:MAX_DEFINITIONS]:
        name, kind, line, end, _ = definition
        try:
            text = (await ctx.sandbox.read_file(path)).decode("utf-8", "replace")
        except OSError:
            continue
        code = _code(text.split("\n"), line, end, path)
        around = _neighbours(records[path][0], definition)
        block = f"{path}:{line}-{end} {kind} {name}\n{code}"
        if around:
            block += f"\n[{path} defines, around it:]\n{around}"
        if len(blocks) < MAX_WITH_USES:
            block += await _uses(ctx, path, line, name)
        blocks.append(block)
    rest = found[MAX_DEFINITIONS:]
    if rest:
        places = ", ".join(f"{path}:{d[2]}" for path, d in rest[:30])
        blocks.append(f"[{len(rest)} more definitions: {places}]")
    return ToolResult(True, "\n\n".join(blocks), truncated=bool(rest))
