"""Text both front ends print for events (no Textual here, line mode uses it too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.present import cost_text, short_arguments

if TYPE_CHECKING:  # the events load after the TUI's first frame
    from agent.events import Finished, TestsRan, ToolCallFinished, ToolCallStarted

OUTPUT_LINES = 40  # a tool's output is cut to its last lines in the transcript
FAILING_SHOWN = 20


def call_head(started: ToolCallStarted) -> str:
    return f"{started.name} {short_arguments(started.arguments)}".rstrip()


def call_result(done: ToolCallFinished, recovered: bool = False) -> str:
    exit_part = f" · exit {done.exit_code}" if done.exit_code is not None else ""
    extra = " · recovered from text" if recovered else ""
    return (
        f"{'ok' if done.ok else 'failed'}{exit_part}{_problems(done)} · "
        f"{done.duration_s:.1f}s{extra}"
    )


def _problems(done: ToolCallFinished) -> str:
    """An edit's new problems by its language server, on its line (the lines themselves
    are its output, under it)."""
    if done.name not in ("edit_file", "write_file"):
        return ""
    from agent.lsp.diagnostics import problems_told  # with the first edit drawn

    count = problems_told(done.output)
    return f" · {count} new problem{'s' if count != 1 else ''}" if count else ""


def tail(output: str, lines: int = OUTPUT_LINES) -> str:
    rows = output.rstrip("\n").splitlines()
    if len(rows) <= lines:
        return "\n".join(rows)
    return f"… {len(rows) - lines} earlier lines not shown\n" + "\n".join(rows[-lines:])


def tests_passed(ran: TestsRan) -> bool:
    return ran.failed == 0 and ran.errors == 0 and ran.exit_code == 0


def tests_summary(ran: TestsRan) -> str:
    head = f"tests: {ran.passed} passed, {ran.failed} failed"
    if ran.errors:
        head += f", {ran.errors} errors"
    lines = [f"{head} · {ran.duration_s:.1f}s · {ran.command}"]
    lines += [f"  ✗ {name}" for name in ran.failing[:FAILING_SHOWN]]
    if len(ran.failing) > FAILING_SHOWN:
        lines.append(f"  … and {len(ran.failing) - FAILING_SHOWN} more")
    return "\n".join(lines)


APPLY_HINT = (
    "{n} file(s) changed in the sandbox only: /diff to review, /apply to write them "
    "to your working tree, /undo to step back."
)


def finished_summary(done: Finished) -> str:
    reason = done.stop_reason.value.replace("_", " ")
    # "done", "answered", "unverified" (a finish without evidence), "failed: max steps"...
    head = done.status if reason in (done.status, "done") else f"{done.status}: {reason}"
    return (
        f"{head} · {done.steps} steps · {done.tool_calls} tool calls · "
        f"{cost_text(done.cost_usd, 0)} · {done.duration_s:.1f}s"
    )
