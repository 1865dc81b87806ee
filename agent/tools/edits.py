"""Changing the workspace: edit_file and write_file, each approved per mode.

After a write, a tree-sitter parse reports any syntax error the change introduced, and the
session's language servers the errors and warnings it introduced (a misspelt name, a call
with the wrong arguments, a type error: agent/lsp/), so the model hears about them in the
same tool result instead of from a failing test run later.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import shlex
from typing import Any

from agent.approval import Action
from agent.present import flag_config
from agent.tools.base import ToolContext, ToolFailure, ToolResult, arg_str, tool, workspace_path
from agent.tools.files import read_text
from agent.tools.matching import Replacement, replace
from agent.tools.syntax import introduced_errors

MAX_WRITE_BYTES = 1024 * 1024


def unified_diff(path: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        f"a/{path}",
        f"b/{path}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def replace_keeping_line_endings(
    before: str, old: str, new: str, *, replace_all: bool, path: str
) -> Replacement:
    """`replace`, on a file whose lines all end in CRLF too: the model writes LF, the file
    keeps CRLF (a mixed file is edited as it is)."""
    crlf = "\r\n" in before and before.count("\n") == before.count("\r\n")
    if not crlf:
        return replace(before, old, new, replace_all=replace_all, path=path)
    lf = [text.replace("\r\n", "\n") for text in (before, old, new)]
    result = replace(lf[0], lf[1], lf[2], replace_all=replace_all, path=path)
    return dataclasses.replace(result, text=result.text.replace("\n", "\r\n"))


async def _existing(ctx: ToolContext, path: str) -> str | None:
    try:
        return await read_text(ctx, path)
    except ToolFailure as failure:
        if "does not exist" in str(failure):
            return None
        raise


async def _approve_and_write(
    ctx: ToolContext, path: str, before: str | None, after: str, verb: str
) -> ToolResult | str:
    """Ask per mode, then write. Returns a refusal result, or once written what the
    language servers say the change introduced ("" when nothing: see agent/lsp/)."""
    diff = unified_diff(path, before or "", after)
    summary = flag_config(f"{verb} {path}", [path])
    refusal = await ctx.gate.check(Action.EDIT, summary, ctx.emit, diff=diff, path=path)
    if refusal:
        return ToolResult(False, refusal)
    await ctx.sandbox.write_file(path, after.encode("utf-8"))
    if ctx.language_servers is None:
        return ""
    found = await ctx.language_servers.check_edit(ctx.sandbox, path, before, after, ctx.emit)
    return f"\n{found}" if found else ""


@tool(
    "edit_file",
    "Replace `old_text` with `new_text` in a file. old_text must match the file exactly "
    "once (copy it from read_file, with a few lines of context); set replace_all to "
    "change every occurrence.",
    {
        "path": {"type": "string"},
        "old_text": {"type": "string", "description": "the exact text to replace"},
        "new_text": {"type": "string", "description": "what to put in its place"},
        "replace_all": {"type": "boolean", "description": "replace every occurrence"},
    },
    ["path", "old_text", "new_text"],
)
async def edit_file(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    path = workspace_path(args.get("path"))
    old, new = arg_str(args, "old_text"), arg_str(args, "new_text")
    before = await _existing(ctx, path)
    if before is None:
        raise ToolFailure(f"{path} does not exist; use write_file to create it.")
    try:
        result = replace_keeping_line_endings(
            before, old, new, replace_all=bool(args.get("replace_all")), path=path
        )
    except ToolFailure as failure:
        elsewhere = await _files_holding(ctx, old, path) if old.strip() else []
        if len(elsewhere) == 1:  # the right change in the wrong file: say which file
            raise ToolFailure(
                f"`old_text` is not in {path}, but it is in {elsewhere[0]}: edit that file "
                "(the same call with that path)."
            ) from None
        raise failure from None
    if result.text == before:
        raise ToolFailure("old_text and new_text are the same; nothing would change.")
    if len(result.text.encode()) > MAX_WRITE_BYTES:
        raise ToolFailure(f"the file would be over {MAX_WRITE_BYTES // 1024} KB; nothing changed.")
    written = await _approve_and_write(ctx, path, before, result.text, "edit")
    if isinstance(written, ToolResult):
        return written
    what = f"{result.count} places" if result.count > 1 else "1 place"
    note = " (matched after ignoring whitespace differences)" if result.fuzzy else ""
    warning = introduced_errors(path, before.encode(), result.text.encode())
    return ToolResult(True, f"Edited {path}: replaced {what}{note}.{warning}{written}", edited=True)


async def _files_holding(ctx: ToolContext, text: str, other_than: str) -> list[str]:
    """The workspace's tracked or new files that contain `text` exactly (a few at most)."""
    first = next((line for line in text.splitlines() if line.strip()), "").strip()
    found = await ctx.sandbox.exec(
        f"git grep -lF --untracked -e {shlex.quote(first)} -- . 2>/dev/null | head -20", timeout=30
    )
    holding = []
    for candidate in found.output.split("\n"):
        if not candidate or candidate == other_than:
            continue
        with contextlib.suppress(ToolFailure, UnicodeDecodeError, FileNotFoundError):
            content = (await ctx.sandbox.read_file(candidate)).decode("utf-8")
            if text in content or text.strip() in content:
                holding.append(candidate)
    return holding


@tool(
    "write_file",
    "Create a file, or overwrite it whole, with `content`. Prefer edit_file for changes "
    "to existing files.",
    {"path": {"type": "string"}, "content": {"type": "string"}},
    ["path", "content"],
)
async def write_file(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    path = workspace_path(args.get("path"))
    content = arg_str(args, "content")
    if len(content.encode()) > MAX_WRITE_BYTES:
        raise ToolFailure(f"content is over {MAX_WRITE_BYTES // 1024} KB; write smaller files.")
    before = await _existing(ctx, path)
    if before == content:
        return ToolResult(True, f"{path} already has exactly this content; nothing changed.")
    written = await _approve_and_write(ctx, path, before, content, "write")
    if isinstance(written, ToolResult):
        return written
    verb = "Created" if before is None else "Overwrote"
    lines = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
    warning = introduced_errors(
        path, before.encode() if before is not None else None, content.encode()
    )
    return ToolResult(True, f"{verb} {path} ({lines} lines).{warning}{written}", edited=True)
