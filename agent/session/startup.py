"""A session's start-up once its model client is open (`models.py`): the sandbox, the MCP
servers, the stable prefix (project rules, the skills and the repo map) and the server's
context window side by side; then the window's calibration and the loop's dependencies,
made once (the fast model among them). Nothing half-started stays behind when one of them
fails."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from agent import tools
from agent.boundary import start_sandbox
from agent.context.index import RepoIndex
from agent.context.repomap import prompt_map
from agent.cost.meter import Meter
from agent.cost.pricing import pricing_for
from agent.custom.agents import Agents
from agent.custom.agents import load as load_agents
from agent.custom.skills import Skills, prompt_section
from agent.custom.skills import load as load_skills
from agent.errors import KilnError
from agent.hooks.runner import HookRunner
from agent.llm import anthropic_thinking
from agent.llm.base import ModelClient, ModelProfile
from agent.llm.facts import limits_for
from agent.llm.request import OnRequest
from agent.llm.window import served_context, served_token_count
from agent.lsp.servers import language_servers
from agent.prompts.conversation import Conversation
from agent.prompts.policy import PromptPolicy
from agent.prompts.rules import project_rules
from agent.prompts.window import ANTHROPIC_WINDOW, Window
from agent.run.core import LoopDeps
from agent.session.baseline import TestCommand
from agent.session.models import fast_model
from agent.settings import trust
from agent.settings.config import MODEL_DATA, McpServer, Settings
from agent.tools.base import ExternalTools
from agent.tools.gate import ApprovalGate
from sandbox.base import Sandbox


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class Started:
    """What a session's start made: the sandbox, MCP tools, stable prefix, skills and window."""

    sandbox: Sandbox
    mcp: ExternalTools | None  # the MCP servers' tools, fixed for the session
    stable: str  # what follows the system prompt in every request
    parts: dict[str, str]  # the stable text by part (rules, skills, map), for /context
    skills: Skills  # their metadata is in `stable`; read_skill reads the rest
    window: Window  # as configured or declared; calibrated once the system prompt is made
    asked: asyncio.Future[str] | None = None  # what ask_sandbox answers (see start_parts)


def ignored_keys(settings: Settings) -> list[str]:
    """A sentence each for a repository's ignored settings, but those that change what
    runs: `start_parts` names them in one (`trust.ignored_runs`)."""
    return [
        f"The repository's .kiln.toml sets {key}, which kiln ignores: "
        f"{trust.why_ignored(key, settings.trust_suspended and trust.host_side_key(key))}."
        for key in settings.ignored
        if not trust.runs_key(key)
    ]


async def start_parts(
    repo: Path,
    settings: Settings,
    session_id: str,
    policy: PromptPolicy,
    profile: ModelProfile,
    sandbox: Sandbox | asyncio.Future[Sandbox] | None,
    given_mcp: dict[str, McpServer],
    notes: list[str],
    on_progress: Callable[[str], None] | None,
    ask_sandbox: Callable[[Sandbox], Awaitable[str]] | None = None,
) -> Started:
    """The sandbox (unless given, or being started by the caller, who closes it), the MCP
    servers, the stable prefix and the window the model's server declares, side by side:
    a big repository's first map takes seconds, and so does a container. `ask_sandbox`
    (the test runner check) goes to the sandbox as soon as it runs, while the rest may
    still be on its way; `Started.asked` is its answer, to be awaited."""
    window = asyncio.ensure_future(declared_window(profile, settings, notes))
    try:
        untrusted = await asyncio.to_thread(trust.ignored_runs, repo, settings.ignored)
        notes.extend([untrusted] if untrusted else [])
        skills = await asyncio.to_thread(load_skills, repo)
        notes.extend(skills.notes)
        stable = asyncio.ensure_future(stable_extra(repo, settings, policy, notes, skills))
        mcp = asyncio.ensure_future(start_mcp(repo, settings, given_mcp, notes))
        try:
            if sandbox is None:
                sandbox = await _own_sandbox(repo, settings, session_id, notes, on_progress)
            elif isinstance(sandbox, asyncio.Future):
                sandbox = await sandbox
        except BaseException:
            with contextlib.suppress(BaseException):
                await stable
            await _close_mcp(mcp)
            raise
        asked = asyncio.ensure_future(ask_sandbox(sandbox)) if ask_sandbox else None
        try:
            parts = await stable
            text = "\n\n".join(p for p in parts.values() if p)
            return Started(sandbox, await mcp, text, parts, skills, await window, asked)
        except BaseException:
            if asked is not None:
                asked.cancel()
            raise
    finally:
        window.cancel()  # asked and answered by now, unless a part failed


async def _own_sandbox(
    repo: Path,
    settings: Settings,
    session_id: str,
    notes: list[str],
    on_progress: Callable[[str], None] | None,
) -> Sandbox:
    made: list[Sandbox] = []
    try:
        return await start_sandbox(repo, settings, session_id, made, notes.append, on_progress)
    except BaseException:
        for box in made:  # nothing half-started stays behind; start() may be retried
            with contextlib.suppress(Exception):
                await box.close()
        raise


async def stable_extra(
    repo: Path, settings: Settings, policy: PromptPolicy, notes: list[str], skills: Skills
) -> dict[str, str]:
    """What follows the system prompt in the stable prefix, by part: the project's rules,
    the skills' metadata and the repo map, made once, so every request of the session
    starts with the same bytes."""
    tokens = policy.map_tokens(settings.context.map_tokens)
    rules = project_rules(repo)
    from agent.vcs.flagged import unreviewed_rules

    for name in await asyncio.to_thread(unreviewed_rules, repo):
        notes.append(
            f"{name} was written by a kiln apply and is not committed yet; it is read "
            "into every request as project rules: read it (`git diff`) before you rely on it."
        )
    repo_map = ""
    try:
        repo_map = await asyncio.to_thread(prompt_map, repo, (), tokens) if tokens else ""
    except KilnError as exc:  # the map helps; the session does not depend on it
        notes.append(f"No repo map this session: {exc.message}")
    shown = f"## Repository map (definitions by file, most used first)\n\n{repo_map}"
    return {"rules": rules, "skills": prompt_section(skills), "map": shown if repo_map else ""}


async def start_mcp(
    repo: Path, settings: Settings, given: dict[str, McpServer], notes: list[str]
) -> ExternalTools | None:
    """The MCP servers of the config, a trusted .mcp.json and the client; None: none."""
    from agent.mcp.config import choose_servers

    chosen = choose_servers(repo, settings, given)
    notes.extend(chosen.notes)
    if not chosen.servers:
        return None
    from agent.mcp.tools import McpTools

    tools = await McpTools.start(
        chosen.servers, repo, settings.mcp.max_tools, settings.model_key_vars
    )
    notes.extend(tools.notes)
    return tools


async def _close_mcp(started: asyncio.Future[ExternalTools | None]) -> None:
    with contextlib.suppress(BaseException):
        tools = await started
        if tools is not None:
            await tools.close()


async def declared_window(
    profile: ModelProfile, settings: Settings, notes: list[str] | None = None
) -> Window:
    """The model's context window: as the person configured it, else what kiln knows of
    the model (`llm/models.toml`: a hosted model's window, with no question to its API),
    else what its server declares (for Ollama's OpenAI endpoint, the context it serves;
    its native API serves what kiln asks), else Claude's, else the profile's default.
    Asked while the rest of the session starts; what the person should know of it (a
    served window below what the model takes) goes to `notes`. The reply's reserve holds
    Claude's thinking budget too."""
    reserve = anthropic_thinking.reply_reserve(profile)  # thinking counts in the reply
    tokens, known, server = profile.context_window, True, ""
    source = settings.sources.get("models.main.context_window", "")
    data_window = limits_for(profile.model)[0]
    if profile.provider == "ollama":  # what kiln asks Ollama to serve (`num_ctx`)
        server = "ollama"
    elif source and source != MODEL_DATA:
        pass  # the person's
    elif not source and tokens not in (ModelProfile().context_window, data_window):
        pass  # a profile kiln made (the local model)
    elif data_window:
        tokens = data_window
    elif profile.provider == "anthropic":
        tokens = ANTHROPIC_WINDOW
    elif profile.base_url:
        served = await served_context(profile.base_url, profile.model)
        if served is not None and served.note and notes is not None:
            notes.append(served.note)
        tokens, known = (served.tokens, True) if served else (tokens, False)
        server = served.server if served else "other"  # asked: no need to ask again
    else:
        known = False
    window = Window(tokens, reserve, settings.context.compact_at)
    window.known, window.server = known, server
    return window


async def calibrated(window: Window, profile: ModelProfile, system: str) -> Window:
    """`window` calibrated with the server's tokenizer (on `system`) where it has one."""
    if profile.provider != "anthropic" and profile.base_url:
        counted = await served_token_count(profile.base_url, system, window.server)
        if counted:
            window.calibrate(len(system), counted)
    return window


async def calibrated_while_checked(
    window: Window,
    profile: ModelProfile,
    conversation: Conversation,
    system_prompt: Callable[[], str],
    asked: asyncio.Future[str] | None,
) -> tuple[Window, str]:
    """The window calibrated on the system prompt, and the test runner check's answer
    (`asked`; "" without one): the server counts the prompt's tokens while the check runs,
    and counts again in the rare case the check changed the test command the prompt names.
    A prompt far from the window is not counted (`Window.worth_counting`): the first
    reply's count calibrates the estimate before anything depends on it. A conversation
    that has begun keeps its system prompt."""
    if not conversation.history:
        conversation.system = system_prompt()
    counted = conversation.system
    calibrating = None
    if window.worth_counting(len(counted)):
        calibrating = asyncio.ensure_future(calibrated(window, profile, counted))
    try:
        changed = "" if asked is None else await asked
    except BaseException:
        if calibrating is not None:
            calibrating.cancel()
        raise
    if changed and not conversation.history:  # the check chose another test command
        conversation.system = system_prompt()
    if calibrating is not None:
        window = await calibrating
        if conversation.system != counted:
            window = await calibrated(window, profile, conversation.system)
    return window, changed


def _agents(repo: Path, policy: PromptPolicy, notes: list[str]) -> Agents | None:
    """The child agents the `agent` tool offers: for a model that reads and plans on its own
    only (a small model's tool list stays as it was)."""
    if not policy.reads_on_its_own:
        return None
    found = load_agents(repo)
    notes.extend(found.notes)
    return found


async def loop_deps(
    repo: Path,
    settings: Settings,
    client: ModelClient,
    policy: PromptPolicy,
    sandbox: Sandbox,
    gate: ApprovalGate,
    conversation: Conversation,
    tests: TestCommand,
    mcp: ExternalTools | None,
    hooks: HookRunner,
    on_request: OnRequest,
    notes: list[str],
) -> LoopDeps:
    """What every run of the session needs, made once: the tools' context, the meter (its
    price table read in a thread: a few ms of parsing), the fast model; the caller sets the
    window once it is calibrated on the system prompt."""
    context = tools.ToolContext(
        sandbox=sandbox,
        settings=settings,
        gate=gate,
        test_command=tests.command,
        max_command_timeout_s=max(settings.tests.timeout_s, 60.0),
        repo_index=RepoIndex.for_repository(repo),
        external=mcp,
        hooks=hooks or None,
        agents=_agents(repo, policy, notes),
        language_servers=language_servers(settings, sandbox),
    )
    return LoopDeps(
        client=client,
        tool_context=context,
        conversation=conversation,
        meter=Meter(await asyncio.to_thread(pricing_for, client.profile, settings)),
        policy=policy,
        before_change=tests.wait,
        tests_before=lambda: tests.before,
        on_request=on_request,
        fast=await fast_model(settings, notes),
    )
