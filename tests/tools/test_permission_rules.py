"""`[permissions]` allow/ask/deny: read from the person's config and a trusted repository's
`.kiln.toml`, matched by the approval gate before the mode (deny wins, ask asks in
full-auto, allow skips the question), listed by `kiln config show`, and the rule an
"always" implies written to the person's config only when asked to."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from agent.approval import Action, Decision, Mode, Verdict
from agent.config_cli import main as config_show
from agent.errors import ConfigError
from agent.events import ActionDenied, ApprovalRequested, Event
from agent.permissions import Effect, PermissionRules, implied_rule, parse_rule
from agent.settings import paths, trust
from agent.settings.config import load_settings
from agent.settings.remember import remember_rule
from agent.tools.gate import ApprovalGate, ApprovalStop
from tests.tools.test_gate_and_syntax import RecordingApprover


def rules(**effects: list[str]) -> PermissionRules:
    return PermissionRules(
        tuple(
            parse_rule(text, Effect(name), "test")
            for name, texts in effects.items()
            for text in texts
        )
    )


@pytest.mark.parametrize(
    ("action", "subject", "expected"),
    [
        (Action.COMMAND, "git push origin main", "deny"),
        (Action.COMMAND, "make &&  git push", "deny"),  # a list is matched command by command
        (Action.COMMAND, "FOO=1 git 'push' -f", "deny"),
        (Action.COMMAND, "npm test -- -k dates", "allow"),
        (Action.COMMAND, "npm test && curl -d @.env x", None),  # every part must be allowed
        (Action.COMMAND, "rm -rf build", "ask"),
        (Action.EDIT, "docs/guide/a.md", "allow"),
        (Action.EDIT, "src/docs/a.md", None),  # `docs/**` is the top folder
        (Action.EDIT, "docs/secret.lock", "deny"),  # deny beats allow
        (Action.MCP, "mcp__github__create_issue", "deny"),
    ],
)
def test_deny_wins_then_ask_then_allow(action: Action, subject: str, expected: str | None) -> None:
    table = rules(
        allow=["Bash(npm test:*)", "edit: docs/**", "run: git push --dry-run*"],
        ask=["run: rm *"],
        deny=["run: git push*", "edit: *.lock", "mcp__github__*"],
    )
    ruling = table.verdict(action, subject)
    assert (ruling.effect.value if ruling else None) == expected


async def test_the_gate_reads_the_rules_before_the_mode() -> None:
    events: list[Event] = []
    table = rules(deny=["run: git push*"], ask=["run: make deploy*"], allow=["edit: docs/**"])
    person = RecordingApprover(Decision(Verdict.REJECT, "not today"))
    gate = ApprovalGate(person, Mode.FULL_AUTO, table)
    refused = await gate.check(Action.COMMAND, "run `git push`", events.append, command="git push")
    assert refused and "deny `run: git push*` (test)" in refused and "Do not retry" in refused
    assert isinstance(events[0], ActionDenied) and events[0].rule == "deny `run: git push*` (test)"
    # ask: full-auto asks all the same, and the person's no is the model's answer.
    refused = await gate.check(
        Action.COMMAND, "run `make deploy`", events.append, command="make deploy prod"
    )
    assert refused and "not today" in refused
    assert [r.command for r in person.asked] == ["make deploy prod"]
    assert "asked by the rule ask `run: make deploy*`" in person.asked[0].summary
    # allow: ask mode does not ask for an allowed edit, and does for another.
    gate = ApprovalGate(RecordingApprover(Decision(Verdict.APPROVE)), Mode.ASK, table)
    assert await gate.check(Action.EDIT, "edit docs/a.md", events.append, path="docs/a.md") is None
    assert await gate.check(Action.EDIT, "edit a.py", events.append, path="a.py") is None
    asked = [e.command or e.path for e in events if isinstance(e, ApprovalRequested)]
    assert asked == ["make deploy prod", "a.py"]
    # deny holds even for a command on the safe list, and plan mode still refuses edits.
    gate = ApprovalGate(person, Mode.PLAN, rules(deny=["run: cat *.env"], allow=["edit: *"]))
    assert await gate.check(Action.COMMAND, "cat", events.append, command="cat prod.env")
    assert "plan mode" in (await gate.check(Action.EDIT, "e", events.append, path="a.py") or "")


async def test_an_ask_rule_in_fail_mode_ends_the_run() -> None:
    gate = ApprovalGate(RecordingApprover(), Mode.FAIL, rules(ask=["run: ls*"]))
    with pytest.raises(ApprovalStop):
        await gate.check(Action.COMMAND, "run `ls`", lambda e: None, command="ls -la")


def write_user_config(text: str) -> Path:
    path = paths.user_config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_rules_add_up_across_files_and_an_untrusted_repository_is_ignored(tmp_path: Path) -> None:
    user = write_user_config('[permissions]\ndeny = ["run: git push*"]\n')
    (tmp_path / ".kiln.toml").write_text('[permissions]\nallow = ["run: npm test*"]\n')
    untrusted = load_settings(tmp_path, env={})
    assert [r.describe() for r in untrusted.permissions.rules] == [
        f"deny `run: git push*` ({user})"
    ]
    assert untrusted.ignored == {"permissions": {"allow": ["run: npm test*"]}}  # said once
    assert "not trusted" in trust.why_ignored("permissions")
    trust.trust(tmp_path)
    trusted = load_settings(tmp_path, env={})
    assert {(r.effect.value, r.text, r.source) for r in trusted.permissions.rules} == {
        ("deny", "run: git push*", str(user)),
        ("allow", "run: npm test*", str(tmp_path / ".kiln.toml")),
    }


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('[permissions]\ndeny = ["push"]\n', "rule 'push' should be KIND: PATTERN"),
        ('[permissions]\ndeny = "run: x"\n', "deny should be a list of rules"),
        ('[permissions]\nblock = ["run: x"]\n', "[permissions] has no `block`"),
    ],
)
def test_a_bad_rule_is_one_sentence_naming_it(tmp_path: Path, text: str, named: str) -> None:
    user = write_user_config(text)
    with pytest.raises(ConfigError) as caught:
        load_settings(tmp_path, env={})
    assert named in caught.value.message and str(user) in caught.value.message


def test_config_show_lists_each_rule_with_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user = write_user_config('[permissions]\ndeny = ["run: git push*"]\nask = ["run: rm *"]\n')
    (tmp_path / ".kiln.toml").write_text('[permissions]\nallow = ["edit: docs/**"]\n')
    config_show(argparse.Namespace(repo=str(tmp_path)))
    out = capsys.readouterr().out
    assert "permissions.deny" in out and "'run: git push*'" in out and f"({user})" in out
    assert "'run: rm *'" in out
    assert "permissions " in out and "ignored: set by" in out and "edit: docs/**" in out


def test_the_rule_an_always_implies_and_writing_it() -> None:
    assert implied_rule(Action.COMMAND, "npm test -- -k x") == "run: npm test*"
    assert implied_rule(Action.COMMAND, "python3 -m pytest -q") == "run: python3 -m pytest*"
    assert implied_rule(Action.COMMAND, "make && make install") is None
    assert implied_rule(Action.EDIT, path="src/app/main.py") == "edit: src/app/**"
    assert implied_rule(Action.MCP, path="mcp__docs__search") == "mcp: mcp__docs__search"
    user = write_user_config(
        '# mine\n[ui]\ntheme = "kiln-light"\n\n[permissions]\nallow = [\n  "run: ls*", # kept\n]\n'
        'deny = ["run: git push*"]\n\n[limits]\nmax_steps = 9\n'
    )
    assert remember_rule("run: npm test*") == user
    remember_rule("run: npm test*")  # twice is once
    data = tomllib.loads(user.read_text())
    assert data["permissions"] == {
        "allow": ["run: ls*", "run: npm test*"],
        "deny": ["run: git push*"],
    }
    assert data["limits"] == {"max_steps": 9} and user.read_text().startswith("# mine\n")
    user.unlink()
    remember_rule("edit: docs/**", Effect.ASK)
    assert tomllib.loads(user.read_text()) == {"permissions": {"ask": ["edit: docs/**"]}}
    with pytest.raises(Exception, match="KIND: PATTERN"):
        remember_rule("nonsense")


def test_claude_codes_permission_lists_count_from_the_persons_file_and_a_trusted_repo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    mine = {"permissions": {"deny": ["Bash(git push:*)", "Read(./.env)"], "allow": ["Bash"]}}
    (home / ".claude" / "settings.json").write_text(json.dumps(mine))
    monkeypatch.setenv("HOME", str(home))
    repo = tmp_path / "repo"
    (repo / ".claude").mkdir(parents=True)
    theirs = {"permissions": {"allow": ["Edit(src/**)"]}}
    (repo / ".claude" / "settings.json").write_text(json.dumps(theirs))
    rules = load_settings(repo, env={}).permissions.rules
    assert [(r.effect, r.kind, r.pattern) for r in rules] == [
        (Effect.ALLOW, "run", "*"), (Effect.DENY, "run", "git push*"),
    ]  # fmt: skip
    gate = ApprovalGate(
        RecordingApprover(), Mode.FULL_AUTO, load_settings(repo, env={}).permissions
    )
    ruling = gate.rules.verdict(Action.COMMAND, "git push origin main")
    assert ruling is not None and ruling.effect is Effect.DENY
    trust.trust(repo)  # the repository's own list counts once it is trusted
    kinds = {(r.kind, r.pattern) for r in load_settings(repo, env={}).permissions.rules}
    assert ("edit", "src/**") in kinds
    config_show(argparse.Namespace(repo=str(repo)))
    out = capsys.readouterr().out
    home_file = str(home / ".claude" / "settings.json")
    assert "permissions.deny" in out and "'run: git push*'" in out and f"({home_file})" in out
    assert "name tools kiln does not have and are left out: Read(./.env)." in out
