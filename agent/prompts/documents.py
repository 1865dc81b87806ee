"""The documents a task points at, quoted for a small model beside the person's words.

A task often says little itself: "implement the exercise" beside an instructions file, or
"as the README's section on configuration says". A small model never opens them on its
own, and kiln's own requests (rewrites, samples) have no tools to open them with. So the
first message and every request made from it quote them: a file the task names, the
files people keep a task's description in, the README section the task names. A document
the task already quotes (a harness that pastes the instructions in) is not quoted twice.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Awaitable, Callable

# Where people keep a task's description: read whether or not the task names them.
USUAL_PLACES = (
    ".docs/instructions.md",
    ".docs/instructions.append.md",
    "INSTRUCTIONS.md",
    ".docs/introduction.md",
)
DOCUMENT_SUFFIXES = (".md", ".markdown", ".rst", ".txt", ".adoc")
README = re.compile(r"^readme(\.\w+)?$", re.I)
MAX_DOCUMENT_CHARS = 6000  # one document; a longer one is cut at its end, with a note
MAX_DOCUMENTS_CHARS = 9000  # all of them: the rest of the window is the tests and the code
_QUOTED_ALREADY = 200  # a task holding this much of a document's start quotes it
_WORD_PATH = re.compile(r"[\w./-]+\.\w+")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)

Read = Callable[[str], Awaitable[str]]  # a file's text, "" when it cannot be read


def is_document(path: str) -> bool:
    return posixpath.splitext(path)[1].lower() in DOCUMENT_SUFFIXES


def named_documents(task: str, repo_files: list[str]) -> list[str]:
    """The repository's documents the task names by path, then the usual places, then a
    README the task mentions, each once."""
    known = set(repo_files)
    named = [w.removeprefix("./") for w in _WORD_PATH.findall(task)]
    paths = [p for p in named if p in known and is_document(p)]
    paths += [p for p in USUAL_PLACES if p in known]
    if re.search(r"\breadme\b", task, re.I):
        paths += sorted(p for p in known if README.match(p))  # the top-level one
    return list(dict.fromkeys(paths))


def readme_section(text: str, task: str) -> str:
    """The section of a Markdown README whose heading the task names (the longest such
    heading: the most specific), down to the next heading as high; the whole text when the
    task names none of its headings."""
    headings = list(_HEADING.finditer(text))
    lowered = task.lower()
    named = [h for h in headings if len(h.group(2)) > 2 and h.group(2).lower() in lowered]
    if not named:
        return text
    heading = max(named, key=lambda h: len(h.group(2)))
    level = len(heading.group(1))
    end = next(
        (h.start() for h in headings if h.start() > heading.start() and len(h.group(1)) <= level),
        len(text),
    )
    return text[heading.start() : end]


async def documents(task: str, repo_files: list[str], read: Read) -> str:
    """The documents the task points at, each under its path, within MAX_DOCUMENTS_CHARS;
    "" when there are none."""
    blocks: list[str] = []
    budget = MAX_DOCUMENTS_CHARS
    for path in named_documents(task, repo_files):
        text = (await read(path)).strip()
        if README.match(posixpath.basename(path)):
            text = readme_section(text, task).strip()
        if not text or text[:_QUOTED_ALREADY] in task or budget <= 0:
            continue
        most = min(MAX_DOCUMENT_CHARS, budget)
        if len(text) > most:
            text = text[:most].rstrip() + f"\n[... cut here: {len(text)} characters in all]"
        budget -= len(text)
        blocks.append(f"{path}:\n{_fenced(text)}")
    return "\n\n".join(blocks)


def _fenced(text: str) -> str:
    """`text` in a fence longer than any it holds itself (Markdown quotes code in fences)."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}\n{text}\n{fence}"
