"""How kiln says things to people, shared by every front end (no Textual, no rich).

Argument summaries, plan marks, token and money figures, diff statistics: one wording
for the TUI, line mode, headless text output and the slash commands.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agent.event_values import JobEnd, PlanStatus, TaskShape

if TYPE_CHECKING:  # the events themselves load with the session, not with the first frame
    from agent.event_values import Usage
    from agent.events import (
        ActionDenied,
        CandidatesTried,
        Compacted,
        HookRan,
        JobStarted,
        JobStopped,
        SubagentFinished,
        SubagentStarted,
        TaskShaped,
    )

CHARS_PER_TOKEN = 4  # a rough estimate, only used while a reply is still streaming
PLAN_MARKS = {PlanStatus.PENDING: "○", PlanStatus.IN_PROGRESS: "◐", PlanStatus.DONE: "●"}
# What names a call best, in order: a path, a command, a pattern.
_TELLING_ARGUMENTS = ("path", "cmd", "command", "file", "pattern", "query", "args")


def estimate_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def short_arguments(arguments: dict[str, Any], width: int = 60) -> str:
    """The one argument that says what a call does (a path or a command), shortened."""
    for key in _TELLING_ARGUMENTS:
        value = arguments.get(key)
        if isinstance(value, str) and value:
            break
    else:
        value = next((v for v in arguments.values() if isinstance(v, str)), "")
    first_line = value.splitlines()[0] if value else ""
    return first_line if len(first_line) <= width else first_line[: width - 1] + "…"


def human_tokens(n: int) -> str:
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.2f}M"


def human_duration(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


UNKNOWN_COST = "cost unknown"  # a model with no known price: never shown as $0.00


def cost_text(cost_usd: float | None, budget_usd: float) -> str:
    """`$0.0123`, or against a budget `$0.0123 / $0.5000`; `cost unknown` with no price."""
    if cost_usd is None:
        return UNKNOWN_COST
    digits = 2 if max(cost_usd, budget_usd) >= 1 else 4
    spent = f"${cost_usd:.{digits}f}"
    return f"{spent} / ${budget_usd:.{digits}f}" if budget_usd > 0 else spent


def cost_lines(
    model: str,
    steps: int,
    elapsed_s: float,
    usage: Usage,
    cost_usd: float | None,
    budget_usd: float,
) -> list[str]:
    """The /cost answer."""
    u = usage
    return [
        f"model {model or '?'}, {steps} steps, {human_duration(elapsed_s)}",
        f"input: {u.uncached_input} uncached, {u.cached_input} cached, "
        f"{u.cache_write} cache writes; output: {u.output}"
        + (f" ({u.reasoning} of it reasoning)" if u.reasoning else ""),
        f"cache-hit ratio {u.cache_hit_ratio:.0%}; spent {cost_text(cost_usd, budget_usd)}",
    ]


def format_usage(usage: Usage, cost_usd: float | None) -> str:
    """One line for people: `12.3k in (80% cached) · 1.2k out · $0.0123`."""
    parts = [f"{human_tokens(usage.prompt_total)} in"]
    if usage.prompt_total:
        parts[0] += f" ({usage.cache_hit_ratio:.0%} cached)"
    thought = f" ({human_tokens(usage.reasoning)} thinking)" if usage.reasoning else ""
    parts.append(f"{human_tokens(usage.output)} out{thought}")
    parts.append(UNKNOWN_COST if cost_usd is None else f"${cost_usd:.4f}")
    return " · ".join(parts)


def changed_paths(diff: str) -> list[str]:
    """Each file the diff touches, by its real name (git's quoting undone)."""
    from agent.vcs import patches  # here: the TUI's first frame imports this module

    return patches.changed_paths(diff)


def diff_stats(diff: str) -> dict[str, int]:
    lines = diff.splitlines()
    return {
        "files": len(re.findall(r"^diff --git ", diff, re.M)),
        "insertions": sum(1 for x in lines if x.startswith("+") and not x.startswith("+++")),
        "deletions": sum(1 for x in lines if x.startswith("-") and not x.startswith("---")),
    }


def lines_changed(diff: str) -> int:
    """Lines the diff adds and removes: how big a change is, to choose among attempts."""
    stats = diff_stats(diff)
    return stats["insertions"] + stats["deletions"]


# Files whose change alters how kiln or CI behaves next time: worth a second look.
_CONFIG_FILES = re.compile(
    r"^(\.kiln\.toml|\.mcp\.json|AGENTS\.md|KILN\.md|CLAUDE\.md|\.github/workflows/.+|"
    r"\.gitlab-ci\.yml|\.circleci/.+|\.ci/.+|Jenkinsfile|azure-pipelines\.yml|"
    r"\.pre-commit-config\.yaml|\.git(hooks|modules|attributes))$"
)


def config_files_in(paths: list[str]) -> list[str]:
    return [p for p in paths if _CONFIG_FILES.match(p)]


def flag_config(summary: str, paths: list[str]) -> str:
    """`summary`, with a warning when the change touches kiln's or CI's configuration."""
    touched = config_files_in(paths)
    return (
        f"{summary} (touches kiln's or CI's configuration: {', '.join(touched)})"
        if touched
        else summary
    )


def changes_summary(diff: str) -> str:
    return f"{diff_stats(diff)['files']} files"


def candidates_line(event: CandidatesTried) -> str:
    """`Tried 4 fixes: 1 passes; kept edit_file calc.py: return a + b`."""
    passes = f"{event.passing} pass{'es' if event.passing == 1 else ''}"
    none = (
        "; none kept, the model goes on" if event.first_try else "; none beat the model's own edit"
    )
    kept = f"; kept {event.chosen}" if event.chosen else none
    return f"Tried {event.tried} fixes: {passes}{kept}."


def subagent_started_line(event: SubagentStarted) -> str:
    """`agent explore (a1) started, read-only: where is the retry policy?`"""
    mode = ", read-only" if event.read_only else ""
    task = " ".join(event.task.split())
    task = task if len(task) <= 120 else task[:119] + "…"
    return f"agent {event.name} ({event.agent_id}) started{mode}: {task}"


def subagent_finished_line(event: SubagentFinished) -> str:
    """`agent explore (a1) done · 3 steps · 2,140 tokens · $0.0012 · 4.1s`, then the files
    its own diff changes."""
    tokens = event.usage.prompt_total + event.usage.output
    money = "price unknown" if event.cost_usd is None else f"${event.cost_usd:.4f}"
    files = event.files
    changed = f" · changed {', '.join(files[:3])}{' …' if len(files) > 3 else ''}" if files else ""
    return (
        f"agent {event.name} ({event.agent_id}) {event.status} · {event.steps} steps · "
        f"{tokens:,} tokens · {money} · {event.duration_s:.1f}s{changed}"
    )


def job_started_line(event: JobStarted) -> str:
    """`job 1 started: python3 -m http.server 8000`"""
    return f"job {event.job_id} started: {short_command(event.command)}"


def job_stopped_line(event: JobStopped) -> str:
    """`job 1 stopped by the model after 12s (exit 143): python3 -m http.server 8000`"""
    code = "" if event.exit_code is None else f" (exit {event.exit_code})"
    how = JOB_END_WORDS[event.ended]
    return (
        f"job {event.job_id} {how} after {duration(event.uptime_s)}{code}: "
        f"{short_command(event.command)}"
    )


JOB_END_WORDS = {
    JobEnd.EXITED: "exited",
    JobEnd.STOPPED: "stopped by the model",
    JobEnd.PERSON: "stopped by you",
    JobEnd.RUN_ENDED: "stopped at the end of the run",
    JobEnd.DISK: "stopped at the disk limit",
    JobEnd.LOST: "ended with its sandbox",
}


def short_command(command: str, most: int = 80) -> str:
    """A command on one line, cut to `most` characters."""
    line = " ".join(command.split())
    return line if len(line) <= most else line[: most - 1] + "…"


def duration(seconds: float) -> str:
    """`12s`, `4m05s`, `2h03m`: how long something ran."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


# What each shape of task means for the run, in the words every front end shows.
SHAPE_WORDS = {
    TaskShape.CHANGE: "a change to make: done once a test shows it works",
    TaskShape.QUESTION: "a question: the answer is the result, no change and no tests",
}


def denied_line(event: ActionDenied) -> str:
    """One line for an action a permission rule refused."""
    return f"refused by your rule {event.rule}: {event.summary}"


def hook_line(event: HookRan) -> str:
    """One line for a hook's run: what ran, at which point, and what came of it."""
    on = f" ({event.tool})" if event.tool else ""
    said = f": {event.message}" if event.message else ""
    where = " in the sandbox" if event.in_sandbox else ""
    return f"hook {event.hook_event}{on} `{event.command}`{where} {event.outcome}{said}"


def shape_line(event: TaskShaped) -> str:
    """`Task: a question: the answer is the result, no change and no tests.`"""
    return f"Task: {SHAPE_WORDS.get(event.shape, event.shape.value)}."


def compacted_line(event: Compacted) -> str:
    """One line for a compaction, the same in every front end."""
    what = "old tool outputs shortened" if event.tier == 1 else "older turns summarised"
    return (
        f"Compacted the conversation ({what}: {event.compacted} messages): "
        f"{human_tokens(event.tokens_before)} -> {human_tokens(event.tokens_after)} tokens of "
        f"a {human_tokens(event.window)} window; kept word for word: {', '.join(event.kept)}."
    )


def usage_dict(usage: Usage) -> dict[str, int]:
    """Usage as the JSON of `kiln run` and `kiln review` names it."""
    return {
        "uncached_input_tokens": usage.uncached_input,
        "cached_input_tokens": usage.cached_input,
        "cache_write_tokens": usage.cache_write,
        "output_tokens": usage.output,
        "reasoning_tokens": usage.reasoning,
    }


# C0 controls (ESC, BEL, a lone CR, backspace...), DEL and C1 (U+0080-U+009F, where CSI
# and OSC have one-character forms): a terminal obeys them, so text kiln did not write
# could clear the screen, set the title or hide what it prints. Tab and newline stay in
# text of many lines, and the CR of a CRLF ending.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")
_CONTROLS_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def escape_controls(text: str, *, one_line: bool = False) -> str:
    """`text` from a model, a repository, a stored session or a hook, safe to print on a
    terminal: each control character as a visible escape (`\\x1b`); with `one_line`, tabs
    and line breaks too (a table's cell)."""
    pattern = _CONTROLS_ONE_LINE if one_line else _CONTROLS
    return pattern.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
