"""Making room in the context window before a request: no request is sent that would not fit.

Below the window's threshold nothing happens (the prompt prefix stays byte-identical and
cached). Above it, tier 1 stubs old tool outputs; if that does not bring the prompt down
to the target (well below the threshold, so compactions are rare), tier 2 has the model
summarise the older turns (prompts/compaction.py). If even the recent messages do
not fit, the longest of them are cut head and tail until they do: the request goes out.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import TYPE_CHECKING

from agent import tools
from agent.events import Compacted, StopReason, WindowUsed
from agent.llm.base import Completion, Message
from agent.prompts.conversation import truncate
from agent.prompts.window import prompt_chars
from agent.run.core import Run
from agent.run.sampling import ask_once
from agent.run.stops import Stop
from sandbox.base import SandboxError

if TYPE_CHECKING:
    from agent.prompts import compaction

SUMMARY_TOKENS = 600


async def make_room(run: Run, *, force: bool = False) -> None:
    """Compact the conversation if the next request would be too full (or `force`)."""
    conversation, window = run.conversation, run.deps.window
    specs = tools.specs(run.deps.tool_context)
    before = window.estimate(conversation.messages(), specs)
    if before <= window.threshold and not force:
        run.emit(WindowUsed(before, window.tokens))
        return
    from agent.prompts import compaction  # here: most runs never compact

    outcome = compaction.stub_old_outputs(conversation.history)
    conversation.history = outcome.history
    after = window.estimate(conversation.messages(), specs)
    fixed = window.estimate(conversation.messages()[:1], specs)
    if after > window.target(fixed) or force:
        cut = compaction.split_for_summary(conversation.history)
        if cut > 0:
            old = conversation.history[:cut]
            summary = await _summarise(run, old)
            outcome = compaction.with_summary(
                conversation.history, cut, summary, await _pinned(run)
            )
            conversation.history = outcome.history
            after = window.estimate(conversation.messages(), specs)
    if after > window.room and window.known:
        _cut_longest(run)
        after = window.estimate(conversation.messages(), specs)
        if after > window.room and window.server == "ollama" and not force:
            raise _over_what_ollama_serves(window.tokens, after)
    if outcome.compacted or after < before:
        run.emit(
            Compacted(
                outcome.tier, outcome.compacted, outcome.kept or ("everything but old outputs",),
                before, after, window.tokens, outcome.summary,
            )
        )  # fmt: skip
    run.emit(WindowUsed(after, window.tokens))


async def _summarise(run: Run, old: list[Message]) -> str:
    """The model's summary of `old`; without one (an error, an empty reply), the calls."""
    from agent.prompts import compaction  # loaded by make_room already

    window = run.deps.window
    budget_chars = int(window.room * 0.6 * window.chars_per_token)
    request = compaction.summary_request(old, budget_chars)
    completion = await ask_once(run, request, [], max_tokens=SUMMARY_TOKENS, fast=True)
    text = completion.message.content if completion is not None else ""
    return text.strip() or compaction.mechanical_summary(old)


async def _pinned(run: Run) -> compaction.Pinned:
    from agent.prompts import compaction  # loaded by make_room already

    changed: tuple[str, ...] = ()
    with contextlib.suppress(SandboxError):
        changed = tuple(await run.sandbox.changed_files())
    tests = run.state.last_tests
    return compaction.Pinned(
        instructions=tuple(run.conversation.instructions),
        plan=_latest_plan(run.conversation.history),
        failing_tests=tests.text if tests is not None and not tests.ok else "",
        changed_files=changed,
    )


def _latest_plan(history: list[Message]) -> str:
    for message in reversed(history):
        for call in message.tool_calls:
            if call.name == "update_plan":
                steps = call.arguments.get("steps") or []
                return "\n".join(
                    f"- [{s.get('status', '?')}] {s.get('title', '')}"
                    for s in steps
                    if isinstance(s, dict)
                )
    return ""


def _over_what_ollama_serves(served: int, needed: int) -> Stop:
    """Ollama's OpenAI endpoint would cut the prompt silently (H1): the run stops first."""
    return Stop(
        StopReason.MODEL_ERROR,
        f"The prompt needs about {needed:,} tokens and Ollama serves this model "
        f"{served:,}, so it would cut it silently: start Ollama with "
        "OLLAMA_CONTEXT_LENGTH=32768 (or set PARAMETER num_ctx in the model's Modelfile), "
        "or leave the provider unset so kiln asks Ollama for the window it needs.",
    )


def _cut_longest(run: Run) -> None:
    """The last resort: halve the longest messages until the request fits; a message that
    holds the person's task keeps it word for word, and only the rest is halved."""
    conversation, window = run.conversation, run.deps.window
    specs = tools.specs(run.deps.tool_context)
    task = conversation.instructions[-1] if conversation.instructions else ""
    for _ in range(40):
        if window.estimate(conversation.messages(), specs) <= window.room:
            return
        history = conversation.history
        longest = max(range(len(history)), key=lambda i: _cuttable(history[i].content, task))
        message = history[longest]
        if _cuttable(message.content, task) < 200:
            return  # nothing left worth cutting
        # Only the text is halved: what the message carries for its provider (thinking
        # blocks and their signatures, reasoning) goes back unchanged (C3, C4).
        history[longest] = dataclasses.replace(message, content=_halved(message.content, task))


def _cuttable(content: str, task: str) -> int:
    return len(content) - (len(task) if task and task in content else 0)


def _halved(content: str, task: str) -> str:
    if not task or task not in content:
        return truncate(content, len(content) // 2)[0]
    rest = content.replace(task, "", 1)
    cut, _ = truncate(rest, len(rest) // 2)
    return f"The task:\n{task}\n\n{cut}"


def calibrate(run: Run, sent: list[Message], completion: Completion) -> None:
    """The server counted the prompt just sent: the next estimate uses its ratio."""
    tokens = completion.usage.prompt_total
    run.deps.window.calibrate(prompt_chars(sent, tools.specs(run.deps.tool_context)), tokens)
