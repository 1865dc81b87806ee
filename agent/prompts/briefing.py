"""The first message to a small model: the failing tests, the files involved, the task.

kiln runs the tests before the model starts anyway. A big model reads around on its own;
a small one tends to guess what a file contains instead of reading it. So for profiles
with `small_model` the first message already holds the test digest and the text of the
files the task, the tracebacks and the failing tests' imports point at, and the model's
first reply can be the fix. The task comes last, verbatim, after the documents it points
at (agent/prompts/documents.py): every request kiln makes from the briefing (rewrites,
samples) shares that text as its prefix, so the person's words are in each of them and
the server's prompt cache still holds across them. Where the prompt must stay short, the
tests' output and the code are cut, never the task.
"""

from __future__ import annotations

import asyncio
import posixpath
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from agent.context.index import RepoIndex
from agent.llm.base import Message
from agent.prompts.conversation import truncate
from agent.prompts.documents import Read, is_document
from agent.prompts.documents import documents as documents_for
from agent.tools.testdigest import TestDigest
from sandbox.base import Sandbox, SandboxError
from sandbox.frozen import frozen

if TYPE_CHECKING:
    from agent.context.retrieval import Found
    from agent.repair.suspects import Suspect

MAX_FILES = 4
MAX_FILE_CHARS = 6000  # a bigger file is left for read_file: it would crowd out the rest
MAX_TOTAL_CHARS = 12000  # the code shown
# All a briefing shows but the task, which is never cut: the tests' output, the code and
# the task's documents (about 6k tokens, well inside a small model's window, and what
# its prompt evaluation on two cores can afford once per run; samples reuse the cache).
MAX_PROMPT_CHARS = 20000
MIN_DIGEST_CHARS = 1200  # the failing assertions, at least, whatever the task takes
ONE_CALL = "Reply with one tool call."
FIX_CALL = "Fix the bug with one edit_file call."

# `File "/workspace/pkg/mod.py", line 3` (Python), `pkg/mod.py:3:` (pytest, go, jest, ...)
_TRACE_PATH = re.compile(r'File "([^"]+)", line \d+|([\w./-]+\.\w+):\d+')
_PY_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.M)
_WORD_PATH = re.compile(r"[\w./-]+\.\w+")
_TEST_LINE = re.compile(r"([\w./-]+\.\w+):(\d+)")


def is_test_file(path: str) -> bool:
    name = posixpath.basename(path)
    marked = name.startswith("test_") or name in ("test.py", "tests.py", "conftest.py")
    return (
        marked
        or any(m in name for m in ("_test.", ".test.", ".spec."))
        or ("/tests/" in "/" + path)
    )


def files_involved(
    task: str, digest_text: str, repo_files: list[str], read: dict[str, str] | None = None
) -> list[str]:
    """Repository files named by the task or the tracebacks, then what failing tests import.

    Non-test files come first: they are where a bug usually is. `read` holds the text of
    files already known, to follow the imports of test files.
    """
    known = set(repo_files)
    found: list[str] = []

    def add(raw: str) -> None:
        path = _in_repo(raw, known)
        if path and path not in found:
            found.append(path)

    for word in _WORD_PATH.findall(task):
        add(word)
    for quoted, plain in _TRACE_PATH.findall(digest_text):
        add(quoted or plain)
    for path in [p for p in found if p.endswith(".py") and is_test_file(p)]:
        for module in _python_imports((read or {}).get(path, "")):
            for candidate in (
                module.replace(".", "/") + ".py",
                module.replace(".", "/") + "/__init__.py",
            ):
                add(candidate)
    return sorted(found, key=is_test_file)


def code_file_in(digest_text: str) -> str:
    """The last non-test file a traceback in `digest_text` points at, or ""."""
    paths = [quoted or plain for quoted, plain in _TRACE_PATH.findall(digest_text)]
    code = [p.removeprefix("/workspace/") for p in paths if not is_test_file(p)]
    return next((p for p in reversed(code) if not p.startswith("/")), "")


def failing_lines(digest_text: str, tests: dict[str, str]) -> str:
    """The test lines a digest points at (`test/cart.test.js:25:10`) that it does not
    quote itself, as node's TAP output does not: the call that failed names the function."""
    extra: list[str] = []
    for raw, number in _TEST_LINE.findall(digest_text):
        path = _in_repo(raw, set(tests))
        lines = tests.get(path or "", "").split("\n")
        line = lines[int(number) - 1].strip() if path and 0 < int(number) <= len(lines) else ""
        if line and line not in digest_text and line not in extra:
            extra.append(line)
    return "".join("\n" + line for line in extra)


def _in_repo(raw: str, known: set[str]) -> str | None:
    """The repository path `raw` names: as given, under the sandbox root, or by its tail."""
    path = raw.strip().removeprefix("./")
    path = path.removeprefix("/workspace/")
    if path in known:
        return path
    tails = [k for k in known if k.endswith("/" + path) or path.endswith("/" + k)]
    return tails[0] if len(tails) == 1 else None


def _python_imports(source: str) -> list[str]:
    return [a or b for a, b in _PY_IMPORT.findall(source)]


async def read_texts(sandbox: Sandbox, paths: list[str]) -> dict[str, str]:
    """The text of each file; "" for one that cannot be read as text (it is context only)."""
    texts: dict[str, str] = {}
    for path in paths:
        try:
            texts[path] = (await sandbox.read_file(path)).decode("utf-8")
        except (SandboxError, UnicodeDecodeError):
            texts[path] = ""
    return texts


def quoted(texts: dict[str, str], budget: int = MAX_TOTAL_CHARS) -> list[str]:
    """Each file as a fenced block, skipping big ones, within `budget` characters in all."""
    blocks = []
    for path, text in list(texts.items())[:MAX_FILES]:
        if not text or len(text) > min(MAX_FILE_CHARS, budget):
            continue
        budget -= len(text)
        blocks.append(f"{path}:\n```\n{text.rstrip()}\n```")
    return blocks


@frozen
class Briefing:
    text: str  # the first message
    # What every request made from the briefing shares, in this order: the failing tests,
    # the code they use (cut to fit), the task's documents and the task, verbatim.
    context: str = ""
    failure: str = ""  # the baseline digest and the test lines it points at
    suspects: tuple[Suspect, ...] = ()  # functions that may hold the bug, likeliest first
    baseline: TestDigest | None = None  # the failing run the briefing is made from
    task: str = ""  # the person's words, as given
    documents: str = ""  # what the task points at (agent/prompts/documents.py), quoted


async def briefing(
    task: str, digest: TestDigest | None, sandbox: Sandbox, index: RepoIndex | None = None
) -> str:
    """`task`, followed by the baseline test digest and the code the failing tests use."""
    return (await brief(task, digest, sandbox, index)).text


async def brief(
    task: str, digest: TestDigest | None, sandbox: Sandbox, index: RepoIndex | None = None
) -> Briefing:
    listing = await sandbox.exec("git ls-files --cached --others --exclude-standard", timeout=30)
    repo_files = listing.output.split() if listing.ok else []
    documents = await documents_for(task, repo_files, _reader(sandbox))
    asked = "\n\n".join(p for p in (documents, task) if p)
    if digest is None or digest.ok:
        return Briefing(asked + "\n\n" + ONE_CALL, asked, task=task, documents=documents)
    # The task is never cut: what it and its documents take comes out of the tests' output
    # and then the code shown, which the model can read again for itself.
    room = MAX_PROMPT_CHARS - len(asked)
    shown, _ = truncate(digest.text, max(MIN_DIGEST_CHARS, room // 3))
    code_budget = min(MAX_TOTAL_CHARS, room - len(shown))
    code_files = [p for p in repo_files if not is_document(p)]
    named = files_involved(task, digest.text, code_files)
    test_paths = [p for p in named if is_test_file(p)]
    tests = await read_texts(sandbox, test_paths)
    failure = digest.text + failing_lines(digest.text, tests)
    files, found = (
        await _definitions_quoted(sandbox, index, digest, tests, failure, code_budget)
        if index
        else ([], ())
    )
    if not files:  # no definitions found: the files the task, tracebacks and imports name
        involved = files_involved(task, digest.text, code_files, tests)
        # The failing lines of the tests are in the digest; the code under test is the fix.
        code = [p for p in involved if not is_test_file(p)] or involved
        files = quoted(await read_texts(sandbox, code[:MAX_FILES]), code_budget)
    intro = "kiln ran the tests before you started:\n" + shown
    # The request last, right before the reply: a small model follows what it read last.
    context = "\n\n".join([intro, *files, asked])
    text = "\n\n".join([context, FIX_CALL if files else ONE_CALL])
    return Briefing(text, context, failure, found, digest, task, documents)


def _reader(sandbox: Sandbox) -> Read:
    async def read(path: str) -> str:
        return (await read_texts(sandbox, [path]))[path]

    return read


async def _definitions_quoted(
    sandbox: Sandbox,
    index: RepoIndex,
    digest: TestDigest,
    tests: dict[str, str],
    failure: str,
    budget: int = MAX_TOTAL_CHARS,
) -> tuple[list[str], tuple[Suspect, ...]]:
    """The definitions the failing tests use (and what those call), quoted: a small file
    whole, a big one by the definitions' lines, with their line numbers in the heading;
    and the functions among them that may hold the bug.

    Read from the repository itself: this is the first message, before any change, so it
    is what the sandbox holds."""
    # Here, not at the top: a run asks `is_test_file`, and only a small model's briefing
    # retrieves definitions.
    from agent.context.retrieval import definitions_for_tests
    from agent.repair.suspects import suspects

    root = index.root
    texts: dict[str, str] = {}

    def read(path: str) -> bytes | None:
        target = (root / path).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            return None  # a link out of the repository is never read
        try:
            data = target.read_bytes()
        except OSError:
            return None
        texts[path] = data.decode("utf-8", "replace")
        return data

    test_bytes = {p: t.encode() for p, t in tests.items() if t}
    found = await asyncio.to_thread(
        definitions_for_tests, index.records(), test_bytes, digest.failing, read, is_test_file
    )
    for item in found:
        if item.path not in texts:
            read(item.path)
    return _quote_found(found, texts, budget), tuple(suspects(found, texts, failure))


def _quote_found(
    found: list[Found], texts: dict[str, str], budget: int = MAX_TOTAL_CHARS
) -> list[str]:
    blocks: list[str] = []
    shown_whole: set[str] = set()
    for item in found:
        text = texts.get(item.path, "")
        if not text or item.path in shown_whole:
            continue
        if len(text) <= MAX_FILE_CHARS:
            block = f"{item.path}:\n```\n{text.rstrip()}\n```"
            shown_whole.add(item.path)
        else:
            lines = text.split("\n")[item.line - 1 : item.end_line]
            body = "\n".join(lines).rstrip()
            block = f"{item.path} (lines {item.line}-{item.end_line}):\n```\n{body}\n```"
        if len(block) > budget:
            continue
        budget -= len(block)
        blocks.append(block)
    return blocks


def with_task(messages: list[Message], task: str) -> list[Message]:
    """`messages` as they are when one of them holds `task` word for word; else with the
    task put at the head of the first user message, right after the system prompt: a
    request kiln builds of its own (a summary of the newest steps) still carries the
    person's words, where every request of its kind shares them."""
    if not task or any(task in m.content for m in messages):
        return messages
    head = f"The task:\n{task}"
    for index, message in enumerate(messages):
        if message.role == "user":
            changed = replace(message, content=f"{head}\n\n{message.content}")
            return [*messages[:index], changed, *messages[index + 1 :]]
    system = next((i for i, m in enumerate(messages) if m.role != "system"), len(messages))
    return [*messages[:system], Message("user", head), *messages[system:]]
