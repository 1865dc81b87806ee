"""What a model is told to implement a stub from a description: the whole module.

A task that hands over a stub (functions whose body is `pass`, `...` or `raise
NotImplementedError`) and tests that fail against it is not a bug to localise: there is
nothing to mutate. The model is asked for the whole module at once, from the person's
words (verbatim, never cut), the documents the repository holds for the task, the stub
and the tests' expectations; a second kind of request hands back a candidate with the
tests it still fails. Where the prompt must stay short, the tests are cut, never the task.
"""

from __future__ import annotations

import ast
import re

from agent.llm.base import Message

MAX_TESTS_CHARS = 7_000  # what the tests may take of a request; the task is never cut
MAX_FAILURE_CHARS = 2_500

SYSTEM = (
    "You are an expert Python programmer. You implement a module completely, so that its "
    "tests pass. Keep every name the stub defines (functions, classes, methods, "
    "arguments): the tests import them. Use only the standard library. Write no comments "
    "or docstrings. Reply with the complete module in one ```python fenced block and "
    "nothing else."
)
_FENCE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)


def _cut(text: str, most: int, what: str) -> str:
    if len(text) <= most:
        return text
    return text[:most] + f"\n[... {what} cut here: {len(text)} characters in all]"


def implement_request(
    task: str, documents: str, path: str, stub: str, tests: dict[str, str]
) -> list[Message]:
    """The whole module asked for: the task first (every request of the run starts with
    the same words, so a server's prefix cache serves the samples), then the stub and the
    tests, the request last."""
    shown = "\n\n".join(
        f"{name}:\n```python\n{_cut(text, MAX_TESTS_CHARS, name).rstrip()}\n```"
        for name, text in tests.items()
    )
    parts = [f"The task:\n{task.strip()}"]
    if documents:
        parts.append(f"The task's documents in the repository:\n{documents}")
    parts += [
        f"The stub to implement, {path}:\n```python\n{stub.rstrip()}\n```",
        f"The tests it must pass:\n{shown}" if shown else "",
        f"Write the complete {path}.",
    ]
    return [
        Message("system", SYSTEM, cache_breakpoint=True),
        Message("user", "\n\n".join(p for p in parts if p)),
    ]


def improve_request(
    task: str, documents: str, path: str, stub: str, tests: dict[str, str], candidate: str,
    failure: str,
) -> list[Message]:  # fmt: skip
    """The best module so far handed back with the tests it still fails."""
    messages = implement_request(task, documents, path, stub, tests)
    said = f"```python\n{candidate.rstrip()}\n```"
    messages.append(Message("assistant", said))
    messages.append(
        Message(
            "user",
            "kiln ran the tests on it; these still fail:\n"
            f"{_cut(failure, MAX_FAILURE_CHARS, 'the test output')}\n\n"
            f"Fix the module: write the complete corrected {path}.",
        )
    )
    return messages


def module_from_reply(reply: str, stub: str) -> str | None:
    """The module in the reply: its longest fenced block that parses and keeps the stub's
    top-level names; None when there is none."""
    blocks = sorted(_FENCE.findall(reply), key=len, reverse=True)
    if not blocks and "```" not in reply:
        blocks = [reply]  # a bare module, as small models sometimes answer
    wanted = _top_level_names(stub)
    for block in blocks:
        try:
            names = _top_level_names(block, strict=True)
        except SyntaxError:
            continue
        if wanted <= names:
            return block.rstrip() + "\n"
    return None


def _top_level_names(source: str, strict: bool = False) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        if strict:
            raise
        return set()
    defined = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name for node in tree.body if isinstance(node, defined)}
