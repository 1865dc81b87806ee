"""Which test command runs: one that exists in the sandbox, or the one the task names."""

from __future__ import annotations

from pathlib import Path

from agent import events as ev
from agent.approval import Mode
from agent.events import Notice
from agent.tools.testdigest import candidate_test_commands, named_test_command
from tests.conftest import make_git_repo
from tests.scripted import BUGGY_REPO, run_scripted

FINISH = [{"tool_calls": [{"name": "finish", "arguments": {"summary": "looked"}}]}]


def test_a_task_names_its_test_command() -> None:
    assert named_test_command("The tests fail (`python3 -m unittest`): fix it.") == (
        "python3 -m unittest"
    )
    assert named_test_command("Fix add. run: python3 -m unittest -q") == "python3 -m unittest -q"
    assert named_test_command("Use `ls` and `git log`, then fix calc.py.") == ""


def test_every_candidate_in_order(tmp_path: Path) -> None:
    repo = make_git_repo(
        tmp_path / "r", {**BUGGY_REPO, "Makefile": "test:\n\tpython3 -m unittest\n"}
    )
    assert candidate_test_commands(repo) == ["make test", "python3 -m unittest discover -v"]


async def test_a_command_missing_in_the_sandbox_gives_way_to_the_next(
    docker_ready: None, tmp_path: Path
) -> None:
    # The default image has no Go: kiln sees that before the first request and uses unittest.
    repo = make_git_repo(tmp_path / "r", {**BUGGY_REPO, "go.mod": "module m\n"})
    events, _, server = await run_scripted(repo, FINISH, mode=Mode.AUTO_EDIT)
    notes = [e.message for e in events if isinstance(e, Notice)]
    assert any("`go test ./...` cannot run in the sandbox" in n for n in notes), notes
    # finish with nothing run yet: kiln runs the tests itself, with the command it chose
    [ran] = [e for e in events if isinstance(e, ev.TestsRan)]
    assert ran.command == "python3 -m unittest discover -v" and ran.failed == 1
    system = server.chat_requests[0].body["messages"][0]["content"]
    assert "Test command: `python3 -m unittest discover -v`" in system


async def test_the_command_the_task_names_is_the_one_that_runs(
    docker_ready: None, buggy_repo: Path
) -> None:
    task = "The unit tests fail (`python3 -m unittest -q`): fix add."
    events, _, server = await run_scripted(buggy_repo, FINISH, task, mode=Mode.AUTO_EDIT)
    notes = [e.message for e in events if isinstance(e, Notice)]
    assert any("names the test command `python3 -m unittest -q`" in n for n in notes), notes
    [ran] = [e for e in events if isinstance(e, ev.TestsRan)]
    assert ran.command == "python3 -m unittest -q" and ran.failed == 1
    system = server.chat_requests[0].body["messages"][0]["content"]
    assert "Test command: `python3 -m unittest -q`" in system


async def test_no_runnable_command_is_one_sentence(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "r", {"main.go": "package main\n", "go.mod": "module m\n"})
    note = {"name": "write_file", "arguments": {"path": "NOTES.md", "content": "looked\n"}}
    script = [{"tool_calls": [note]}, *FINISH]  # a change: finish with none is refused
    events, session, _ = await run_scripted(repo, script, mode=Mode.AUTO_EDIT)
    notes = [e.message for e in events if isinstance(e, Notice)]
    assert any("`go test ./...` cannot run in the sandbox" in n for n in notes), notes
    assert session.test_command == "" and not [e for e in events if isinstance(e, ev.TestsRan)]
    assert (
        events[-1].stop_reason.value == "done"
    )  # finish is not refused over tests that cannot run
