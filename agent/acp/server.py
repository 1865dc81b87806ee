"""`kiln acp`: kiln as an Agent Client Protocol agent, for Zed, Toad and other ACP clients.

A front end like agent/headless: it holds a Session and its Commands per ACP session,
reads their event streams and turns them into `session/update` notifications, and answers
the session's Approver with `session/request_permission`. The sandbox stays kiln's: the
client's files change only when the person allows the final apply. Newline-delimited
JSON-RPC on stdin and stdout; nothing else is ever written to stdout (fd 1 is pointed at
stderr once the protocol has its own copy of it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import acp
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    AvailableCommandInput,
    Implementation,
    InitializeResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SessionMode,
    SessionModeState,
    UnstructuredCommandInput,
    Usage,
)

from agent.acp.frames import screened
from agent.acp.permissions import (
    OPTIONS,
    AcpApprover,
    apply_call,
    apply_done,
    chosen_option,
    permission_call,
)
from agent.acp.updates import Translator, say, stop_reason, tool_title
from agent.approval import Action, Mode
from agent.commands import (
    COMMANDS,
    INTERACTIVE_MODES,
    Commands,
    Output,
    RunTask,
    Say,
    ShowDiff,
    parse,
)
from agent.errors import ExitCode, KilnError
from agent.events import Applied, ApprovalRequested, Event, Finished, StopReason
from agent.mcp.config import server_from_client
from agent.session import Session
from agent.settings.config import McpServer, Settings, load_settings
from agent.settings.repo import find_repo

FRONT_END_COMMANDS = {"theme", "quit"}  # the TUI's own
STDIN_LIMIT = 50 * 1024 * 1024  # one JSON-RPC line (a prompt with a big file attached)
_SCREENING: set[asyncio.Task[None]] = set()
MODE_NAMES = {
    Mode.PLAN: "Plan (read only)",
    Mode.ASK: "Ask before edits and commands",
    Mode.AUTO_EDIT: "Edit in the sandbox, ask before applying",
    Mode.FULL_AUTO: "Full auto",
}


def failure(exc: KilnError) -> acp.RequestError:
    """A KilnError's one sentence as the JSON-RPC error the client shows."""
    return acp.RequestError(-32000, exc.message, {"exit_code": int(exc.exit_code)})


@dataclass
class AcpSession:
    session: Session
    commands: Commands
    approver: AcpApprover
    translator: Translator
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    noted: bool = False  # the start's notes were said
    applies: int = 0
    apply_call: str = ""  # the apply's tool call while its question is open
    warming: asyncio.Task[None] | None = None
    announcing: asyncio.Future[None] | None = None


class KilnAgent:
    """The ACP agent: every method is one of acp.Agent's, called by the SDK's router."""

    def __init__(self, flags: dict[str, Any], mode: Mode) -> None:
        self.flags = flags
        self.mode = mode
        self.sessions: dict[str, AcpSession] = {}
        self.conn: Any = None

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **_: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=acp.PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                mcp_capabilities=McpCapabilities(http=True, sse=False),
                prompt_capabilities=PromptCapabilities(embedded_context=True),
            ),
            agent_info=Implementation(name="kiln", title="kiln", version=_version()),
            auth_methods=[],
        )

    async def authenticate(self, method_id: str, **_: Any) -> None:
        return None

    async def new_session(
        self, cwd: str, mcp_servers: list[Any] | None = None, **_: Any
    ) -> NewSessionResponse:
        try:
            repo = find_repo(cwd)
            settings = self._settings(repo)
            given = _client_servers(mcp_servers)
        except KilnError as exc:
            raise failure(exc) from None
        held = self._hold(Session(settings, repo, AcpApprover(), self.mode, mcp_servers=given))
        held.warming = asyncio.ensure_future(self._warm(held))  # the sandbox starts now
        # The commands are announced once the client knows the session (after this answer).
        held.announcing = asyncio.ensure_future(self._announce(held, after_s=0.1))
        return NewSessionResponse(session_id=held.session.session_id, modes=self._modes(held))

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **_: Any
    ) -> LoadSessionResponse:
        try:
            repo = find_repo(cwd)
            session = Session.load(
                session_id,
                self._settings(repo),
                AcpApprover(),
                mode=self.mode,
                mcp_servers=_client_servers(mcp_servers),
            )
        except KilnError as exc:
            raise failure(exc) from None
        held = self._hold(session)
        for update in _replay(session):
            await self.conn.session_update(session_id=session.session_id, update=update)
        await self._announce(held)
        return LoadSessionResponse(modes=self._modes(held))

    async def set_session_mode(self, session_id: str, mode_id: str, **_: Any) -> None:
        held = self._held(session_id)
        async for output in held.commands.run(f"/mode {mode_id}"):
            await self._show(held, output)
        await self.conn.session_update(
            session_id=session_id, update=acp.helpers.update_current_mode(held.commands.mode.value)
        )

    async def prompt(self, session_id: str, prompt: list[Any], **_: Any) -> PromptResponse:
        held = self._held(session_id)
        text = _prompt_text(prompt)
        async with held.lock:
            custom = held.commands.custom_task(text)
            if custom is not None:  # a custom command: its prompt is the request
                await self._show(held, custom)
                return await self._request(held, custom.task)
            if parse(text) is not None:
                tasks: list[str] = []  # a command's request to run (/attempts N TASK)
                shown = await self._shown(held, held.commands.run(text), tasks)
                if shown and tasks:
                    return await self._request(held, tasks[-1])
                return PromptResponse(stop_reason="end_turn" if shown else "cancelled")
            return await self._request(held, text)

    async def cancel(self, session_id: str, **_: Any) -> None:
        held = self.sessions.get(session_id)
        if held is not None:
            held.session.cancel()

    async def close(self) -> None:
        for held in self.sessions.values():
            if held.warming is not None:
                held.warming.cancel()
            with contextlib.suppress(KilnError):
                await held.session.close()

    # --- one request -------------------------------------------------------------------

    async def _request(self, held: AcpSession, text: str) -> PromptResponse:
        session = held.session
        before = session.usage
        try:
            await session.start()
        except KilnError as exc:
            raise failure(exc) from None
        if not held.noted:
            held.noted = True
            for note in [*session.start_notes, *held.commands.custom.notes]:
                session.notice(note)
        finished: Finished | None = None
        async for event in session.run(text):
            await self._show(held, event)
            finished = event if isinstance(event, Finished) else finished
        assert finished is not None, "every run ends with Finished"
        reason = stop_reason(finished.stop_reason)
        if finished.stop_reason is StopReason.DONE and held.commands.offers_apply():
            try:
                if not await self._shown(held, held.commands.apply(offered=True)):
                    reason = "cancelled"  # session/cancel while the apply was asked
                    await self._show(held, Applied((), approved=False))
            except KilnError as exc:  # refused (you edited meanwhile): nothing is lost
                await self._show(held, Applied((), approved=False))
                await self._show(
                    held,
                    Say(
                        f"{exc.message} The changes stay in the sandbox: /apply writes them later.",
                        "error",
                    ),
                )
        turn = _minus(finished.usage, before)
        return PromptResponse(
            stop_reason=reason,  # type: ignore[arg-type]
            usage=Usage(
                total_tokens=turn["input"] + turn["output"],
                input_tokens=turn["input"],
                output_tokens=turn["output"],
                cached_read_tokens=turn["cached"],
                cached_write_tokens=turn["written"],
            ),
            field_meta={
                "kiln": {
                    "stop_reason": finished.stop_reason.value,
                    "summary": finished.summary,
                    "steps": finished.steps,
                    "cost_usd": session.cost_usd,  # the session's so far; null: unknown
                    "session_usage": finished.usage.__dict__,
                }
            },
        )

    async def _shown(
        self, held: AcpSession, outputs: AsyncIterator[Output], tasks: list[str] | None = None
    ) -> bool:
        """Show every output of a command, the requests it asks to run put in `tasks`; False
        when session/cancel stopped it (the session's work was cancelled, not this request)."""
        try:
            async for output in outputs:
                await self._show(held, output)
                if isinstance(output, RunTask) and tasks is not None:
                    tasks.append(output.task)
        except asyncio.CancelledError:
            request = asyncio.current_task()
            if request is not None and request.cancelling():
                raise
            return False
        return True

    async def _show(self, held: AcpSession, output: Output) -> None:
        """One event or command output to the client; an approval is asked here, in order."""
        session_id = held.session.session_id
        if isinstance(output, ApprovalRequested):
            await self._ask(held, output)
            return
        if isinstance(output, Say):
            updates: list[Any] = [say(output.text, output.level)]
        elif isinstance(output, ShowDiff):
            updates = [say(f"{output.title}\n\n```diff\n{output.diff}\n```")]
        elif isinstance(output, Applied) and held.apply_call:
            updates = [apply_done(held.apply_call, output.paths, output.approved)]
            held.apply_call = ""
        elif isinstance(output, Event):
            updates = held.translator.updates(output)
        else:
            updates = []
        for update in updates:
            await self.conn.session_update(session_id=session_id, update=update)

    async def _ask(self, held: AcpSession, event: ApprovalRequested) -> None:
        if not held.approver.pending(event.request_id):
            return  # answered already (always rejected)
        session_id = held.session.session_id
        if event.action == Action.APPLY:
            held.applies += 1
            held.apply_call = f"kiln-apply-{held.applies}"
            start, call = await apply_call(
                held.apply_call, event, held.session.repo, held.session.sandbox
            )
            await self.conn.session_update(session_id=session_id, update=start)
        else:
            call = permission_call(held.translator.current_call() or event.request_id, event)
        response = await self.conn.request_permission(
            session_id=session_id, tool_call=call, options=OPTIONS
        )
        held.approver.answer(event, chosen_option(response))

    # --- sessions ------------------------------------------------------------------------

    def _settings(self, repo: Path) -> Settings:
        return load_settings(repo, {k: v for k, v in self.flags.items() if v is not None})

    def _hold(self, session: Session) -> AcpSession:
        approver = session.approver
        assert isinstance(approver, AcpApprover)
        commands = Commands(session.settings, session.mode, repo=session.repo)
        commands.session = session
        session.on_progress = lambda line: print(f"[setup] {line}", file=sys.stderr, flush=True)
        held = AcpSession(session, commands, approver, Translator(str(session.repo)))
        self.sessions[session.session_id] = held
        return held

    def _held(self, session_id: str) -> AcpSession:
        held = self.sessions.get(session_id)
        if held is None:
            raise acp.RequestError.invalid_params({"sessionId": f"no session {session_id}"})
        return held

    async def _warm(self, held: AcpSession) -> None:
        with contextlib.suppress(KilnError):  # said again, as one sentence, at the prompt
            await held.session.start()

    async def _announce(self, held: AcpSession, after_s: float = 0.0) -> None:
        await asyncio.sleep(after_s)
        commands = [
            AvailableCommand(name=c.name, description=c.help, input=_hint(c.arg))
            for c in (*COMMANDS, *held.commands.custom_listed)
            if c.name not in FRONT_END_COMMANDS
        ]
        await self.conn.session_update(
            session_id=held.session.session_id,
            update=acp.helpers.update_available_commands(commands),
        )

    def _modes(self, held: AcpSession) -> SessionModeState:
        return SessionModeState(
            current_mode_id=held.commands.mode.value,
            available_modes=[
                SessionMode(id=m.value, name=MODE_NAMES[m]) for m in INTERACTIVE_MODES
            ],
        )


def _client_servers(given: list[Any] | None) -> dict[str, McpServer]:
    servers: dict[str, McpServer] = {}
    for item in given or []:
        entry = item.model_dump(by_alias=True) if hasattr(item, "model_dump") else dict(item)
        name, server = server_from_client(entry)
        servers[name] = server
    return servers


def _prompt_text(blocks: list[Any]) -> str:
    """The person's words, with any embedded text resource (a file the client attached)."""
    parts: list[str] = []
    for block in blocks:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(block.text)
        elif kind == "resource" and getattr(block.resource, "text", None) is not None:
            parts.append(f"\n{block.resource.uri}:\n```\n{block.resource.text}\n```")
        elif kind == "resource_link":
            parts.append(f"[{block.name}]({block.uri})")
    return "".join(parts).strip()


def _minus(total: Any, before: Any) -> dict[str, int]:
    def d(name: str) -> int:
        return max(0, int(getattr(total, name)) - int(getattr(before, name)))

    return {
        "input": d("uncached_input") + d("cached_input") + d("cache_write"),
        "output": d("output"),
        "cached": d("cached_input"),
        "written": d("cache_write"),
    }


def _replay(session: Session) -> list[Any]:
    """A stored session's conversation as updates (session/load sends it before answering)."""
    updates: list[Any] = []
    for message in session.conversation.history:
        if message.role == "user" and message.content:
            updates.append(acp.update_user_message_text(message.content))
        elif message.role == "assistant":
            if message.content:
                updates.append(acp.update_agent_message_text(message.content))
            for call in message.tool_calls:
                title = tool_title(call.name, call.arguments)
                updates.append(
                    acp.start_tool_call(
                        call.id, title, status="completed", raw_input=call.arguments
                    )
                )
    return updates


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kiln")
    except PackageNotFoundError:
        return "0"


async def _stdio() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The protocol's own streams: stdin, and a copy of the real stdout; fd 1 itself then
    points at stderr, so a stray print (ours, a library's, a child's) never corrupts a frame."""
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=STDIN_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, protocol_out
    )
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    # A line that is no JSON-RPC message is answered here; the SDK would drop it unanswered.
    passed, screening = screened(reader, writer, STDIN_LIMIT)
    _SCREENING.add(screening)  # held: a task nobody references may be collected mid-run
    screening.add_done_callback(_SCREENING.discard)
    return passed, writer


async def serve(flags: dict[str, Any], mode: Mode) -> int:
    agent = KilnAgent(flags, mode)
    reader, writer = await _stdio()
    loop, serving = asyncio.get_running_loop(), asyncio.current_task()
    assert serving is not None
    with contextlib.suppress(NotImplementedError, RuntimeError):
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            loop.add_signal_handler(signum, serving.cancel)  # the sandboxes close first
    try:
        await acp.run_agent(cast(acp.Agent, agent), input_stream=writer, output_stream=reader)
    except asyncio.CancelledError:
        return int(ExitCode.INTERRUPTED)
    finally:
        await agent.close()
    return 0


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    flags = {
        "models.main.base_url": args.base_url,
        "models.main.model": args.model,
        "models.main.provider": args.provider,
        "models.main.effort": args.effort,
        "sandbox.backend": args.backend,
    }
    return asyncio.run(serve(flags, Mode(args.mode or "ask")))


def _hint(arg: str) -> AvailableCommandInput | None:
    """What a command takes (`[MODE]`, a custom command's argument-hint), for the client."""
    return AvailableCommandInput(root=UnstructuredCommandInput(hint=arg)) if arg else None
