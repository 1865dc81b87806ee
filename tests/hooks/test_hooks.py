"""Hooks as the runner sees them: real processes on the host, JSON on stdin, the answer by
exit code or by Claude Code's JSON; reading `[hooks]` and `.claude/settings.json`; a
repository's hooks honoured only when trusted, and listed by `kiln config show`."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import pytest

from agent.config_cli import main as config_show
from agent.errors import ConfigError
from agent.events import Event, HookRan
from agent.hooks.config import Hook, HookEvent, hooks_of
from agent.hooks.load import session_hooks
from agent.hooks.runner import HookRunner
from agent.settings import paths, trust
from agent.settings.config import load_settings


def runner(tmp_path: Path, *hooks: Hook) -> HookRunner:
    return HookRunner(hooks, tmp_path, "s1", dict(os.environ))


def pre(command: str, matcher: str = "", timeout: float = 10) -> Hook:
    return Hook(HookEvent.PRE_TOOL_USE, command, matcher, timeout, "test")


async def test_exit_codes_and_json_answers(tmp_path: Path) -> None:
    events: list[Event] = []
    args = {"command": "git push"}
    allow = runner(tmp_path, pre("cat > stdin.json; exit 0"))
    assert await allow.before_tool("run", args, events.append) is None
    sent = json.loads((tmp_path / "stdin.json").read_text())
    assert sent["tool_input"] == args and sent["hook_event_name"] == "PreToolUse"
    deny = {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}
    said = runner(tmp_path, pre(f"echo '{json.dumps(deny)}'"))
    assert await said.before_tool("run", args, events.append) == (
        "Blocked by a PreToolUse hook: no Do not retry it unchanged."
    )
    block = runner(tmp_path, pre("""echo '{"decision": "block", "reason": "later"}'"""))
    assert "later" in (await block.before_tool("run", args, events.append) or "")
    # A matcher for another tool: the hook does not run at all.
    other = runner(tmp_path, pre("exit 2", matcher="Edit|Write"))
    assert await other.before_tool("run", args, events.append) is None
    assert await other.before_tool("edit_file", {"path": "a"}, events.append) is not None
    assert [e.outcome for e in events if isinstance(e, HookRan)] == [
        "allowed", "blocked", "blocked", "blocked",
    ]  # fmt: skip


async def test_a_hook_over_its_timeout_is_stopped_and_blocks(tmp_path: Path) -> None:
    events: list[Event] = []
    slow = runner(tmp_path, pre("sleep 30", timeout=0.5))
    started = time.monotonic()
    refusal = await slow.before_tool("run", {"command": "ls"}, events.append)
    assert time.monotonic() - started < 5
    assert refusal and "ran over its timeout of 0.5 s and was stopped" in refusal
    [ran] = events
    assert isinstance(ran, HookRan) and ran.outcome == "failed" and ran.exit_code is None


async def test_a_deny_of_any_length_denies_and_is_shown_cut(tmp_path: Path) -> None:
    reason = "no pushing " + "x" * 200_000
    answer = {
        "hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": reason}
    }
    (tmp_path / "deny.json").write_text(json.dumps(answer))
    events: list[Event] = []
    refusal = await runner(tmp_path, pre("cat deny.json")).before_tool("run", {}, events.append)
    assert refusal and refusal.startswith("Blocked by a PreToolUse hook: no pushing xxx")
    assert "more characters]" in refusal and len(refusal) < 2_200  # cut for the model


async def test_a_hook_printing_more_than_kiln_reads_blocks_and_is_never_held_whole(
    tmp_path: Path,
) -> None:
    import resource

    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    events: list[Event] = []
    for stream in ("", " >&2"):  # stdout, then stderr
        flood = runner(tmp_path, pre(f"head -c 300000000 /dev/zero{stream}; exit 0"))
        refusal = await flood.before_tool("run", {}, events.append)
        assert refusal and "printed more than 1 MB, and was stopped there unread" in refusal
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before
    assert grown < 50_000, f"the peak grew by {grown} KiB"  # 300 MB were printed, twice
    assert [e.outcome for e in events if isinstance(e, HookRan)] == ["failed", "failed"]


async def test_post_tool_use_adds_to_the_result(tmp_path: Path) -> None:
    post = Hook(HookEvent.POST_TOOL_USE, "echo 'lint: 2 warnings' >&2; exit 2", "", 10, "t")
    context = Hook(
        HookEvent.POST_TOOL_USE,
        """echo '{"hookSpecificOutput": {"additionalContext": "formatted"}}'""",
        "",
        10,
        "t",
    )
    added = await runner(tmp_path, context, post).after_tool("edit_file", {}, True, "ok", print)
    assert added == "[PostToolUse hook: lint: 2 warnings]\n[hook context: formatted]"


def test_both_shapes_are_read_and_a_mistake_is_one_sentence() -> None:
    kiln = hooks_of({"PreToolUse": [{"matcher": "run", "command": "x", "timeout": 5}]}, "a")
    claude = hooks_of({"Stop": [{"hooks": [{"type": "command", "command": "y"}]}]}, "b")
    assert kiln == (Hook(HookEvent.PRE_TOOL_USE, "x", "run", 5.0, "a"),)
    assert claude == (Hook(HookEvent.STOP, "y", "", 60.0, "b"),)
    with pytest.raises(ConfigError, match="no event 'PreCompact'; kiln has PreToolUse"):
        hooks_of({"PreCompact": [{"command": "z"}]}, "c")
    with pytest.raises(ConfigError, match="`timeout` should be a number"):
        hooks_of({"Stop": [{"command": "z", "timeout": "soon"}]}, "c")


def test_a_repository_s_hooks_wait_for_trust_and_config_show_lists_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user = paths.user_config_file()
    user.parent.mkdir(parents=True)
    user.write_text('[[hooks.Stop]]\ncommand = "notify-send done"\n')
    (tmp_path / ".kiln.toml").write_text('[[hooks.PreToolUse]]\ncommand = "./guard.sh"\n')
    (tmp_path / "guard.sh").write_text("exit 0\n")
    (tmp_path / ".claude").mkdir()
    claude = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "./c.sh"}]}]}}
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(claude))
    settings = load_settings(tmp_path, env={})
    hooks, notes = session_hooks(settings, tmp_path)
    assert [h.command for h in hooks] == ["notify-send done"] and "hooks" in settings.ignored
    assert notes == []  # what an untrusted repository would run is named in one sentence:
    said = trust.ignored_runs(tmp_path, settings.ignored)
    assert said and "hooks in .kiln.toml" in said and "the hooks in .claude/settings.json" in said

    trust.trust(tmp_path)
    hooks, notes = session_hooks(load_settings(tmp_path, env={}), tmp_path)
    # The person's own first, on the host; the repository's after them, in the sandbox.
    assert [(h.command, h.in_sandbox) for h in hooks] == [
        ("notify-send done", False), ("./guard.sh", True), ("./c.sh", True),
    ]  # fmt: skip
    assert notes == []
    config_show(argparse.Namespace(repo=str(tmp_path)))
    out = capsys.readouterr().out
    assert "'Stop: notify-send done'" in out and f"({user})" in out
    assert "'PreToolUse [Bash]: ./c.sh (in the sandbox)'" in out

    (tmp_path / "guard.sh").write_text("exit 0  # changed\n")  # what the hook runs changed
    changed = load_settings(tmp_path, env={})
    assert "hooks" in changed.ignored and [h.command for h in changed.hooks] == ["notify-send done"]


def test_the_persons_own_claude_code_hooks_run_without_trust(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    mine = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}
    (home / ".claude" / "settings.json").write_text(json.dumps(mine))
    monkeypatch.setenv("HOME", str(home))
    repo = tmp_path / "repo"
    (repo / ".claude").mkdir(parents=True)
    theirs = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./theirs.sh"}]}]}}
    (repo / ".claude" / "settings.json").write_text(json.dumps(theirs))
    hooks, notes = session_hooks(load_settings(repo, env={}), repo)
    assert [h.command for h in hooks] == ["notify-send done"]  # the repository's waits
    assert str(home / ".claude" / "settings.json") in hooks[0].source
    assert notes == [] and "the hooks in .claude/settings.json" in str(trust.ignored_runs(repo, {}))
    (home / ".claude" / "settings.json").write_text("{not json")
    hooks, notes = session_hooks(load_settings(repo, env={}), repo)
    assert hooks == () and "Its hooks do not run." in notes[0]


def test_a_repository_s_hooks_run_on_the_host_only_as_the_person_chose_and_until_an_apply(
    tmp_path: Path,
) -> None:
    (tmp_path / ".kiln.toml").write_text('[[hooks.Stop]]\ncommand = "make -s check"\n')
    trust.trust(tmp_path)
    [hook], _ = session_hooks(load_settings(tmp_path, env={}), tmp_path)
    assert hook.in_sandbox  # trusted: in the sandbox

    trust.trust(tmp_path, on_host=True)  # `kiln trust --hooks-on-host`, the person's word
    [hook], notes = session_hooks(load_settings(tmp_path, env={}), tmp_path)
    assert not hook.in_sandbox and notes == []

    assert trust.suspend(tmp_path) and not trust.suspend(tmp_path)  # an apply; said once
    hooks, notes = session_hooks(load_settings(tmp_path, env={}), tmp_path)
    assert hooks == () and "wait until you read them" in notes[0]
    trust.trust(tmp_path)  # plain trust again: back in the sandbox
    [hook], _ = session_hooks(load_settings(tmp_path, env={}), tmp_path)
    assert hook.in_sandbox
