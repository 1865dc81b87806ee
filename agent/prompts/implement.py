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
import io
import re
import tokenize

from agent.llm.base import Message
from agent.tools.testdigest import TestDigest

# What the tests may take of a request; the task is never cut. A small model on a laptop
# reads a prompt at some 30-50 tokens a second: 7,000 characters of tests cost a minute
# before the first word of every run's first sample, and the tests' first cases say what
# the rest repeat.
MAX_TESTS_CHARS = 3_000
MAX_FAILURE_CHARS = 1_500

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
    each = MAX_TESTS_CHARS // max(1, len(tests))
    shown = "\n\n".join(
        f"{name}:\n```python\n{compact_tests(text, each).rstrip()}\n```"
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
    failure: TestDigest, turn: int = 0,
) -> list[Message]:  # fmt: skip
    """The best module so far handed back with the tests it still fails: a few of their
    failures, a different few on each `turn`, so that a model which answered the first
    view with its own module again sees another way in."""
    messages = implement_request(task, documents, path, stub, tests)
    said = f"```python\n{candidate.rstrip()}\n```"
    messages.append(Message("assistant", said))
    messages.append(
        Message(
            "user",
            "kiln ran the tests on it; these still fail:\n"
            f"{failures_shown(failure, turn, MAX_FAILURE_CHARS)}\n\n"
            f"Fix the module: write the complete corrected {path}.",
        )
    )
    return messages


def failures_shown(digest: TestDigest, turn: int, most: int) -> str:
    """A test digest as an improvement asks with it: its counts, then whole failures from
    the `turn`-th on (round the list of every failure the digest kept, past what its text
    had room for), while they fit in `most` characters. The list of failing names is left
    out: the failures shown name their tests, and the names of the others would crowd out
    what they say."""
    counts = digest.text.partition("\n")[0]
    accounts = [_brief(account.splitlines()) for account in digest.failures]
    if len(accounts) < 2:
        return _cut(digest.text, most, "the test output")
    step = len(_fitting(accounts, most - len(counts)))  # each turn starts past the last one's
    first = (turn * step) % len(accounts)
    shown = _fitting(accounts[first:] + accounts[:first], most - len(counts))
    left = len(accounts) - len(shown)
    more = f"\n\n({left} more failures not shown)" if left else ""
    return counts + "\n\n" + "\n\n".join(shown) + more


# Of one failure's account: the lines after its title, and of those the error's own
# (pytest's `E` lines: a long list diff goes on for a dozen) that an improvement shows.
ACCOUNT_LINES, ERROR_LINES = 6, 2


def _brief(block: list[str]) -> str:
    """One failure as an improvement shows it: its title, the test's line and the first
    lines of the error, so that more of the failures fit."""
    kept, errors = [], 0
    for line in block[1:]:
        if not line.strip(" E"):
            continue
        if line.startswith("E "):
            errors += 1
            if errors > ERROR_LINES:
                continue
        kept.append(line)
    return "\n".join([block[0], *kept[:ACCOUNT_LINES]]).strip()


def _fitting(accounts: list[str], most: int) -> list[str]:
    """The first accounts while they fit in `most` characters (the first one cut to fit)."""
    shown: list[str] = []
    size = 0
    for account in accounts:
        if shown and size + len(account) + 2 > most:
            break
        shown.append(_cut(account, most - size, "this failure"))
        size += len(shown[-1]) + 2
    return shown


def compact_tests(source: str, most: int) -> str:
    """A test file as a request shows it: comment lines and runs of blank lines dropped,
    then, past `most` characters, whole test functions kept in order while they fit and
    the number left out said. Code that does not parse is cut at `most`."""
    text = re.sub(r"\n\s*\n(\s*\n)+", "\n\n", _without_comment_lines(source)).strip() + "\n"
    if len(text) <= most:
        return text
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return _cut(text, most, "the tests")
    tests = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    ]
    lines = text.splitlines(keepends=True)
    spans = sorted((_first_line(node), node.end_lineno or node.lineno) for node in tests)
    costs = [sum(len(lines[i - 1]) for i in range(start, end + 1)) for start, end in spans]
    size = len(text) - sum(costs)
    # Every stride-th test first, then the ones between: what is kept spans the file.
    fits = max(1, len(spans) * max(0, most - size) // max(1, sum(costs)))
    stride = max(1, round(len(spans) / fits))
    order = sorted(range(len(spans)), key=lambda i: (i % stride, i))
    dropped: set[int] = set()  # 1-based line numbers left out
    for i in order:
        if size + costs[i] <= most:
            size += costs[i]
        else:
            dropped.update(range(spans[i][0], spans[i][1] + 1))
    left_out = sum(1 for start, _ in spans if start in dropped)
    kept = "".join(line for number, line in enumerate(lines, 1) if number not in dropped)
    if left_out:
        kept = kept.rstrip() + f"\n\n# ... {left_out} more tests not shown\n"
    return kept


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _without_comment_lines(source: str) -> str:
    """`source` without its lines that hold only a comment (a `#` inside a string stays)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    only_comment = {
        t.start[0]
        for t in tokens
        if t.type == tokenize.COMMENT and not t.line[: t.start[1]].strip()
    }
    return "".join(
        line
        for number, line in enumerate(source.splitlines(keepends=True), 1)
        if number not in only_comment
    )


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
