"""Rewrite one function: the small model's first try at a failing test, judged by the tests.

Asked for an `edit_file` call, a small model copies `old_text` wrong, joins lines, or
edits the line the traceback names rather than the function that computes the wrong
value. Asked to rewrite one given function whole, it writes plain code, which is what it
was trained on, in a few dozen tokens. kiln picks the functions (agent/repair/suspects.py: the
definitions the failing tests use, those named in the failure first), asks for each in turn and puts the
reply in place of the function itself, so nothing has to match.
"""

from __future__ import annotations

import re
import textwrap

from agent.context.tags import extract_tags
from agent.llm.base import Message
from agent.repair.suspects import Suspect

SYSTEM = "You are an expert programmer. You fix a bug by rewriting one function."
_FENCE = re.compile(r"```[\w+-]*[ \t]*\n(.*?)(?:```|\Z)", re.S)
_ERROR_LINE = re.compile(r"\s*(\w+(Error|Exception)\b|assert|Expected|expected)")


def rewrite_request(context: str, failure: str, suspect: Suspect) -> list[Message]:
    """What the model is shown: the briefing's `context` first (the failure, the code
    around it, the task's documents and the task as the person gave it: the same for every
    suspect and every sample, so the server's prompt cache holds it), then the one
    function whole, its docstring with it, and right under it the failing lines that bear
    on it: a small model heeds what it read last."""
    fence = "```" + suspect.language
    seen = evidence(failure, suspect.name)
    ask = (
        f"The bug may be in `{suspect.name}` ({suspect.path}, lines {suspect.line}-"
        f"{suspect.end_line}):\n{fence}\n{suspect.text}\n```\n"
        + (f"The tests fail here:\n```\n{seen}\n```\n" if seen else "")
        + f"Fix the bug in `{suspect.name}` so that the failing tests pass. Reply with only the "
        f"corrected `{suspect.name}`, complete, in one {fence} block."
    )
    return [Message("system", SYSTEM), Message("user", f"{context}\n\n{ask}")]


def evidence(failure: str, name: str, most: int = 3) -> str:
    """The failure's lines that use `name`, each with the line after it (the assertion's
    message, usually); without any, the lines before each error message. Frames left out."""
    lines = [line for line in failure.split("\n") if not line.lstrip().startswith("File ")]
    hits = [i for i, line in enumerate(lines) if re.search(rf"\b{re.escape(name)}\b", line)]
    if not hits:
        hits = [i - 1 for i, line in enumerate(lines) if i and _ERROR_LINE.match(line)]
    picked: list[str] = []
    for i in hits[:most]:
        for line in lines[i : i + 2]:
            if line.strip() and line.strip() not in picked:
                picked.append(line.strip())
    return "\n".join(picked)


def rewritten(reply: str, suspect: Suspect) -> str | None:
    """The new text of `suspect` from the model's reply, indented as the original, or None
    when the reply holds no definition of that name. A reply that rewrote the whole class
    or file gives just that definition."""
    match = _FENCE.search(reply)
    code = textwrap.dedent(match.group(1) if match else reply).strip("\n")
    if not code.strip():
        return None
    lines = code.split("\n")
    tags = extract_tags(suspect.path, code.encode())
    own = [t for t in tags if t.kind == "def" and t.name == suspect.name and t.def_kind != "class"]
    if own:
        first = own[0]
        lines = textwrap.dedent("\n".join(lines[first.line - 1 : first.end_line])).split("\n")
    elif not re.search(rf"\b{re.escape(suspect.name)}\b", lines[0]):
        return None
    def_line = suspect.text.split("\n", 1)[0]
    indent = def_line[: len(def_line) - len(def_line.lstrip())]
    new = "\n".join(indent + line if line.strip() else "" for line in lines)
    return None if new == suspect.text else new
