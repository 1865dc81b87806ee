"""The slash commands every front end offers, with no Textual inside.

The TUI, line mode and (later) ACP hand what the person typed to `Commands.run`, and draw
what it yields: `Say` (a note), `ShowDiff` (a diff to look at), or events of the one
stream (an apply's question and answer, a mode or model change for the meter). A front
end handles only what is its own (/theme, /quit) and its keys in /help. Every command
ends in something shown, never silently; a failure is one sentence. A custom command
(agent/custom/commands.py) yields `RunTask`: its prompt, which the front end runs as if typed.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from agent.approval import INTERACTIVE_MODES, Mode, next_mode, parse_mode
from agent.custom.commands import CustomCommand, CustomCommands
from agent.custom.commands import load as load_custom
from agent.errors import Busy, KilnError
from agent.events import (
    Applied,
    Event,
    JobEnd,
    JobStopped,
    ModeChanged,
    ModelChanged,
    SubagentFinished,
    Usage,
)
from agent.present import changes_summary, cost_lines, cost_text
from agent.settings.config import Settings
from sandbox.frozen import frozen

if TYPE_CHECKING:
    from agent.review.reviewer import ReviewResult
    from agent.session import Session
    from agent.store.db import SessionRow

# After a request in these modes kiln offers to write its changes to the working tree.
OFFER_APPLY_MODES = frozenset({Mode.ASK, Mode.AUTO_EDIT})


@frozen
class SlashCommand:
    name: str
    help: str
    arg: str = ""  # placeholder shown in help, e.g. "[MODE]"
    # What carries it out; None: the front end's own (/theme, /quit).
    run: Handler | None = field(default=None, compare=False, repr=False)


@frozen
class ParsedCommand:
    name: str
    arg: str


@frozen
class Say:
    text: str
    level: str = "info"  # info | warning | error | success


@frozen
class ShowReview(Say):
    """A review's findings: the text for any front end, the result for one that draws a
    screen of it (the TUI)."""

    result: ReviewResult | None = None


@frozen
class RunTask(Say):
    """A custom command's prompt, filled in: the front end runs `task` as if typed (and
    shows `text`, which says where the command came from)."""

    task: str = ""


@frozen
class ShowDiff:
    title: str
    diff: str


Output = Say | ShowDiff | Event
Handler = Callable[["Commands", str], AsyncIterator[Output]]


def parse(text: str) -> ParsedCommand | None:
    """`/mode ask` -> ParsedCommand("mode", "ask"); plain text (or `//...`) -> None."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    head, _, arg = stripped[1:].partition(" ")
    return ParsedCommand(head.lower(), arg.strip())


def completions(text: str, custom: tuple[SlashCommand, ...] = ()) -> list[SlashCommand]:
    """Commands whose name starts with what follows the slash (only while no space typed)."""
    if not text.startswith("/") or " " in text or "\n" in text:
        return []
    prefix = text[1:].lower()
    return [c for c in (*COMMANDS, *custom) if c.name.startswith(prefix)]


def help_lines(custom: tuple[SlashCommand, ...] = ()) -> list[str]:
    width = max(len(c.name) + len(c.arg) for c in (*COMMANDS, *custom)) + 3
    lines = [f"/{c.name} {c.arg}".ljust(width) + f" {c.help}" for c in COMMANDS]
    if custom:
        lines += ["", "Custom commands (prompts from Markdown files, run as the task):"]
        lines += [f"/{c.name} {c.arg}".ljust(width) + f" {c.help}" for c in custom]
    return lines


def as_slash(command: CustomCommand) -> SlashCommand:
    """A custom command as the lists show it: completion, /help, the palette, ACP."""
    arg = command.argument_hint or ("[ARGUMENTS]" if command.takes_arguments else "")
    return SlashCommand(command.name, command.help, arg)


NOT_READY = "The session is not ready yet (see the sandbox state)."


class Commands:
    """The commands of one front end's session; `session` is set once it has started."""

    def __init__(
        self,
        settings: Settings,
        mode: Mode,
        keys_help: list[str] | None = None,
        repo: Path | None = None,
    ) -> None:
        self.settings = settings
        self.session: Session | None = None
        self._mode = mode
        self._keys_help = keys_help or []
        # The repository's and the user's custom commands, read once; a built-in name wins.
        self.custom = load_custom(repo, BY_NAME) if repo is not None else CustomCommands()
        self.custom_listed = tuple(as_slash(c) for c in self.custom.commands)

    def completions(self, text: str) -> list[SlashCommand]:
        return completions(text, self.custom_listed)

    @property
    def mode(self) -> Mode:
        return self.session.mode if self.session is not None else self._mode

    def set_mode(self, mode: Mode) -> ModeChanged:
        self._mode = mode
        if self.session is not None:
            self.session.mode = mode
        return ModeChanged(mode)

    async def run(self, line: str) -> AsyncIterator[Output]:
        """Carry out one slash command; every KilnError becomes one sentence."""
        parsed = parse(line)
        if parsed is None:
            return
        command = BY_NAME.get(parsed.name)
        custom = self.custom_task(line) if command is None else None
        if custom is not None:
            yield custom
            return
        if command is None or command.run is None:
            yield Say(f"There is no /{parsed.name}; /help lists the commands.", "warning")
            return
        try:
            async for output in command.run(self, parsed.arg):
                yield output
        except KilnError as exc:
            yield Say(exc.message, "error")

    def custom_task(self, line: str) -> RunTask | None:
        """A custom command's prompt for this line, or None (not one; a built-in wins)."""
        parsed = parse(line)
        if parsed is None or parsed.name in BY_NAME:
            return None
        command = self.custom.get(parsed.name)
        return self._custom(command, parsed.arg) if command is not None else None

    def _custom(self, command: CustomCommand, arg: str) -> RunTask:
        said = f"/{command.name}: the prompt from {command.origin}"
        caveats = command.caveats()
        said += f" ({'; '.join(caveats)})." if caveats else "."
        return RunTask(said, task=command.expand(arg))

    def _ready(self) -> Session:
        if self.session is None:
            raise KilnError(NOT_READY)
        return self.session

    def _idle(self) -> Session:
        session = self._ready()
        if session.running:
            raise Busy()
        return session

    # --- the commands ----------------------------------------------------------------

    async def _cmd_mode(self, arg: str) -> AsyncIterator[Output]:
        names = ", ".join(m.value for m in INTERACTIVE_MODES)
        if not arg:
            yield Say(f"Mode: {self.mode.value} (choose from {names}).")
            return
        mode = parse_mode(arg)
        if mode is None:
            yield Say(f"`{arg}` is not a mode; choose from {names}.", "warning")
            return
        yield self.set_mode(mode)
        yield Say(f"Mode: {mode.value}.")

    async def _cmd_model(self, arg: str) -> AsyncIterator[Output]:
        if not arg:
            session = self.session
            current = session.profile.model if session and session.client else ""
            rows = [
                f"{name}: {p.model or '(server default)'} at {p.base_url or '(default)'}"
                for name, p in self.settings.models.items()
            ]
            head = f"In use: {current}. " if current else ""
            listing = "\n".join(rows) or "No model profiles are configured."
            yield Say(
                f"{head}/model NAME switches to a profile or a model at this server.\n{listing}"
            )
            return
        profile = await self._idle().switch_model(arg)
        yield ModelChanged(profile.model, profile.base_url)
        yield Say(f"Model: {profile.model} at {profile.base_url}.")

    async def _cmd_effort(self, arg: str) -> AsyncIterator[Output]:
        from agent.llm.facts import EFFORT_WORDS, effort_for, facts_for

        session = self._ready()
        facts = facts_for(session.profile.model)
        takes = ", ".join(facts.efforts) if facts.effort_as else ""
        if not arg:
            now = session.profile.effort or "the provider's default"
            offer = f"{session.profile.model} takes {takes}." if takes else (
                f"kiln knows of no reasoning effort {session.profile.model} takes."
            )  # fmt: skip
            yield Say(f"Effort: {now}. {offer} /effort LEVEL sets it.")
            return
        word = arg.strip().lower()
        if word not in EFFORT_WORDS:
            yield Say(
                f"`{arg}` is not an effort; choose from {', '.join(EFFORT_WORDS)}.", "warning"
            )
            return
        profile = await session.set_effort(word)
        sent = effort_for(facts, word)
        if not sent:
            yield Say(
                f"Effort: {word}, kept; kiln knows of no effort {profile.model} takes, so "
                "none is sent (a model that takes one gets it after /model)."
            )
        else:
            yield Say(f"Effort: {word} (sent as {sent}) from the next request on.")

    async def _cmd_diff(self, arg: str) -> AsyncIterator[Output]:
        diff = await self._ready().diff()
        if not diff.strip():
            yield Say("The sandbox has no changes.")
            return
        yield ShowDiff(f"Changes in the sandbox ({changes_summary(diff)})", diff)

    async def _cmd_apply(self, arg: str) -> AsyncIterator[Output]:
        """The session shows the combined diff and asks (unless full-auto) before writing."""
        async for output in self.apply(offered=False):
            yield output

    async def apply(self, *, offered: bool) -> AsyncIterator[Output]:
        """/apply, or the offer at the end of a request (`offered`: no note if nothing)."""
        session = self._idle()
        if not (await session.diff()).strip():
            if not offered:
                yield Say("The sandbox has no changes to apply.")
            return
        async for event in session.apply():
            yield event
            if isinstance(event, Applied) and event.paths:
                yield Say(f"Applied to your working tree: {', '.join(event.paths)}.", "success")
            elif isinstance(event, Applied):
                kept = " (/apply writes them later)" if offered else ""
                yield Say(f"Not applied; your working tree is unchanged{kept}.")

    def offers_apply(self) -> bool:
        """Whether a finished request's changes are offered at once (ask and auto-edit)."""
        return self.mode in OFFER_APPLY_MODES

    async def _cmd_commit(self, arg: str) -> AsyncIterator[Output]:
        yield Say(await self._idle().commit(), "success")

    async def _cmd_undo(self, arg: str) -> AsyncIterator[Output]:
        session = self._idle()
        applied = await session.undo_applied()
        if applied is not None:
            yield Say(f"Undone: {applied}", "success")
            return
        yield Say(f"Undone: {await session.undo()}")

    async def _cmd_review(self, arg: str) -> AsyncIterator[Output]:
        from agent.review.formats import as_text
        from agent.review.runner import TargetSpec
        from agent.review.session import review_for_session

        session = self._idle()
        yield Say(f"Reviewing {arg or 'your changes (or HEAD when there are none)'}…")
        spec = TargetSpec.parse(arg)  # a bad target is one sentence before anything starts
        await session.start()
        store = session.store
        on_request = functools.partial(store.record_request, session.session_id) if store else None
        result = await review_for_session(
            session.repo, session.settings, session.client, session.meter, spec,
            on_request=on_request,
        )  # fmt: skip
        yield ShowReview(as_text(result), result=result)

    async def _cmd_queue(self, arg: str) -> AsyncIterator[Output]:
        from agent.vcs.queue import queue_lines

        session = self._ready()
        yield Say("\n".join(await asyncio.to_thread(queue_lines, session.repo)))

    async def _cmd_compact(self, arg: str) -> AsyncIterator[Output]:
        async for event in self._idle().compact():
            yield event

    async def _cmd_cost(self, arg: str) -> AsyncIterator[Output]:
        budget = self.settings.limits.budget_usd
        session = self.session
        if session is None:
            lines = cost_lines("", 0, 0.0, Usage(), 0.0, budget)
        else:
            model = session.profile.model if session.client else ""
            usage, cost = session.usage, session.cost_usd
            lines = cost_lines(model, session.steps, session.elapsed_s, usage, cost, budget)
            lines += _agents_cost(session.events)
        yield Say("\n".join(lines))

    async def _cmd_sessions(self, arg: str) -> AsyncIterator[Output]:
        rows = await asyncio.to_thread(_stored_sessions)
        lines = [
            f"{r.id}  {time.strftime('%Y-%m-%d %H:%M', time.localtime(r.updated))}  "
            f"{r.status or 'open':11} {r.steps:>4} steps  {cost_text(r.cost_usd, 0)}  {r.title[:50]}"
            for r in rows
        ]
        lines.append("Reopen one with `kiln --resume ID` (or `kiln chat --plain --resume ID`).")
        yield Say("\n".join(lines) if rows else "No stored sessions yet.")

    async def _cmd_help(self, arg: str) -> AsyncIterator[Output]:
        keys = ["", *self._keys_help] if self._keys_help else []
        yield Say("\n".join([*help_lines(self.custom_listed), *keys]))

    async def _cmd_agents(self, arg: str) -> AsyncIterator[Output]:
        from agent.custom.agents import listing
        from agent.custom.agents import load as load_agents

        session = self.session
        repo = session.repo if session is not None else None
        agents = await asyncio.to_thread(load_agents, repo)
        yield Say("\n".join(listing(agents, session.offers_agents() if session else None)))

    async def _cmd_attempts(self, arg: str) -> AsyncIterator[Output]:
        session = self._ready()
        count, _, task = arg.strip().partition(" ")
        if not count:
            now = session.attempts_next
            yield Say(
                f"The next request is tried {now} time{'s' if now > 1 else ''}. /attempts N "
                f"[TASK] tries it N times at once (2 to {MAX_ATTEMPTS}), each in a sandbox of "
                "its own, and keeps the changes of the one with evidence, then the smallest."
            )
            return
        if not count.isdigit() or not 1 <= int(count) <= MAX_ATTEMPTS:
            yield Say(
                f"`{count}` is not a number of attempts; give 1 to {MAX_ATTEMPTS}.", "warning"
            )
            return
        session.attempts_next = int(count)
        if task.strip():
            yield RunTask(f"Trying it {count} times at once.", task=task.strip())
        elif int(count) > 1:
            yield Say(f"The next request is tried {count} times at once.")
        else:
            yield Say("The next request is tried once.")

    async def _cmd_context(self, arg: str) -> AsyncIterator[Output]:
        yield Say("\n".join(self._ready().footprint()))

    async def _cmd_jobs(self, arg: str) -> AsyncIterator[Output]:
        session = self._ready()
        word, _, which = arg.partition(" ")
        which = which.strip()
        if not word:
            yield Say("\n".join(await session.job_lines()))
            return
        if word != "stop" or not which:
            yield Say("/jobs lists the jobs; /jobs stop ID (or all) stops them.", "warning")
            return
        only = "" if which == "all" else which.removeprefix("#")
        stopped: list[str] = []
        if session.running:  # their JobStopped events go to the request's own stream
            stopped = [job.id for job in await session.stop_now(JobEnd.PERSON, only)]
        else:
            async for event in session.stop_jobs(JobEnd.PERSON, only):
                if isinstance(event, JobStopped) and event.ended is JobEnd.PERSON:
                    stopped.append(event.job_id)
                yield event
        if stopped:
            yield Say(f"Stopped job {', '.join(stopped)}.", "success")
        else:
            yield Say("No job was running." if not only else f"Job {only} was not running.")


MAX_ATTEMPTS = 16  # as `kiln run --attempts`: each attempt is a sandbox and a conversation

# The table: each command bound to its handler; /theme and /quit are the front end's own.
COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand(
        "mode",
        "switch the approval mode (plan, ask, auto-edit, full-auto)",
        "[MODE]",
        run=Commands._cmd_mode,
    ),
    SlashCommand(
        "model", "show the model profiles, or switch to one", "[NAME]", run=Commands._cmd_model
    ),
    SlashCommand(
        "effort",
        "how hard a reasoning model thinks: low, medium, high",
        "[LEVEL]",
        run=Commands._cmd_effort,
    ),
    SlashCommand("diff", "show the sandbox's changes so far", run=Commands._cmd_diff),
    SlashCommand(
        "apply",
        "write the sandbox's changes to your working tree (asks first)",
        run=Commands._cmd_apply,
    ),
    SlashCommand(
        "commit", "commit the changes kiln applied last (hooks run)", run=Commands._cmd_commit
    ),
    SlashCommand(
        "undo",
        "take back kiln's last applied change (before any, the last sandbox step)",
        run=Commands._cmd_undo,
    ),
    SlashCommand(
        "review", "review a commit, a range, or your changes", "[REV]", run=Commands._cmd_review
    ),
    SlashCommand(
        "queue",
        "kiln's commits on this branch: diff, reword, squash, drop",
        run=Commands._cmd_queue,
    ),
    SlashCommand(
        "cost", "tokens, cache hits and money spent in this session", run=Commands._cmd_cost
    ),
    SlashCommand(
        "compact", "summarise the conversation to free context", run=Commands._cmd_compact
    ),
    SlashCommand(
        "context",
        "what the prompt holds: system, rules, skills, map, tools, conversation, in tokens",
        run=Commands._cmd_context,
    ),
    SlashCommand("sessions", "list stored sessions", run=Commands._cmd_sessions),
    SlashCommand(
        "jobs",
        "the model's jobs (command, uptime, ports, last lines); /jobs stop ID stops one",
        "[stop ID]",
        run=Commands._cmd_jobs,
    ),
    SlashCommand(
        "attempts",
        "try the next request N times at once, keeping the best changes",
        "N [TASK]",
        run=Commands._cmd_attempts,
    ),
    SlashCommand(
        "agents", "list the agents the model can start (the agent tool)", run=Commands._cmd_agents
    ),
    SlashCommand("theme", "switch the colour theme (remembered)", "[NAME]"),
    SlashCommand("help", "commands and keys", run=Commands._cmd_help),
    SlashCommand("quit", "close the sandbox and leave"),
)
BY_NAME = {c.name: c for c in COMMANDS}


def _agents_cost(events: list[Event]) -> list[str]:
    """/cost's line per kind of child agent: how many ran, their tokens and money (counted
    in the session's total already)."""
    by_name: dict[str, list[SubagentFinished]] = {}
    for event in events:
        if isinstance(event, SubagentFinished):
            by_name.setdefault(event.name, []).append(event)
    lines = []
    for name, ended in by_name.items():
        tokens = sum(e.usage.prompt_total + e.usage.output for e in ended)
        costs = [e.cost_usd for e in ended]
        money = "price unknown" if None in costs else cost_text(sum(c or 0.0 for c in costs), 0)
        lines.append(f"  of which agent {name} ×{len(ended)}: {tokens:,} tokens, {money}")
    return lines


def _stored_sessions(limit: int = 15) -> list[SessionRow]:
    from agent.store.db import Store

    store = Store()
    try:
        return store.sessions(limit)
    finally:
        store.close()


__all__ = [
    "BY_NAME",
    "COMMANDS",
    "INTERACTIVE_MODES",
    "Commands",
    "Output",
    "ParsedCommand",
    "RunTask",
    "Say",
    "ShowDiff",
    "ShowReview",
    "SlashCommand",
    "completions",
    "next_mode",
    "parse",
    "parse_mode",
]
