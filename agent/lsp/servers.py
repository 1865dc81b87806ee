"""The session's language servers: started in its sandbox on the first edit of a file of
their language, kept for the session, asked what each edit broke (and, once warm, where
a definition is used, for find_symbol).

After an edit, the server is given the file as it was, then as it is, and asked both
times for the diagnostics of that file and of a few files that import it (found by a
`git grep` for the module's name on import lines): what the edit introduced goes back
to the model with the edit's result (agent/lsp/diagnostics.py). The server reads the
workspace inside the sandbox, so the project's dependencies, venv and node_modules are
the ones it resolves imports against.

A server's start (about a second for pyright) never holds an edit: an edit made while its
server is cold is checked in the background, and what it introduced goes with the first
tool result after that check ends (`late()`, agent/tools/__init__.py); once warm, an edit's
result carries its own. That start waits until the step's own checks (the diff, the
checkpoint, the tests after the edit: what the run waits for) are done (`holding()`), so
it takes the sandbox's CPUs while the model is asked, not while the tests run. A server
that is missing from the image, slow (no answer within `[lsp] timeout_s` of an edit), or
that crashes costs the session one notice, never the run. A crashed one (or one that ended
with the sandbox's command server) starts again at the next edit, MAX_RESTARTS times at
most; a missing one is not started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import posixpath
import shlex
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from agent.events import Event, Level, Notice
from agent.lsp.specs import language_id, session_servers
from agent.settings.config import Settings
from sandbox.attached import AttachedProcess, AttachFailed, Attaching
from sandbox.base import Sandbox, SandboxError
from sandbox.gitstate import WORKSPACE
from sandbox.language_servers import LanguageServer

if TYPE_CHECKING:  # the client and the comparison load with the first edit they serve
    from agent.lsp.client import LspClient
    from agent.lsp.diagnostics import Diagnostic

ROOT_URI = f"file://{WORKSPACE}"
START_TIMEOUT_S = 30.0  # a cold start: the process, `initialize`, the first file checked
MAX_IMPORTERS = 4  # files importing the edited one whose diagnostics are compared too
MAX_RESTARTS = 2  # a server that keeps crashing is let go after this many new starts

Emit = Callable[[Event], None]


class LanguageServers:
    """The language servers of one session's sandbox (tools.base.LanguageTools)."""

    def __init__(
        self, sandbox: Sandbox, servers: tuple[LanguageServer, ...], timeout_s: float = 2.0
    ) -> None:
        self.sandbox = sandbox
        self.servers = servers
        self.timeout_s = timeout_s
        self._started: dict[str, asyncio.Task[LspClient]] = {}
        self._given_up: set[str] = set()  # missing, or crashed once too often: never asked again
        self._restarts: dict[str, int] = {}  # new starts after a crash, by server
        self._told: set[str] = set()  # servers whose trouble the person has heard of
        self._warm: set[str] = set()  # servers that have checked a file already
        # Checks of edits made while their server was cold, by path, until `late()` says them.
        self._late: list[tuple[str, asyncio.Task[str]]] = []
        self._checking: dict[str, asyncio.Lock] = {}  # one comparison at a time per server
        self._holds = 0  # steps whose tools and checks are running (holding())
        self._step_done = asyncio.Event()
        self._step_done.set()
        self._loaded: asyncio.Future[None] | None = None  # the client's modules (_load_client)

    def server_for(self, path: str) -> LanguageServer | None:
        ending = posixpath.splitext(path)[1].lower()
        return next((s for s in self.servers if ending in s.extensions), None)

    async def check_edit(
        self, sandbox: Sandbox, path: str, before: str | None, after: str, emit: Emit
    ) -> str:
        """What the edit of `path` from `before` (None: a new file) to `after` introduced,
        as lines for the model; "" when nothing, or when no server can tell (said once)."""
        server = self.server_for(path)
        if sandbox is not self.sandbox or server is None or server.name in self._given_up:
            return ""  # a child agent's own sandbox has none: its edits are told nothing
        if not isinstance(self.sandbox, Attaching):  # bubblewrap: no server can start
            self._given_up.update(s.name for s in self.servers)
            self._tell(server, NO_ATTACHING, emit, key="")
            return ""
        if server.name not in self._warm:  # its start must not hold the edit
            self._load_client()
            later = asyncio.ensure_future(self._check_later(server, path, before, after, emit))
            self._late.append((path, later))
            return ""
        return await self._check(server, path, before, after, emit)

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """While the loop's step runs its tools and the checks after them: a cold server's
        start (`_check_later`) waits for the step to end."""
        self._holds += 1
        self._step_done.clear()
        try:
            yield
        finally:
            self._holds -= 1
            if not self._holds:
                self._step_done.set()

    async def _check_later(
        self, server: LanguageServer, path: str, before: str | None, after: str, emit: Emit
    ) -> str:
        await self._step_done.wait()
        assert self._loaded is not None
        await self._loaded
        return await self._check(server, path, before, after, emit)

    def _load_client(self) -> None:
        """The client and the comparison (a few ms of imports) load in a thread from the
        first edit on, while the edit's own checks wait on the sandbox, not later on the
        event loop, where the step after it would wait for them."""
        if self._loaded is None:
            self._loaded = asyncio.ensure_future(asyncio.to_thread(_load_client_modules))

    def late(self) -> str:
        """What edits made while their server was cold introduced, for the checks that have
        ended since the last call (each said once); "" when none has anything to say."""
        said, waiting = [], []
        for path, check in self._late:
            if not check.done():
                waiting.append((path, check))
            elif not check.cancelled() and check.exception() is None and check.result():
                said.append(f"About your earlier edit of {path}:\n{check.result()}")
        self._late = waiting
        return "\n".join(said)

    async def settled(self) -> str:
        """`late()` once every check in the background has ended."""
        await asyncio.gather(*(check for _, check in self._late), return_exceptions=True)
        return self.late()

    async def _check(
        self, server: LanguageServer, path: str, before: str | None, after: str, emit: Emit
    ) -> str:
        from agent.lsp.client import ServerEnded

        started = time.monotonic()
        client: LspClient | None = None
        try:
            async with asyncio.timeout(START_TIMEOUT_S):
                client = await self._client(server)
            # The first file a server checks costs it its start (builtins, the project's
            # settings): that edit gets the start's time, every later one `timeout_s`.
            async with self._checking.setdefault(server.name, asyncio.Lock()):
                cold = server.name not in self._warm
                spent = time.monotonic() - started
                budget = START_TIMEOUT_S - spent if cold else self.timeout_s
                async with asyncio.timeout(budget):
                    said = await self._compare(client, server, path, before, after)
            self._warm.add(server.name)
            return said
        except ServerEnded as ended:
            process = ended.process or (client.process if client else None)
            if self._restart_later(server, process):
                said = _ended_sentence(server, process, ended.why, again=True)
                self._tell(server, said, emit, key=f"{server.name} restarts")
            else:
                self._given_up.add(server.name)
                self._tell(server, _ended_sentence(server, process, ended.why), emit)
        except TimeoutError:
            self._tell(server, _slow_sentence(server, time.monotonic() - started), emit)
        except LookupError as exc:  # the server refused a request: no word from it this time
            self._tell(server, _refused_sentence(server, str(exc)), emit)
        except SandboxError:  # the sandbox's own trouble: its next command says so
            pass
        return ""

    async def references(self, sandbox: Sandbox, path: str, line: int, name: str) -> list[str]:
        """Where the definition of `name` on `line` (from 1) of `path` is used, as
        "path:line" in the workspace's own files, by a server an edit has warmed up
        already; [] otherwise, or when it cannot say within `timeout_s`: a read never
        starts a server nor waits long for one (an edit says what goes wrong)."""
        server = self.server_for(path)
        if sandbox is not self.sandbox or server is None or server.name not in self._warm:
            return []
        client = _alive(self._started.get(server.name))
        if client is None:
            return []
        from agent.lsp.client import ServerEnded

        text = await self._text(path)
        lines = text.splitlines() if text is not None else []
        column = lines[line - 1].find(name) if 0 < line <= len(lines) else -1
        if text is None or column < 0:
            return []
        try:
            async with asyncio.timeout(self.timeout_s):
                await client.sync(_uri(path), language_id(path), text)
                found = await client.references(_uri(path), line - 1, column)
        except (TimeoutError, LookupError, ServerEnded):
            return []
        prefix = f"{ROOT_URI}/"
        return [
            f"{unquote(uri.removeprefix(prefix))}:{at + 1}"
            for uri, at in found
            if uri.startswith(prefix)
        ]

    def running(self) -> dict[str, AttachedProcess]:
        """The servers started and still running, by name (their pids for a benchmark)."""
        alive = {name: _alive(task) for name, task in self._started.items()}
        return {name: client.process for name, client in alive.items() if client is not None}

    async def close(self) -> None:
        """Every server asked to exit; their processes end with their stdin anyway."""
        for _, check in self._late:
            check.cancel()
        self._late.clear()
        tasks = list(self._started.values())
        self._started.clear()
        clients = []
        for task in tasks:
            if not task.done():
                task.cancel()
            elif not task.cancelled() and task.exception() is None:
                clients.append(task.result())
        await asyncio.gather(*(c.shutdown() for c in clients), return_exceptions=True)

    # -- one edit --------------------------------------------------------------------
    async def _compare(
        self, client: LspClient, server: LanguageServer, path: str, before: str | None, after: str
    ) -> str:
        importers = [p for p in await self._importers(path, server) if p != path]
        texts = {p: t for p in importers[:MAX_IMPORTERS] if (t := await self._text(p)) is not None}
        # The file as it was, and the files importing it as they are ...
        was_there = ({path: before} if before is not None else {}) | texts
        mark, changed = client.mark(), None
        for other, text in was_there.items():
            if await client.sync(_uri(other), language_id(other), text):
                changed = changed or _uri(other)
        was = await client.diagnostics([_uri(p) for p in was_there], changed or "", mark)
        # ... then the file as it is now.
        mark = client.mark()
        await client.sync(_uri(path), language_id(path), after)
        now = await client.diagnostics([_uri(p) for p in [path, *texts]], _uri(path), mark)
        old = [_at(d, p) for p in was_there for d in was.get(_uri(p), [])]
        new = [_at(d, p) for p in [path, *texts] for d in now.get(_uri(p), [])]
        from agent.lsp.diagnostics import introduced, report

        return report(server.command[0], introduced(old, new))

    async def _importers(self, path: str, server: LanguageServer) -> list[str]:
        """A few files of the same language that import the edited one by its name."""
        name = posixpath.splitext(posixpath.basename(path))[0]
        if name in ("__init__", "index"):
            name = posixpath.basename(posixpath.dirname(path))
        if not name.replace("_", "").replace("-", "").isalnum():
            return []
        pattern = rf"(import|from|require)\b.*\b{name}\b"
        specs = " ".join(shlex.quote(f"*{ending}") for ending in server.extensions)
        found = await self.sandbox.exec(
            f"git grep -lIE --untracked -e {shlex.quote(pattern)} -- {specs} 2>/dev/null"
            f" | head -n {MAX_IMPORTERS + 1}",
            timeout=10,
        )
        return [line for line in found.output.splitlines() if line.strip()][: MAX_IMPORTERS + 1]

    async def _text(self, path: str) -> str | None:
        try:
            return (await self.sandbox.read_file(path)).decode("utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            return None

    # -- the servers -----------------------------------------------------------------
    async def _client(self, server: LanguageServer) -> LspClient:
        """The server, started on first use; a start goes on when its first caller gives up
        waiting, so the next edit finds it ready."""
        task = self._started.get(server.name)
        if task is None:
            task = asyncio.ensure_future(self._start(server))
            self._started[server.name] = task
        client = await asyncio.shield(task)
        if client.ended.is_set():
            from agent.lsp.client import ServerEnded

            raise ServerEnded(client.process)
        return client

    async def _start(self, server: LanguageServer) -> LspClient:
        from agent.lsp.client import LspClient, ServerEnded

        assert isinstance(self.sandbox, Attaching)  # check_edit says so otherwise
        try:
            process = await self.sandbox.attach(list(server.command), cwd=WORKSPACE)
        except AttachFailed as exc:
            raise ServerEnded(why=str(exc)) from None
        client = LspClient(process, ROOT_URI)
        try:
            await client.initialize(server.options)
        except ServerEnded:
            raise ServerEnded(process) from None
        except BaseException:  # cancelled (the session closing) or refused: it ends now
            await process.kill()
            raise
        return client

    def _restart_later(self, server: LanguageServer, process: AttachedProcess | None) -> bool:
        """A server whose process started and then ended starts again at the next edit
        (cold: checked in the background), MAX_RESTARTS times a session; whether it will."""
        restarts = self._restarts.get(server.name, 0)
        if process is None or process.missing or restarts >= MAX_RESTARTS:
            return False
        self._restarts[server.name] = restarts + 1
        self._started.pop(server.name, None)
        self._warm.discard(server.name)
        return True

    def _tell(
        self, server: LanguageServer, sentence: str, emit: Emit, key: str | None = None
    ) -> None:
        """One notice per server (or per `key`) for the whole session."""
        told = server.name if key is None else key
        if told not in self._told:
            self._told.add(told)
            emit(Notice(sentence, Level.WARNING))


def _load_client_modules() -> None:
    for name in ("agent.lsp.client", "agent.lsp.diagnostics"):
        importlib.import_module(name)


def language_servers(settings: Settings, sandbox: Sandbox) -> LanguageServers | None:
    """The session's servers, none started yet; None with `[lsp] enabled = false`."""
    if not settings.lsp.enabled:
        return None
    servers = session_servers(settings.lsp_servers)
    return LanguageServers(sandbox, servers, settings.lsp.timeout_s) if servers else None


NO_ATTACHING = (
    "Language servers run only in the Docker sandbox, so edits get no diagnostics from "
    "them in this session; use `--backend docker` for them."
)


def _ended_sentence(
    server: LanguageServer, process: AttachedProcess | None, why: str, *, again: bool = False
) -> str:
    command = server.command[0]
    if process is not None and process.missing:
        return (
            f"The {server.name} language server ({command}) is not in the sandbox image, so "
            f"edits get no diagnostics from it; `kiln sandbox bootstrap` rebuilds the image "
            f"with it, or set `[lsp.{server.name}] disabled = true`."
        )
    said = process.stderr_tail.strip().splitlines()[-1:] if process is not None else [why]
    why = f" ({said[0][:160]})" if said and said[0] else ""
    if again:
        return (
            f"The {server.name} language server ({command}) stopped{why}; kiln starts it "
            "again at the next edit."
        )
    return (
        f"The {server.name} language server ({command}) stopped{why}; edits go on without "
        "its diagnostics for the rest of the session."
    )


def _slow_sentence(server: LanguageServer, waited: float) -> str:
    return (
        f"The {server.name} language server ({server.command[0]}) gave no answer within "
        f"{waited:.1f} s of an edit; edits go on, without its diagnostics while it is slow."
    )


def _refused_sentence(server: LanguageServer, why: str) -> str:
    return (
        f"The {server.name} language server ({server.command[0]}) refused kiln's request "
        f"({why[:160]}); edits go on without its diagnostics meanwhile."
    )


def _alive(task: asyncio.Task[LspClient] | None) -> LspClient | None:
    """The client a start made, while its server runs."""
    if task is None or not task.done() or task.cancelled() or task.exception() is not None:
        return None
    client = task.result()
    return None if client.ended.is_set() else client


def _uri(path: str) -> str:
    return f"{ROOT_URI}/{quote(path)}"


def _at(diagnostic: Diagnostic, path: str) -> Diagnostic:
    return dataclasses.replace(diagnostic, path=path)
