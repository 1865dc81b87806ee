"""Which test command runs: one that exists in the sandbox, or the one the task names."""

from __future__ import annotations

from pathlib import Path

from agent import events as ev
from agent.approval import Mode
from agent.events import Notice
from agent.llm.scripted.server import ScriptedServer
from agent.prompts.window import Window
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


# Rules long enough that the system prompt fills more than a quarter of a 16k window's room:
# the server's tokenizer counts it before it is sent.
LONG_RULES = {"AGENTS.md": "Keep every function short and name it for what it does.\n" * 200}
NEAR_THE_WINDOW = {"context_window": 16384, "turns": FINISH}


async def test_a_command_missing_in_the_sandbox_gives_way_to_the_next(
    docker_ready: None, tmp_path: Path
) -> None:
    # The default image has no Go: kiln sees that before the first request and uses unittest.
    repo = make_git_repo(tmp_path / "r", {**BUGGY_REPO, "go.mod": "module m\n", **LONG_RULES})
    events, _, server = await run_scripted(repo, NEAR_THE_WINDOW, mode=Mode.AUTO_EDIT)
    notes = [e.message for e in events if isinstance(e, Notice)]
    assert any("`go test ./...` cannot run in the sandbox" in n for n in notes), notes
    # The baseline run started beside the check, of the command it replaced, says nothing.
    assert not any("does not run in the sandbox" in n for n in notes), notes
    # finish with nothing run yet: kiln runs the tests itself, with the command it chose
    [ran] = [e for e in events if isinstance(e, ev.TestsRan)]
    assert ran.command == "python3 -m unittest discover -v" and ran.failed == 1
    system = server.chat_requests[0].body["messages"][0]["content"]
    assert "Test command: `python3 -m unittest discover -v`" in system
    # The window was calibrated on the prompt sent (counted again once the command changed),
    # before it was sent.
    assert _counted_before_the_first_request(server) == [
        system.replace("python3 -m unittest discover -v", "go test ./..."),
        system,
    ]


async def test_a_prompt_near_the_window_is_counted_once_before_it_is_sent(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "r", {**BUGGY_REPO, **LONG_RULES})
    _, session, server = await run_scripted(repo, NEAR_THE_WINDOW, mode=Mode.AUTO_EDIT)
    system = server.chat_requests[0].body["messages"][0]["content"]
    assert _counted_before_the_first_request(server) == [system]
    assert session._deps is not None
    assert session._deps.window.chars_per_token != Window().chars_per_token  # calibrated


async def test_a_prompt_far_from_the_window_is_sent_without_a_count(
    docker_ready: None, buggy_repo: Path
) -> None:
    """The first reply's own count calibrates the estimate; asking the tokenizer first
    would only make the first request wait."""
    _, _, server = await run_scripted(buggy_repo, FINISH, mode=Mode.AUTO_EDIT)
    assert not [r for r in server.requests if r.path == "/tokenize"]


def _counted_before_the_first_request(server: ScriptedServer) -> list[str]:
    """The texts the server was asked to count (/tokenize) before the first chat request."""
    counted = []
    for request in server.requests:
        if request.path == "/tokenize":
            counted.append(request.body["content"])
        elif request.path.endswith("/chat/completions"):
            break
    return counted


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


async def test_sessions_sharing_baselines_run_each_command_once(
    docker_ready: None, tmp_path: Path
) -> None:
    """The attempts of `kiln run --attempts` start from one untouched tree: the first runs
    the baseline, the others take its digest (a run leaves a mark in its own workspace)."""
    import asyncio

    from agent.session.baseline import SharedBaselines, TestCommand
    from agent.settings.config import Settings, TestsSettings
    from sandbox.base import SandboxConfig
    from sandbox.factory import create_sandbox

    repo = make_git_repo(tmp_path / "r", BUGGY_REPO)
    marked = "echo ran > ran.txt; python3 -m unittest discover -v"
    settings = Settings(tests=TestsSettings(command=marked))
    shared: SharedBaselines = {}
    boxes = [
        create_sandbox(repo, SandboxConfig(backend="docker", state_dir=tmp_path / f"s{k}"))
        for k in range(3)
    ]
    try:
        await asyncio.gather(*(box.start() for box in boxes))
        commands = [TestCommand(repo, settings, True, print, shared) for _ in boxes]
        for command, box in zip(commands, boxes, strict=True):
            command.start_baseline(box)
        digests = [await command.digest() for command in commands]
        marks = [(await box.exec("cat ran.txt 2>/dev/null")).output for box in boxes]
    finally:
        await asyncio.gather(*(box.close() for box in boxes))
    assert marks == ["ran\n", "", ""]
    assert all(d is not None and d.failed == 1 for d in digests)
