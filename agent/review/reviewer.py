"""One review: every chunk of the change read by the model with read-only tools, each
finding it reports filtered by confidence and checked again in a short request of its own.

Requests go through kiln's own metered path (`run.sampling.ask_once`): priced by the
meter, stored like any request, the budget in `[limits]` checked before each chunk.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent import tools
from agent.approval import ApprovalRequest, Decision, Mode
from agent.context.repomap import prompt_map
from agent.cost.meter import Meter
from agent.errors import KilnError, ModelError
from agent.events import Usage
from agent.llm.base import Message, ModelClient, ToolCall
from agent.llm.request import OnRequest
from agent.prompts.conversation import Conversation, truncate
from agent.prompts.policy import policy_for
from agent.review import chunks, prompt
from agent.review.diffs import FileChange, parse_diff, render
from agent.review.findings import VERDICTS, BadFinding, Finding, dedupe, from_arguments
from agent.review.generated import set_aside
from agent.review.target import Target
from agent.review.tools import VERIFY_FINDING, report_specs, review_specs
from agent.review.view import ReadOnlyView
from agent.run.core import LoopDeps, Run
from agent.run.sampling import ask_once
from agent.run.state import RunState, call_signature
from agent.settings.config import Settings
from agent.tools.gate import ApprovalGate

STEPS_PER_CHUNK = 24  # requests for one chunk, reading included
MAX_REPEATS = 3  # the same call again this many times ends the part
REPEATED = (
    "You made this call already; its answer is above. Report what is wrong with "
    "report_finding, or call finish_review."
)
VERIFY_CONTEXT_LINES = 8


@dataclass
class ReviewOptions:
    instructions: str = ""
    min_confidence: float = 0.5
    verify: bool = True


@dataclass
class ReviewResult:
    target: Target
    verdict: str
    summary: str
    findings: list[Finding]
    notes: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0
    tests: dict[str, Any] | None = None


class Reviewer:
    def __init__(
        self,
        client: ModelClient,
        meter: Meter,
        settings: Settings,
        root: Path,
        options: ReviewOptions,
        on_request: OnRequest | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.root = root
        self.options = options
        self.progress = progress or (lambda line: None)
        view = ReadOnlyView(root)
        context = tools.ToolContext(
            sandbox=view, settings=settings, gate=ApprovalGate(NoQuestions(), Mode.PLAN),
            test_command="",
        )  # fmt: skip
        deps = LoopDeps(
            client=client, tool_context=context, conversation=Conversation(""), meter=meter,
            policy=policy_for(client.profile), before_change=_nothing, on_request=on_request,
        )  # fmt: skip
        self.run = Run(deps, RunState(settings.limits), lambda event: None)
        self.small = not deps.policy.reads_on_its_own
        self._added: dict[str, set[int]] = {}
        self.settings = settings

    async def review(self, target: Target) -> ReviewResult:
        changes = parse_diff(target.diff)
        # Generated, vendored and oversized files are left out with a note, not read.
        changes, left_out = await asyncio.to_thread(set_aside, changes, self.root)
        self._added = {c.path: c.added_lines for c in changes}
        window = self.run.deps.client.profile.context_window
        budget = max(1500, int(window * 0.35))
        parts, notes = chunks.plan(changes, budget)
        notes = [*target.notes, *left_out, *notes]
        repo_map = await asyncio.to_thread(self._map, [c.path for c in changes])
        system = prompt.system_prompt(self.root.name, repo_map)
        reported: list[Finding] = []
        verdicts: list[tuple[str, str, list[Finding]]] = []
        for index, part in enumerate(parts, 1):
            if self.run.deps.meter.over_budget(self.settings.limits):
                rest = sorted({p for later in parts[index - 1 :] for p in later.paths})
                notes.append(f"The budget was spent; not reviewed: {', '.join(rest)}.")
                break
            self.progress(f"reviewing part {index} of {len(parts)}: {', '.join(part.paths)}")
            elsewhere = _elsewhere(changes, part.paths)
            text = prompt.chunk_message(
                target, part.body, index, len(parts), self.options.instructions, elsewhere
            )
            if self.small:  # no reading round trips: the files come with the change
                text += prompt.files_after(part.paths, self._lines)
                text += prompt.changed_lines([c for c in changes if c.path in part.paths])
            found, (verdict, summary) = await self._chunk(system, text)
            reported += found
            verdicts.append((verdict, summary, found))
        if not parts and not notes:
            notes.append("The change is empty: there is nothing to review.")
        kept = [f for f in reported if f.confidence >= self.options.min_confidence]
        if len(kept) < len(reported):
            notes.append(
                f"{len(reported) - len(kept)} findings under confidence "
                f"{self.options.min_confidence:g} were dropped."
            )
        kept = dedupe(kept, self._added)  # before the checks: one request per problem
        if self.options.verify and kept:
            kept = await self._verified(kept, changes, notes)
        meter = self.run.deps.meter
        summary = " ".join(s for _, s, _ in verdicts if s).strip()
        return ReviewResult(
            target, _verdict(verdicts, kept), summary, kept, notes, meter.total, meter.cost_usd
        )

    def _map(self, paths: list[str]) -> str:
        tokens = self.run.deps.policy.map_tokens(self.settings.context.map_tokens)
        if not tokens:
            return ""  # a small model's window is kept for the change itself
        try:
            return prompt_map(self.root, paths, tokens)
        except KilnError:
            return ""

    async def _ask(self, messages: list[Message], specs: list[tools.ToolSpec]) -> Message:
        self.run.state.steps += 1
        completion = await ask_once(self.run, messages, specs)
        if completion is None:
            raise ModelError(
                "The model did not answer the review's request after its retries; check that "
                "its server runs (kiln models), then review again."
            )
        return completion.message

    async def _chunk(self, system: str, text: str) -> tuple[list[Finding], tuple[str, str]]:
        messages = [Message("system", system, cache_breakpoint=True), Message("user", text)]
        found: list[Finding] = []
        specs = report_specs() if self.small else review_specs()
        nudged = False
        calls_seen: set[str] = set()
        repeats = 0
        for _ in range(STEPS_PER_CHUNK):
            reply = await self._ask(messages, specs)
            messages.append(reply)
            if not reply.tool_calls:
                if nudged:
                    return found, ("incorrect" if found else "correct", reply.content.strip())
                nudged = True
                messages.append(
                    Message("user", "Report with report_finding, then call finish_review.")
                )
                continue
            for call in reply.tool_calls:
                if call.name == "finish_review":
                    verdict = str(call.arguments.get("verdict", "")).lower()
                    summary = str(call.arguments.get("summary", "")).strip()
                    return found, (verdict if verdict in VERDICTS else "correct", summary)
                signature = call_signature(call.name, call.arguments)
                if signature in calls_seen:  # a small model may go round in circles
                    repeats += 1
                    if repeats >= MAX_REPEATS:
                        return found, ("incorrect" if found else "correct", "")
                    output = REPEATED
                else:
                    calls_seen.add(signature)
                    output = await self._tool(call, found)
                messages.append(Message("tool", output, tool_call_id=call.id, name=call.name))
        return found, ("incorrect" if found else "correct", "")

    async def _tool(self, call: ToolCall, found: list[Finding]) -> str:
        if call.name == "report_finding":
            arguments = self._near_a_change(call.arguments) if self.small else call.arguments
            try:
                finding = from_arguments(arguments, self._lines)
            except BadFinding as bad:
                return f"Not recorded: {bad}"
            found.append(finding)
            return (
                f"Recorded finding {len(found)} ({finding.path}:{finding.line}). Report the "
                "next problem, or call finish_review when there is none left."
            )
        if call.name not in tools.READ_ONLY or call.name in ("finish", "update_plan"):
            return f"A review only reads: {call.name} is not available here."
        result = await tools.call(self.run.tool_context, call.name, call.arguments)
        return truncate(result.output)[0]

    def _near_a_change(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """A small model often counts one line too far: a line past the file's end is
        taken as the changed line nearest to it (a capable model is asked to correct it)."""
        lines = self._lines(str(arguments.get("path", "")).strip())
        added = sorted(self._added.get(str(arguments.get("path", "")).strip(), ()))
        try:
            line = int(arguments.get("line"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return arguments
        if lines is None or line <= len(lines) or not added:
            return arguments
        nearest = min(added, key=lambda n: abs(n - line))
        return {**arguments, "line": nearest, "end_line": nearest}

    def _lines(self, path: str) -> list[str] | None:
        target = (self.root / path).resolve()
        if self.root.resolve() not in target.parents or not target.is_file():
            return None
        return target.read_text(encoding="utf-8", errors="replace").splitlines()

    async def _verified(
        self, findings: list[Finding], changes: list[FileChange], notes: list[str]
    ) -> list[Finding]:
        kept: list[Finding] = []
        refuted = unchecked = 0
        by_path = {c.path: c for c in changes}
        for finding in findings:
            lines = self._lines(finding.path) or []
            first = max(1, finding.line - VERIFY_CONTEXT_LINES)
            last = min(len(lines), finding.end_line + VERIFY_CONTEXT_LINES)
            excerpt = "\n".join(f"{n:>5} {lines[n - 1]}" for n in range(first, last + 1))
            change = by_path.get(finding.path)
            hunks = [
                h for h in (change.hunks if change else [])
                if h.new_range[0] <= last and h.new_range[1] >= first
            ]  # fmt: skip
            hunk = render(change, hunks) if change and hunks else ""
            messages = [
                Message("system", prompt.VERIFY_SYSTEM, cache_breakpoint=True),
                Message("user", prompt.verify_message(finding, excerpt, hunk)),
            ]
            reply = await self._ask(messages, [VERIFY_FINDING])
            answer = next(
                (c.arguments for c in reply.tool_calls if c.name == "verify_finding"), None
            )
            if answer is None:
                unchecked += 1
                kept.append(finding)
                continue
            holds = str(answer.get("real", "")).strip().lower() in ("yes", "true")
            confidence = _confidence(answer.get("confidence"), finding.confidence)
            if not holds or confidence < self.options.min_confidence:
                refuted += 1
                continue
            kept.append(_replace_confidence(finding, min(finding.confidence, confidence)))
        if refuted:
            notes.append(f"{refuted} findings did not hold when checked against the code.")
        if unchecked:
            notes.append(f"{unchecked} findings could not be checked (no verify_finding answer).")
        return kept


def _verdict(parts: list[tuple[str, str, list[Finding]]], kept: list[Finding]) -> str:
    """Incorrect when a priority 0-1 finding stands, or a part was called incorrect and
    none of its findings was dropped (a verdict resting on refuted findings does not hold)."""
    if any(f.priority <= 1 for f in kept):
        return "incorrect"
    ids = {f.id for f in kept}
    for verdict, _, found in parts:
        if verdict == "incorrect" and all(f.id in ids for f in found):
            return "incorrect"
    return "correct"


def _elsewhere(changes: list[FileChange], here: list[str]) -> list[str]:
    return [
        f"{c.path} ({c.status}{', binary' if c.binary else ''})"
        for c in changes
        if c.path not in here
    ][:40]


def _confidence(raw: object, default: float) -> float:
    try:
        value = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return min(max(value, 0.0), 1.0)


def _replace_confidence(finding: Finding, confidence: float) -> Finding:
    from dataclasses import replace

    return replace(finding, confidence=confidence)


class NoQuestions:
    """A review only reads (and --run-tests only runs the tests): nothing asks the person."""

    async def decide(self, request: ApprovalRequest) -> Decision:
        raise AssertionError(f"a review asked to approve {json.dumps(str(request))}")


async def _nothing() -> None:
    return None
