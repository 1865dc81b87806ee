"""Find-and-replace for edit_file: exact first, then a whitespace-tolerant retry.

Small models often get indentation or trailing spaces slightly wrong; matching line by
line on stripped text and re-indenting the replacement saves a round trip. When nothing
or too much matches, the error shows the candidate lines so the next try can succeed.
"""

from __future__ import annotations

import difflib
import re

from agent.tools.base import ToolFailure
from sandbox.frozen import frozen


@frozen
class Replacement:
    """A file's text after a replacement, how many places changed, and whether it was fuzzy."""

    text: str
    count: int
    fuzzy: bool  # matched only after ignoring whitespace differences


def replace(
    content: str, old: str, new: str, *, replace_all: bool = False, path: str = ""
) -> Replacement:
    if not old:
        raise ToolFailure("`old_text` is empty; to create or overwrite a file use write_file.")
    count = content.count(old)
    if count == 1 or (count > 1 and replace_all):
        return Replacement(content.replace(old, new), count, fuzzy=False)
    if count > 1:
        raise ToolFailure(
            f"`old_text` occurs {count} times in {path} (starting on lines "
            f"{_line_numbers(content, old)}); include more surrounding lines so it matches "
            "once, or set replace_all to true."
        )
    unnumbered = _without_line_numbers(old)
    if unnumbered is not None:  # copied from read_file with its line numbers
        new = _without_line_numbers(new) or new
        return replace(content, unnumbered, new, replace_all=replace_all, path=path)
    return _fuzzy_replace(content, old, new, replace_all=replace_all, path=path)


QUOTE_WHOLE_FILE_LINES = 60
_NUMBERED = re.compile(r"^ *\d+\t", re.M)


def _without_line_numbers(text: str) -> str | None:
    """`text` without read_file's "   12<TAB>" prefixes, if every line has one."""
    lines = text.strip("\n").splitlines()
    if not lines or not all(_NUMBERED.match(line) for line in lines):
        return None
    return _NUMBERED.sub("", text)


def _line_numbers(content: str, old: str) -> str:
    numbers: list[str] = []
    start = content.find(old)
    while start != -1 and len(numbers) < 10:
        numbers.append(str(content.count("\n", 0, start) + 1))
        start = content.find(old, start + 1)
    return ", ".join(numbers)


def _fuzzy_replace(
    content: str, old: str, new: str, *, replace_all: bool, path: str
) -> Replacement:
    lines = content.splitlines(keepends=True)
    old_lines = old.strip("\n").splitlines()
    wanted = [line.strip() for line in old_lines]
    starts = [
        i
        for i in range(len(lines) - len(wanted) + 1)
        if all(lines[i + k].strip() == wanted[k] for k in range(len(wanted)))
    ]
    if not starts:
        found = _ignoring_blank_lines(lines, old_lines, new)
        if found is None:
            raise ToolFailure(_not_found(lines, old_lines, path))
        return found
    if len(starts) > 1 and not replace_all:
        shown = ", ".join(str(s + 1) for s in starts[:10])
        raise ToolFailure(
            f"`old_text` was not found exactly in {path}; ignoring whitespace it matches "
            f"{len(starts)} places (lines {shown}). Copy the exact text from read_file."
        )
    for start in reversed(starts):
        end = start + len(wanted)
        eol = "\n" if not lines[end - 1].endswith("\r\n") else "\r\n"
        body = _reindent(new.strip("\n").splitlines(), old_lines, lines[start:end])
        block = "".join(line + eol for line in body) if new.strip("\n") else ""
        if not lines[end - 1].endswith(("\n", "\r")):
            block = block.removesuffix(eol)  # the match ended the file without a newline
        lines[start:end] = [block]
    return Replacement("".join(lines), len(starts), fuzzy=True)


def _ignoring_blank_lines(lines: list[str], old_lines: list[str], new: str) -> Replacement | None:
    """The one place whose non-blank lines match old_text's, when it left out a blank line."""
    body = [i for i, line in enumerate(lines) if line.strip()]
    wanted = [line.strip() for line in old_lines if line.strip()]
    hits = [
        j
        for j in range(len(body) - len(wanted) + 1)
        if all(lines[body[j + k]].strip() == wanted[k] for k in range(len(wanted)))
    ]
    if len(wanted) < 2 or len(hits) != 1:
        return None
    first, last = body[hits[0]], body[hits[0] + len(wanted) - 1]
    block = new.strip("\n")
    if block and lines[last].endswith("\n"):
        block += "\n"
    return Replacement("".join(lines[:first]) + block + "".join(lines[last + 1 :]), 1, True)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _reindent(new_lines: list[str], old_lines: list[str], matched: list[str]) -> list[str]:
    """Give each replacement line the indentation the file has where the model's was off.

    Line k of the replacement is shifted like line k of the matched text (the last one for
    lines past its end), so a block the model wrote flush left lands at the right depth.
    """
    out = []
    for k, line in enumerate(new_lines):
        j = min(k, len(old_lines) - 1)
        given, actual = _indent(old_lines[j]), _indent(matched[j].rstrip("\r\n"))
        if not line.strip():
            out.append("")
        elif given == actual:
            out.append(line)
        elif line.startswith(given):
            out.append(actual + line[len(given) :])
        else:
            out.append(actual + line.lstrip())
    return out


def _not_found(lines: list[str], old_lines: list[str], path: str) -> str:
    """Point at the lines that look most like the first line the model asked for."""
    first = next((line.strip() for line in old_lines if line.strip()), "")
    stripped = [line.strip() for line in lines]
    close = difflib.get_close_matches(first, stripped, n=3, cutoff=0.5) if first else []
    message = f"`old_text` was not found in {path}, not even ignoring whitespace."
    if len(lines) <= QUOTE_WHOLE_FILE_LINES:  # small: show it all, to copy old_text from
        body = "".join(lines).rstrip("\n")
        return message + f" This is the whole file now:\n```\n{body}\n```\nCopy old_text from it."
    if close:
        shown = []
        for candidate in close:
            number = stripped.index(candidate)
            shown.append(f"  line {number + 1}: {lines[number].rstrip()}")
        message += " The most similar lines are:\n" + "\n".join(shown)
    return message + "\nRead the file again and copy the exact text to replace."
