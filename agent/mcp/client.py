"""A small MCP client: JSON-RPC over a server's stdio, or over streamable HTTP.

kiln needs four things of a server: `initialize`, `tools/list`, `tools/call` and to be
closed. Owning them (instead of the SDK's client) keeps the core free of the SDK's
dependencies and puts every failure in one place: a server that exits, answers nonsense
or does not answer in time becomes `McpFailure`, one sentence the model (or `kiln mcp
list`) is given; nothing of it reaches the session as an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

import httpx

from agent.settings.config import McpServer
from agent.settings.host_code import host_env

PROTOCOL_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "kiln", "version": "0.1.0"}
STDIO_LINE_LIMIT = 16 * 1024 * 1024  # one JSON-RPC message per line; tool results can be big


class McpFailure(Exception):
    """One sentence about a server that failed; given to the model as the tool's result."""


class Channel(Protocol):
    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Any: ...
    async def notify(self, method: str, params: dict[str, Any]) -> None: ...
    async def close(self) -> None: ...


class StdioChannel:
    """A server started as a process on the host; newline-delimited JSON-RPC on its pipes."""

    def __init__(self, name: str, process: asyncio.subprocess.Process) -> None:
        self.name = name
        self.process = process
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._stderr: deque[str] = deque(maxlen=5)
        self._gone = ""  # why the server is no longer there, once it is not
        self._reader = asyncio.ensure_future(self._read())
        self._stderr_reader = asyncio.ensure_future(self._read_stderr())

    @classmethod
    async def open(
        cls, name: str, server: McpServer, cwd: Path, key_vars: Iterable[str] = ()
    ) -> StdioChannel:
        # The server runs on the host as the person: never with the model keys by default.
        env = {**host_env(key_vars, keep=server.env_vars), **server.env}
        try:
            process = await asyncio.create_subprocess_exec(
                server.command,
                *server.args,
                cwd=cwd,
                env=env,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=STDIO_LINE_LIMIT,
                start_new_session=True,  # Ctrl+C in kiln's terminal is kiln's, not the server's
            )
        except OSError as exc:
            raise McpFailure(
                f"The MCP server {name} could not be started ({server.command}: {exc.strerror})."
            ) from None
        return cls(name, process)

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Any:
        if self._gone:
            raise McpFailure(self._gone)
        request_id = next(self._ids)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = answer
        try:
            await self._send(
                {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
            )
            return await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            await self.notify("notifications/cancelled", {"requestId": request_id})
            raise McpFailure(
                f"The MCP server {self.name} did not answer {method} within {timeout:g}s."
            ) from None
        finally:
            self._pending.pop(request_id, None)

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        with contextlib.suppress(McpFailure):
            await self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def _send(self, message: dict[str, Any]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message).encode() + b"\n")
            await stdin.drain()
        except (ConnectionError, RuntimeError):
            await self._wait_gone()
            raise McpFailure(self._gone) from None

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while line := await stdout.readline():
                self._receive(line)
        except (ValueError, ConnectionError):  # a line past the limit: the stream is lost
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()  # a server kiln can no longer read is of no use
        await self._wait_gone()

    def _receive(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            return  # a server that logs to stdout: its lines are not ours to answer
        if not isinstance(message, dict):
            return
        if "method" in message and "id" in message:  # the server asks: ping, roots...
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
            if message["method"] == "ping":
                reply["result"] = {}
            else:
                reply["error"] = {"code": -32601, "message": "kiln does not offer this"}
            stdin = self.process.stdin
            if stdin is not None and not stdin.is_closing():
                stdin.write(json.dumps(reply).encode() + b"\n")  # drained with the next send
            return
        answer = self._pending.get(message.get("id"))  # type: ignore[arg-type]
        if answer is not None and not answer.done():
            settle(answer, message, self.name)

    async def _read_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        with contextlib.suppress(ValueError, ConnectionError):
            while line := await stderr.readline():
                text = line.decode(errors="replace").strip()
                if text:
                    self._stderr.append(text)

    async def _wait_gone(self) -> None:
        if self._gone:
            return
        code = await self.process.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._stderr_reader), 1.0)
        said = f": {self._stderr[-1]}" if self._stderr else ""
        self._gone = f"The MCP server {self.name} stopped (exit code {code}){said}."
        for answer in self._pending.values():
            if not answer.done():
                answer.set_exception(McpFailure(self._gone))

    async def close(self) -> None:
        if self.process.returncode is None:
            if self.process.stdin is not None:
                self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), 2.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
                await self.process.wait()
        for task in (self._reader, self._stderr_reader):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


def settle(answer: asyncio.Future[Any], message: dict[str, Any], name: str) -> None:
    """A JSON-RPC response: its result, or its error as McpFailure."""
    error = message.get("error")
    if isinstance(error, dict):
        said = str(error.get("message") or "an error")
        answer.set_exception(McpFailure(f"The MCP server {name} answered with an error: {said}."))
    else:
        answer.set_result(message.get("result"))


class HttpChannel:
    """A server at a URL (streamable HTTP): each message is a POST; the answer comes as JSON
    or as server-sent events."""

    def __init__(self, name: str, server: McpServer) -> None:
        self.name = name
        self.url = server.url
        self.headers = {
            **server.headers,
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        token = os.environ.get(server.bearer_token_env_var) if server.bearer_token_env_var else ""
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self._ids = itertools.count(1)
        # No read timeout of its own: each request's (the tool's) timeout bounds the wait.
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(None, connect=10.0))

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Any:
        request_id = next(self._ids)
        body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        try:
            return await asyncio.wait_for(self._exchange(body, request_id), timeout)
        except TimeoutError:
            await self.notify("notifications/cancelled", {"requestId": request_id})
            raise McpFailure(
                f"The MCP server {self.name} did not answer {method} within {timeout:g}s."
            ) from None

    async def _exchange(self, body: dict[str, Any], request_id: int) -> Any:
        try:
            async with self._client.stream("POST", self.url, json=body, headers=self.headers) as r:
                if r.status_code >= 400:
                    raise McpFailure(
                        f"The MCP server {self.name} answered HTTP {r.status_code} at {self.url}."
                    )
                if "mcp-session-id" in r.headers:
                    self.headers["Mcp-Session-Id"] = r.headers["mcp-session-id"]
                if r.headers.get("content-type", "").startswith("text/event-stream"):
                    async for line in r.aiter_lines():
                        message = _event_data(line)
                        if message is not None and message.get("id") == request_id:
                            return _result(message, self.name)
                    raise McpFailure(
                        f"The MCP server {self.name} ended its stream without answering."
                    )
                return _result(json.loads(await r.aread()), self.name)
        except httpx.HTTPError as exc:
            raise McpFailure(
                f"The MCP server {self.name} cannot be reached at {self.url} ({exc})."
            ) from None
        except ValueError:
            raise McpFailure(
                f"The MCP server {self.name} answered something that is not JSON."
            ) from None

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        body = {"jsonrpc": "2.0", "method": method, "params": params}
        with contextlib.suppress(httpx.HTTPError):
            await self._client.post(self.url, json=body, headers=self.headers, timeout=5.0)

    async def close(self) -> None:
        if "Mcp-Session-Id" in self.headers:  # the session ends with us; a server may keep it
            with contextlib.suppress(httpx.HTTPError):
                await self._client.delete(self.url, headers=self.headers, timeout=2.0)
        await self._client.aclose()


def _event_data(line: str) -> dict[str, Any] | None:
    if not line.startswith("data:"):
        return None
    try:
        message = json.loads(line[5:].strip())
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def _result(message: Any, name: str) -> Any:
    if not isinstance(message, dict):
        raise McpFailure(f"The MCP server {name} answered something that is not JSON-RPC.")
    answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    settle(answer, message, name)
    return answer.result()


async def connect(
    name: str, server: McpServer, cwd: Path, key_vars: Iterable[str] = ()
) -> tuple[Channel, list[dict[str, Any]]]:
    """Start (or reach) the server, initialize it and list its tools, within its startup
    timeout."""
    channel: Channel = (
        await StdioChannel.open(name, server, cwd, key_vars)
        if server.command
        else HttpChannel(name, server)
    )
    try:
        timeout = server.startup_timeout_sec
        await channel.request(
            "initialize",
            {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": CLIENT_INFO},
            timeout,
        )
        await channel.notify("notifications/initialized", {})
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            listed = await channel.request(
                "tools/list", {"cursor": cursor} if cursor else {}, timeout
            )
            if not isinstance(listed, dict):
                raise McpFailure(f"The MCP server {name} answered tools/list with no tools.")
            tools.extend(
                t for t in listed.get("tools") or [] if isinstance(t, dict) and t.get("name")
            )
            cursor = listed.get("nextCursor")
            if not cursor:
                return channel, tools
    except BaseException:
        await channel.close()
        raise
