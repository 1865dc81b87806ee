"""Opening a session, the same for every interactive front end: the one trust question,
asked when the repository's own files want what only trust allows (settings that reach
past the sandbox, MCP servers or hooks on this machine), then a new Session, or a stored one
resumed. The front end only draws the question and the events."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from agent.approval import Approver, Mode
from agent.llm.base import ModelClient
from agent.session.core import Session
from agent.settings import trust
from agent.settings.config import Settings, load_settings
from sandbox.frozen import frozen


@frozen
class TrustQuestion:
    question: str  # "Trust this repository's .kiln.toml?"
    detail: str  # what the files ask for, and what trusting them does
    files: str  # the files it asks about: ".kiln.toml", ".mcp.json", ".claude/settings.json"


@frozen
class Opened:
    session: Session
    settings: Settings  # reloaded when the person trusted the files
    trusted: str = ""  # the files trusted now ("" when none)


def trust_question(repo: Path, settings: Settings) -> TrustQuestion | None:
    """What to ask before the repository's files are honoured; None: nothing to ask."""
    wanted = trust.trust_would_honour(settings.ignored)
    servers = trust.servers_awaiting_trust(repo)
    hooks = trust.hooks_awaiting_trust(repo)
    if not wanted and not servers and not hooks:
        return None
    shown = ", ".join(f"{key} = {value!r}" for key, value in list(wanted.items())[:4])
    said = (
        [
            f"It sets {shown}: settings only a trusted file may set (they reach past the "
            "sandbox: your machine, money or limits)."
        ]
        if wanted
        else []
    )
    if servers:
        said.append(f"Its .mcp.json starts MCP servers on your machine: {', '.join(servers)}.")
    if hooks:
        shown_hooks = ", ".join(hooks[:4]) + (
            f" and {len(hooks) - 4} more" if len(hooks) > 4 else ""
        )
        said.append(f"Its {trust.CLAUDE_FILE} runs hooks, in the sandbox: {shown_hooks}.")
    asking = ((trust.REPO_FILE, wanted), (trust.MCP_FILE, servers), (trust.CLAUDE_FILE, hooks))
    files = " and ".join(name for name, on in asking if on)
    detail = (
        " ".join(said) + " kiln ignores them unless you trust this file as it is now "
        "(`kiln trust` does the same; a changed file asks again)."
    )
    return TrustQuestion(f"Trust this repository's {files}?", detail, files)


async def open_session(
    settings: Settings,
    repo: Path,
    approver: Approver,
    mode: Mode,
    ask: Callable[[TrustQuestion], Awaitable[bool]],
    *,
    resume: str | None = None,
    client: ModelClient | None = None,
) -> Opened:
    """The session a front end holds: a stored one (`resume`) as it was, else a new one
    after the trust question (the settings reloaded when the person trusts the files)."""
    if resume:
        return Opened(Session.load(resume, settings, approver, mode=mode, client=client), settings)
    trusted = ""
    question = trust_question(repo, settings)
    if question is not None and await ask(question):
        trust.trust(repo)
        settings, trusted = load_settings(repo, settings.flags), question.files
    return Opened(Session(settings, repo, approver, mode, client=client), settings, trusted)
