"""A small model's first message for a question about the code: what it is answered from.

A big model reads around on its own (the repo map is in its stable prefix). A small one
answers best from text in front of it, so its first message carries the map of the
repository and its README beside the question. The words that say "answer, change
nothing" are added by the loop for every model (`system.QUESTION_NOTE`).
"""

from __future__ import annotations

import asyncio

from agent.context.index import RepoIndex
from agent.context.repomap import map_of_index
from sandbox.base import Sandbox, SandboxError

MAP_TOKENS = 600  # a small model's window is a few thousand tokens: the map is a part
README_CHARS = 3000
READMES = ("README.md", "README.rst", "README.txt", "README")


async def question_message(task: str, sandbox: Sandbox, index: RepoIndex | None) -> str:
    """The question as given, then the repository's map and README when it has them."""
    parts = [task]
    if index is not None:
        await asyncio.to_thread(index.refresh)
        shown = await asyncio.to_thread(map_of_index, index, (), MAP_TOKENS)
        if shown:
            parts.append(f"The repository's files and their definitions:\n{shown}")
    readme = await _readme(sandbox)
    if readme:
        parts.append(readme)
    return "\n\n".join(parts)


async def _readme(sandbox: Sandbox) -> str:
    for name in READMES:
        try:
            text = (await sandbox.read_file(name)).decode("utf-8", "replace").strip()
        except (SandboxError, OSError):  # no such file: the next name
            continue
        if text:
            cut = "\n[... the rest of the file is left out]" if len(text) > README_CHARS else ""
            return f"{name}:\n```\n{text[:README_CHARS]}{cut}\n```"
    return ""
