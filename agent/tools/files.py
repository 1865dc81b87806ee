"""Looking at the workspace: read_file, list_files, search."""

from __future__ import annotations

import shlex
from typing import Any

from agent.context.tags import file_record
from agent.tools.base import (
    ToolContext,
    ToolFailure,
    ToolResult,
    arg_int,
    arg_str,
    tool,
    workspace_path,
)

MAX_READ_LINES = 800
# A file longer than this read without a range comes back as its first WINDOW_LINES
# lines and an outline of the whole: the model picks the part it needs instead of
# paying for 800 lines of which it reads twenty.
BIG_FILE_LINES = 400
WINDOW_LINES = 200
MAX_OUTLINE_ENTRIES = 200
MAX_READ_BYTES = 256 * 1024  # bigger files are read by line range
MAX_LIST_ENTRIES = 400
MAX_SEARCH_LINES = 150


async def read_text(ctx: ToolContext, path: str) -> str:
    """The file's text; a clear ToolFailure for missing, directory or binary files."""
    try:
        data = await ctx.sandbox.read_file(path)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise ToolFailure(
            f"{path} does not exist or is a directory; use list_files to see what is there."
        ) from None
    if b"\0" in data[:8192]:
        raise ToolFailure(
            f"{path} is a binary file ({len(data)} bytes); it cannot be read as text."
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolFailure(f"{path} is not UTF-8 text; it cannot be read or edited here.") from None


@tool(
    "read_file",
    "Read a text file with line numbers. A long file read whole comes back as its first "
    "lines and an outline of its definitions; then give start_line/end_line.",
    {
        "path": {"type": "string", "description": "relative to the repository root"},
        "start_line": {"type": "integer", "description": "first line, 1-based"},
        "end_line": {"type": "integer", "description": "last line, inclusive"},
    },
    ["path"],
)
async def read_file(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    path = workspace_path(args.get("path"))
    text = await read_text(ctx, path)
    lines = text.splitlines()
    asked_start, asked_end = arg_int(args, "start_line"), arg_int(args, "end_line")
    if asked_start is None and asked_end is None and len(lines) > BIG_FILE_LINES:
        return _window_and_outline(path, text, lines)
    start = max(1, asked_start or 1)
    end = min(len(lines), asked_end or len(lines))
    if lines and start > len(lines):
        raise ToolFailure(
            f"{path} has only {len(lines)} lines; start_line {start} is past its end."
        )
    shown_end = min(end, start + MAX_READ_LINES - 1)
    body, size = [], 0
    for number in range(start, shown_end + 1):
        line = f"{number:>5}\t{lines[number - 1]}"
        size += len(line)
        if size > MAX_READ_BYTES:
            shown_end = number - 1
            break
        body.append(line)
    output = "\n".join(body) if body else f"({path} is empty)"
    truncated = shown_end < end
    if truncated:
        output += (
            f"\n[showing lines {start}-{shown_end} of {len(lines)}; "
            f"read on with start_line={shown_end + 1}]"
        )
    return ToolResult(True, output, truncated=truncated)


def _window_and_outline(path: str, text: str, lines: list[str]) -> ToolResult:
    window = "\n".join(f"{n:>5}\t{lines[n - 1]}" for n in range(1, WINDOW_LINES + 1))
    definitions = file_record(path, text.encode("utf-8"))[0]
    parts = [window, f"[showing lines 1-{WINDOW_LINES} of {len(lines)}]"]
    if definitions:
        shown = definitions[:MAX_OUTLINE_ENTRIES]
        outline = "\n".join(f"{d[2]:>5}-{d[3]:<5} {d[4]}" for d in shown)
        more = len(definitions) - len(shown)
        tail = f"\n[{more} more definitions]" if more else ""
        parts.append(f"[outline of {path}: first line-last line, definition]\n{outline}{tail}")
    parts.append(
        f"[read any part with start_line and end_line, e.g. start_line={WINDOW_LINES + 1} "
        f"end_line={min(len(lines), 2 * WINDOW_LINES)}]"
    )
    return ToolResult(True, "\n".join(parts), truncated=True)


@tool(
    "list_files",
    "List files in the repository (respects .gitignore). Optionally under `path` and "
    "matching a glob `pattern` such as '*.py'.",
    {
        "path": {"type": "string", "description": "a directory relative to the root"},
        "pattern": {"type": "string", "description": "a glob, e.g. '*.py' or 'test_*'"},
    },
    [],
)
async def list_files(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    path = workspace_path(args.get("path") or ".", allow_root=True)
    pattern = arg_str(args, "pattern", default="").strip()
    spec = pattern if path == "." else f"{path}/{pattern}" if pattern else path
    pathspec = shlex.quote(spec) if spec else "."
    command = (
        f"git ls-files -co --exclude-standard -- {pathspec} 2>/dev/null "
        f"|| find {shlex.quote(path)} -type f -not -path '*/.git/*'"
    )
    result = await ctx.sandbox.exec(command, timeout=60)
    entries = sorted({line.strip() for line in result.output.splitlines() if line.strip()})
    if not entries:
        where = f" under {path}" if path != "." else ""
        return ToolResult(True, f"No files{where} match {pattern or 'anything'}.")
    shown = entries[:MAX_LIST_ENTRIES]
    output = "\n".join(shown)
    truncated = len(entries) > MAX_LIST_ENTRIES or result.truncated
    if truncated:
        output += "\n[list cut short; narrow it with path or pattern]"
    return ToolResult(True, output, truncated=truncated)


@tool(
    "search",
    "Search file contents with a regular expression (like grep -nE). Returns file:line:text.",
    {
        "pattern": {"type": "string", "description": "a regular expression"},
        "path": {"type": "string", "description": "a file or directory to search in"},
        "glob": {"type": "string", "description": "only files matching this glob, e.g. '*.py'"},
    },
    ["pattern"],
)
async def search(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    pattern = arg_str(args, "pattern")
    if not pattern:
        raise ToolFailure("`pattern` is empty; give a regular expression to search for.")
    path = workspace_path(args.get("path") or ".", allow_root=True)
    glob = arg_str(args, "glob", default="").strip()
    spec = path if not glob else (glob if path == "." else f"{path}/{glob}")
    base = "git grep -n -I --untracked --max-count=50"
    tail = f"-e {shlex.quote(pattern)} -- {shlex.quote(spec)}"
    # Perl syntax (\d, lookarounds) first, the POSIX extended one where git lacks PCRE.
    result = await ctx.sandbox.exec(
        f"{base} -P {tail} 2>/dev/null || {{ [ $? -ne 1 ] && {base} -E {tail}; }}", timeout=60
    )
    if result.exit_code == 1 or (result.exit_code == 0 and not result.output.strip()):
        return ToolResult(True, f"No matches for /{pattern}/ in {spec}.")
    if result.exit_code != 0:
        raise ToolFailure(f"search failed: {result.output.strip()[:500]}")
    lines = result.output.splitlines()
    shown = [line[:300] for line in lines[:MAX_SEARCH_LINES]]
    truncated = len(lines) > MAX_SEARCH_LINES or result.truncated
    output = "\n".join(shown)
    if truncated:
        output += "\n[more matches left out; narrow the search with path or glob]"
    return ToolResult(True, output, truncated=truncated)
