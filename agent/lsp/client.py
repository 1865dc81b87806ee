"""An LSP client over one attached process in the sandbox (sandbox/attached.py).

Requests wait for their answers by id; the server's own requests (configuration,
capability registrations, progress tokens) get the plain answers an editor with no
settings gives. Documents are synced whole (no incremental edits to get wrong). What a
file's diagnostics are now is asked three ways, the best the server offers:

- pull (LSP 3.17 `textDocument/diagnostic`, which pyright registers): an answer once the
  file is checked as it is now;
- tsserver's own synchronous requests, through typescript-language-server's
  `typescript.tsserverRequest` command (it publishes nothing when a clean file stays
  clean, so waiting for a publish cannot tell "clean" from "slow");
- otherwise the last `publishDiagnostics` after the change, with a moment for the files
  that import it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import Any

from agent.lsp.diagnostics import Diagnostic, from_lsp, from_tsserver
from agent.lsp.wire import FrameReader, WireError, encode
from sandbox.attached import AttachedProcess
from sandbox.frozen import frozen

TSSERVER_REQUEST = "typescript.tsserverRequest"
PUSH_SETTLE_S = 0.15  # after the edited file's publish, how long the others may take
_CAPABILITIES: dict[str, Any] = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": False},
        "publishDiagnostics": {"versionSupport": True, "relatedInformation": False},
        "diagnostic": {"dynamicRegistration": True, "relatedDocumentSupport": False},
        "definition": {"linkSupport": False},
        "references": {},
    },
    "workspace": {"configuration": True, "workspaceFolders": True},
    "window": {"workDoneProgress": False},
}


@frozen
class Published:
    """A document's last `publishDiagnostics`: when it came (a count), of which version."""

    seq: int
    version: int | None  # None: the server did not say
    items: list[dict[str, Any]]

    def after(self, since: int, version: int) -> bool:
        return self.seq > since and (self.version is None or self.version >= version)


_NONE = Published(0, None, [])


class ServerEnded(Exception):
    """The server's process ended (it crashed, was killed, or never started)."""

    def __init__(self, process: AttachedProcess | None = None, why: str = "") -> None:
        super().__init__(why)
        self.process = process
        self.why = why  # when there is no process to tell why


class LspClient:
    def __init__(self, process: AttachedProcess, root_uri: str) -> None:
        self.process = process
        self.root_uri = root_uri
        self.capabilities: dict[str, Any] = {}
        self.pull = False  # the server registered textDocument/diagnostic
        self._frames = FrameReader()
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._texts: dict[str, str] = {}  # each open document as the server has it
        self._versions: dict[str, int] = {}
        self._published: dict[str, Published] = {}
        self._seq = 0
        self._news = asyncio.Condition()
        self.ended = asyncio.Event()
        self._reader = asyncio.create_task(self._read_loop())

    # -- the session with the server -------------------------------------------------
    async def initialize(self, options: dict[str, Any]) -> None:
        """The handshake; `options` are the server's own `initializationOptions`."""
        params = {
            "processId": None,
            "clientInfo": {"name": "kiln"},
            "rootUri": self.root_uri,
            "workspaceFolders": [{"uri": self.root_uri, "name": "workspace"}],
            "capabilities": _CAPABILITIES,
            "initializationOptions": options,
        }
        result = await self.request("initialize", params)
        self.capabilities = dict((result or {}).get("capabilities") or {})
        self.pull = self.pull or bool(self.capabilities.get("diagnosticProvider"))
        await self.notify("initialized", {})

    async def request(self, method: str, params: Any) -> Any:
        """The server's answer; ServerEnded when it ends first, LookupError for an error."""
        rid = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            if self.ended.is_set():  # its reader has failed every pending request already
                raise ServerEnded()
            await self._send({"id": rid, "method": method, "params": params})
            return await future
        except asyncio.CancelledError:
            if not self.ended.is_set():
                with contextlib.suppress(ServerEnded):
                    await asyncio.shield(self.notify("$/cancelRequest", {"id": rid}))
            raise
        finally:
            self._pending.pop(rid, None)

    async def notify(self, method: str, params: Any) -> None:
        await self._send({"method": method, "params": params})

    async def shutdown(self) -> None:
        """Ask the server to exit, then let go of its process (whatever it answered)."""
        if not self.ended.is_set():
            with contextlib.suppress(ServerEnded, LookupError, TimeoutError):
                async with asyncio.timeout(0.5):
                    await self.request("shutdown", None)
                    await self.notify("exit", None)
        await self.process.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader

    # -- documents -------------------------------------------------------------------
    async def sync(self, uri: str, language_id: str, text: str) -> bool:
        """The server has `text` as the document at `uri`; False when it had it already."""
        if self._texts.get(uri) == text:
            return False
        version = self._versions.get(uri, 0) + 1
        self._versions[uri], self._texts[uri] = version, text
        if version == 1:
            document = {"uri": uri, "languageId": language_id, "version": 1, "text": text}
            await self.notify("textDocument/didOpen", {"textDocument": document})
        else:
            await self.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text}],
                },
            )
        return True

    def mark(self) -> int:
        """Where the publishes stand now: `diagnostics` after a change waits past it."""
        return self._seq

    async def diagnostics(
        self, uris: list[str], changed: str, since: int
    ) -> dict[str, list[Diagnostic]]:
        """Each document's diagnostics as the server sees it now. A server that only
        publishes is waited for: a publish of `changed` after `since` (this client's
        mark() before the change); `changed` "": nothing changed, the last ones stand."""
        if not uris:
            return {}
        if self.pull:
            answers = [await self._pulled(uri) for uri in uris]
            return dict(zip(uris, answers, strict=True))
        if TSSERVER_REQUEST in self._commands():
            return {uri: await self._from_tsserver(uri) for uri in uris}
        return await self._published_after(uris, changed, since)

    async def _pulled(self, uri: str) -> list[Diagnostic]:
        report = await self.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        items = report.get("items") or [] if isinstance(report, dict) else []
        return [from_lsp(item) for item in items if isinstance(item, dict)]

    async def _from_tsserver(self, uri: str) -> list[Diagnostic]:
        found: list[Diagnostic] = []
        for kind in ("syntacticDiagnosticsSync", "semanticDiagnosticsSync"):
            params = {"command": TSSERVER_REQUEST, "arguments": [kind, {"file": uri}]}
            answer = await self.request("workspace/executeCommand", params)
            body = answer.get("body") if isinstance(answer, dict) else None
            found += [from_tsserver(item) for item in body or () if isinstance(item, dict)]
        return found

    async def _published_after(
        self, uris: list[str], changed: str, since: int
    ) -> dict[str, list[Diagnostic]]:
        if changed:
            # A publish that says its version must be of this one: a slow server's word on
            # the text before is no answer about the text now.
            version = self._versions.get(changed, 0)
            async with self._news:
                await self._news.wait_for(
                    lambda: (
                        self.ended.is_set()
                        or self._published.get(changed, _NONE).after(since, version)
                    )
                )
            if self.ended.is_set():
                raise ServerEnded()
            # The files importing it are checked in the same pass: a moment for them.
            await asyncio.sleep(PUSH_SETTLE_S)
        return {
            uri: [from_lsp(item) for item in self._published.get(uri, _NONE).items] for uri in uris
        }

    async def references(self, uri: str, line: int, character: int) -> list[tuple[str, int]]:
        """Where the name at (`line`, `character`), both from 0, is used: (uri, line)."""
        params = {
            "textDocument": {"uri": uri},
            "position": {"line": line, "character": character},
            "context": {"includeDeclaration": False},
        }
        found = await self.request("textDocument/references", params)
        return [
            (str(place.get("uri", "")), _start_line(place))
            for place in found or ()
            if isinstance(place, dict)
        ]

    def _commands(self) -> list[str]:
        provider = self.capabilities.get("executeCommandProvider") or {}
        return list(provider.get("commands") or [])

    # -- the wire --------------------------------------------------------------------
    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self.process.send(encode(message))
        except ConnectionError:
            raise ServerEnded() from None

    async def _read_loop(self) -> None:
        try:
            while data := await self.process.receive():
                for message in self._frames.feed(data):
                    await self._dispatch(message)
        except (WireError, ServerEnded):  # garbage on its stdout, or its stdin closed
            pass
        finally:
            self.ended.set()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ServerEnded())
            async with self._news:
                self._news.notify_all()

    async def _dispatch(self, message: dict[str, Any]) -> None:
        if "id" in message and "method" not in message:  # an answer
            future = self._pending.get(message["id"]) if isinstance(message["id"], int) else None
            if future is not None and not future.done():
                error = message.get("error")
                if error:
                    said = error.get("message", error) if isinstance(error, dict) else error
                    future.set_exception(LookupError(str(said)))
                else:
                    future.set_result(message.get("result"))
        elif "id" in message:  # the server asks
            await self._answer(message["id"], str(message.get("method")), message.get("params"))
        elif message.get("method") == "textDocument/publishDiagnostics":
            params = message.get("params") or {}
            uri = str(params.get("uri", ""))
            self._seq += 1
            version = params.get("version")
            self._published[uri] = Published(
                self._seq,
                version if isinstance(version, int) else None,
                list(params.get("diagnostics") or []),
            )
            async with self._news:
                self._news.notify_all()

    async def _answer(self, rid: Any, method: str, params: Any) -> None:
        result: Any = None
        if method == "workspace/configuration":
            result = [None for _ in (params or {}).get("items") or []]
        elif method == "workspace/workspaceFolders":
            result = [{"uri": self.root_uri, "name": "workspace"}]
        elif method == "client/registerCapability":
            registrations = (params or {}).get("registrations") or []
            self.pull = self.pull or any(
                r.get("method") == "textDocument/diagnostic" for r in registrations
            )
        elif method not in ("window/workDoneProgress/create", "workspace/diagnostic/refresh"):
            error = {"code": -32601, "message": f"kiln does not answer {method}"}
            await self._send({"id": rid, "error": error})
            return
        await self._send({"id": rid, "result": result})


def _start_line(location: dict[str, Any]) -> int:
    line = ((location.get("range") or {}).get("start") or {}).get("line")
    return line if isinstance(line, int) else 0
