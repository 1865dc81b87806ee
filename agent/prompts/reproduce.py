"""What a model is told to turn a request into a failing test, before anything is fixed.

A bug report or a feature request often comes with no failing test, and a small model
cannot tell by itself when it is done: the tests that pass before it starts still pass
after it searched once. So kiln first asks for one new test file that checks what the
person asked for, in the repository's own test style, and keeps it only when it fails on
the code as it is. From then on the tests say when the request is carried out, and the
new test is part of the diff the person approves.
"""

from __future__ import annotations

import posixpath
import re

from agent.llm.base import Message

SYSTEM = (
    "You are an expert programmer. You write one new test file that checks what the "
    "person asks for. It must fail on the code as it is now, because the requested "
    "behaviour is missing or wrong, and pass once the request is carried out. Use the "
    "same test framework and import style as the existing tests. Reply with the complete "
    "test file in one fenced code block and nothing else."
)
MAX_CODE_CHARS = 9_000
MAX_EXAMPLE_CHARS = 2_500
_FENCE = re.compile(r"```[\w+-]*[ \t]*\n(.*?)```", re.S)
_WORD = re.compile(r"[a-z_][a-z0-9_]{2,}")


def relevant_files(task: str, texts: dict[str, str], most: int = 2) -> list[str]:
    """The code files the request is most likely about: named in it, else sharing the most
    of its words."""
    lowered = task.lower()
    named = [p for p in texts if posixpath.basename(p).lower() in lowered or p in task]
    words = set(_WORD.findall(lowered))

    def overlap(path: str) -> int:
        return len(words & set(_WORD.findall(texts[path].lower())))

    rest = sorted((p for p in texts if p not in named), key=overlap, reverse=True)
    return [*named, *rest][:most]


def reproduce_request(
    task: str, documents: str, code: dict[str, str], example: tuple[str, str], path: str
) -> list[Message]:
    """The task first (verbatim), then the code it is about and an existing test as the
    style to follow, then what to write."""
    blocks = []
    budget = MAX_CODE_CHARS
    for name, text in code.items():
        shown = text if len(text) <= budget else text[:budget] + "\n# [... cut here]"
        budget -= len(shown)
        blocks.append(f"{name}:\n```\n{shown.rstrip()}\n```")
    example_path, example_text = example
    parts = [f"The person's request:\n{task.strip()}"]
    if documents:
        parts.append(documents)
    parts += blocks
    if example_path:
        cut = example_text[:MAX_EXAMPLE_CHARS]
        parts.append(f"An existing test, for its style ({example_path}):\n```\n{cut.rstrip()}\n```")
    parts.append(f"Write {path}: a test that fails now and passes once the request is carried out.")
    return [
        Message("system", SYSTEM, cache_breakpoint=True),
        Message("user", "\n\n".join(parts)),
    ]


def reply_test_file(reply: str) -> str | None:
    """The test file in the reply (its longest fenced block), when it defines a test."""
    blocks = sorted(_FENCE.findall(reply), key=len, reverse=True)
    for block in blocks:
        if re.search(r"^\s*(def|async def)\s+test", block, re.M):
            return block.rstrip() + "\n"
    return None
