"""Text kiln did not write (a task, a model's reply, a tool's output, a skill's name, a
finding) reaches a terminal with its control characters shown as escapes: a stored task
holding `ESC ] 0 ; pwned BEL ESC [ 2 J` would set the title and clear the screen."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from agent.approval import Mode
from agent.batch.progress import Progress
from agent.event_values import Level, RunStatus, StopReason
from agent.events import (
    AssistantMessage,
    Finished,
    Notice,
    SessionStarted,
    TextDelta,
    ToolCallFinished,
)
from agent.present import escape_controls
from agent.review.formats import as_markdown, as_text
from agent.review.reviewer import ReviewResult
from agent.review.target import Target
from agent.settings import paths
from agent.store.db import Store
from tests.conftest import make_git_repo
from tui.line_render import LineRenderer
from tui.meter_state import MeterState

KILN = str(Path(sys.executable).parent / "kiln")
HOSTILE = "fix \x1b]0;pwned\x07\x1b[2J it\x9b2J\rdone"
# What the terminal must never receive from such text: ESC, BEL, CSI and a lone CR.
RAW = ("\x1b", "\x07", "\x9b", "\r")


def _has_none_of_it(text: str) -> bool:
    return not any(raw in text for raw in RAW)


def _kiln(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([KILN, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done


def test_the_helper_shows_controls_and_keeps_lines() -> None:
    shown = escape_controls(HOSTILE + "\nnext\tline\r\n")
    assert shown == "fix \\x1b]0;pwned\\x07\\x1b[2J it\\x9b2J\\x0ddone\nnext\tline\r\n"
    assert escape_controls("a\nb\tc\x7f", one_line=True) == "a\\x0ab\\x09c\\x7f"


@pytest.fixture
def stored(tmp_path: Path) -> str:
    """A stored session whose task, reply, tool output and summary are hostile."""
    store = Store()
    session_id = "c0ffee000001"
    store.record(session_id, SessionStarted(session_id, str(tmp_path), HOSTILE, "m", Mode.ASK))
    store.record(session_id, AssistantMessage(HOSTILE))
    store.record(session_id, ToolCallFinished("c1", "run", False, HOSTILE, 0.1, 1))
    store.record(session_id, Finished(RunStatus.DONE, StopReason.DONE, HOSTILE))
    store.close()
    return session_id


def test_sessions_list_show_and_cost_print_no_control_character(stored: str) -> None:
    listed = _kiln("sessions", "list").stdout
    assert stored in listed and "\\x1b]0;pwned\\x07\\x1b[2J" in listed
    assert _has_none_of_it(listed)
    for args in (("sessions", "show", stored), ("cost", "--session", stored)):
        shown = _kiln(*args).stdout
        assert "pwned" in shown and _has_none_of_it(shown), args
    export = _kiln("sessions", "export", stored).stdout  # JSON stays JSON: escaped by it
    assert "\\u001b]0;pwned\\u0007" in export and _has_none_of_it(export)


def test_config_show_escapes_skill_and_command_names(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    skill = repo / ".kiln" / "skills" / "style"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(f"---\nname: {HOSTILE[:-5]}\ndescription: d\n---\nbody\n")
    commands = paths.config_dir() / "commands"
    commands.mkdir(parents=True)
    (commands / "go\x1b[2J.md").write_text("Do it.\n")
    shown = _kiln("config", "show", "--repo", str(repo)).stdout
    assert "\\x1b]0;pwned\\x07" in shown and "go\\x1b[2J" in shown
    assert _has_none_of_it(shown)


def test_line_mode_prints_the_models_text_escaped() -> None:
    out = io.StringIO()
    # A terminal console: rich writes its own styles (ESC [ ... m), never the model's.
    renderer = LineRenderer(Console(file=out, force_terminal=True, width=200), MeterState())
    for event in (
        TextDelta(HOSTILE),
        AssistantMessage(HOSTILE),
        ToolCallFinished("c1", "run", False, HOSTILE, 0.1, 1),
        Notice(HOSTILE, Level.WARNING),
        Finished(RunStatus.DONE, StopReason.DONE, HOSTILE),
    ):
        renderer.show(event)
    renderer.pause()
    printed = out.getvalue()
    assert printed.count("pwned") >= 3  # the streamed reply, the notice, the summary
    for raw in ("\x1b]0;", "\x07", "\x1b[2J", "\x9b", "\rdone"):
        assert raw not in printed, repr(raw)


def test_review_text_and_markdown_escape_findings_and_titles() -> None:
    target = Target("HEAD", "a" * 40, "b" * 40, "", title=HOSTILE)
    result = ReviewResult(target, "incorrect", HOSTILE, [], notes=[HOSTILE])
    for text in (as_text(result), as_markdown(result)):
        assert "pwned" in text and _has_none_of_it(text)


def test_batch_progress_escapes_a_tasks_summary() -> None:
    err, out = io.StringIO(), io.StringIO()
    progress = Progress(err, out, json_lines=False, budget_usd=0.0)
    progress.begin(1, 0, 0.0)
    progress.started("t1", 0.0)
    record = {"id": "t1", "status": "error", "stop_reason": "model_error",
              "duration_s": 1.0, "cost_usd": 0.0, "attempt": 1, "summary": HOSTILE}  # fmt: skip
    progress.finished(record, 0.0)
    assert "pwned" in err.getvalue() and _has_none_of_it(err.getvalue())
