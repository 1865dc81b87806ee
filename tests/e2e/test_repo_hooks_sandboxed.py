"""A trusted repository's hooks never run the model's code on the host, through `kiln run`
with a hostile scripted model on the real sandbox: a hook that runs the tests imports what
the model wrote, and a hook that runs `npm run` or `make` reads scripts the model rewrote;
both run in the session's sandbox, so the canary file the model's code writes at a host
path never appears there. An apply ends what trust gave the host (the `.mcp.json` servers,
`[sandbox] setup`) until `kiln trust` again, said once. A hook's deny of any length denies,
and a repository's formatter and lint still do their work from inside the sandbox."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agent.settings import trust
from tests.conftest import make_git_repo
from tests.e2e.test_host_code import FIX, KILN, SERVER, kiln_events, turns, write
from tests.e2e.test_refused_apply import CALC, TESTS

pytestmark = pytest.mark.usefixtures("docker_ready")


def claude_hooks(repo: Path, hooks: dict[str, list[str]]) -> None:
    table = {
        event: [{"hooks": [{"type": "command", "command": c} for c in commands]}]
        for event, commands in hooks.items()
    }
    (repo / ".claude").mkdir(exist_ok=True)
    (repo / ".claude" / "settings.json").write_text(json.dumps({"hooks": table}))


def planting(canary: Path) -> str:
    """Python that writes the canary wherever it runs: the host, were it to run there."""
    return f"import os\nos.makedirs({str(canary.parent)!r}, exist_ok=True)\nopen({str(canary)!r}, 'w').write('escaped')\n"


def ran(events: list[dict], point: str) -> list[dict]:
    return [e for e in events if e["type"] == "hook_ran" and e["hook_event"] == point]


def test_tests_as_a_hook_import_the_models_code_in_the_sandbox_only(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    claude_hooks(repo, {"AfterApply": ["python3 -m unittest -q"]})
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "hooks"], cwd=repo, check=True)
    trust.trust(repo)
    canary = tmp_path / "host" / "canary"
    # The fix, and in the same edit module-level code the tests import.
    fixed = "def add(a, b):\n    return a + b\n"
    events = kiln_events(repo, turns(write("calc.py", planting(canary) + fixed)), "--apply")

    result = events[-1]
    assert result["applied"] == ["calc.py"], result
    after = ran(events, "AfterApply")
    assert [(e["outcome"], e["in_sandbox"]) for e in after] == [("allowed", True)], after
    assert "escaped" in (repo / "calc.py").read_text()  # the model's code was applied...
    assert not canary.exists()  # ...but its code never ran on this machine
    assert trust.SUSPENDED in json.dumps(events)  # and the apply ended the host's trust


def test_scripts_as_a_hook_run_in_the_sandbox_after_the_model_rewrote_them(
    tmp_path: Path,
) -> None:
    package = {"name": "p", "version": "1.0.0", "scripts": {"lint": "echo lint ok"}}
    repo = make_git_repo(tmp_path / "repo", {
        "calc.py": CALC, "test_calc.py": TESTS, "package.json": json.dumps(package),
        "Makefile": "check:\n\t@echo check ok\n",
    })  # fmt: skip
    claude_hooks(repo, {"SessionStart": ["npm run -s lint", "make -s check"]})
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "hooks"], cwd=repo, check=True)
    trust.trust(repo)
    npm_canary, make_canary = tmp_path / "host" / "npm", tmp_path / "host" / "make"
    hostile = {
        **package,
        "scripts": {"lint": f"mkdir -p {npm_canary.parent} && touch {npm_canary}"},
    }
    rewrite = turns(
        FIX,
        write("package.json", json.dumps(hostile)),
        write("Makefile", f"check:\n\t@mkdir -p {make_canary.parent} && touch {make_canary}\n"),
    )
    first = kiln_events(repo, rewrite, "--apply")
    assert sorted(first[-1]["applied"]) == ["Makefile", "calc.py", "package.json"], first[-1]
    assert [e["in_sandbox"] for e in ran(first, "SessionStart")] == [True, True]

    # The next session's SessionStart hooks run the model's scripts: in the sandbox.
    second = kiln_events(repo, turns(), "--apply")
    started = ran(second, "SessionStart")
    assert [(e["outcome"], e["in_sandbox"]) for e in started] == [("allowed", True)] * 2, started
    assert not npm_canary.exists() and not make_canary.exists()


def test_an_apply_ends_what_trust_gave_the_host_until_trusted_again(tmp_path: Path) -> None:
    dump = tmp_path / "env.json"
    mcp = {"mcpServers": {"facts": {"command": "python3", "args": ["tools/facts.py"],
                                    "env": {"ENV_DUMP": str(dump)}}}}  # fmt: skip
    repo = make_git_repo(tmp_path / "repo", {
        "calc.py": CALC, "test_calc.py": TESTS, "tools/facts.py": SERVER,
        ".mcp.json": json.dumps(mcp), ".kiln.toml": '[sandbox]\nsetup = ["true"]\n',
    })  # fmt: skip
    trust.trust(repo)
    first = kiln_events(repo, turns(FIX), "--apply")
    assert dump.exists()  # trusted: its server started on the host
    assert first[-1]["applied"] == ["calc.py"] and trust.SUSPENDED in json.dumps(first)
    dump.unlink()

    second = kiln_events(repo, turns(), "--apply")
    said = json.dumps(second)
    assert not dump.exists() and "applied changes to this repository" in said
    assert trust.SUSPENDED not in said  # said once, at the apply that ended it
    shown = subprocess.run([KILN, "config", "show", "--repo", str(repo)], capture_output=True,
                           text=True).stdout  # fmt: skip
    assert "sandbox.setup" in shown and "kiln applied changes" in shown

    trust.trust(repo)  # read, and trusted again
    kiln_events(repo, turns())
    assert dump.exists()


def test_a_deny_longer_than_any_tail_still_denies(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    answer = {"hookSpecificOutput": {"permissionDecision": "deny",
              "permissionDecisionReason": "no " + "x" * 50_000}}  # fmt: skip
    (repo / "deny.json").write_text(json.dumps(answer))
    claude_hooks(repo, {"PreToolUse": ["cat deny.json"]})
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "hooks"], cwd=repo, check=True)
    trust.trust(repo)
    marker = {"name": "run", "arguments": {"command": "touch ran.txt"}}
    events = kiln_events(repo, turns(marker), "--apply")
    pre = ran(events, "PreToolUse")
    assert [(e["outcome"], e["in_sandbox"]) for e in pre] == [("blocked", True)], pre
    assert events[-1]["applied"] == [] and not (repo / "ran.txt").exists()


def test_a_repository_formatter_and_lint_do_their_work_in_the_sandbox(tmp_path: Path) -> None:
    fmt = (
        "import json, sys\n"
        "path = json.load(sys.stdin)['tool_input']['file_path']\n"
        "if path.endswith('.json'):\n"
        "    data = json.load(open(path))\n"
        "    open(path, 'w').write(json.dumps(data, indent=2, sort_keys=True) + '\\n')\n"
    )
    lint = "! grep -rn --include=*.py 'breakpoint()' . >&2 || { echo 'no breakpoint() in code' >&2; exit 2; }"
    repo = make_git_repo(tmp_path / "repo", {
        "calc.py": CALC, "test_calc.py": TESTS, "tools/fmt.py": fmt,
        ".kiln.toml": (
            '[[hooks.PostToolUse]]\nmatcher = "write_file|edit_file"\n'
            'command = "python3 tools/fmt.py"\n'
            f"[[hooks.BeforeApply]]\ncommand = {json.dumps(lint)}\n"
        ),
    })  # fmt: skip
    trust.trust(repo)
    config = write("config.json", '{"b": 1, "a": [1,2]}')
    events = kiln_events(repo, turns(FIX, config), "--apply")
    assert sorted(events[-1]["applied"]) == ["calc.py", "config.json"], events[-1]
    assert (repo / "config.json").read_text() == '{\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}\n'
    post = ran(events, "PostToolUse")
    assert post and all(e["in_sandbox"] and e["outcome"] == "allowed" for e in post), post

    trust.trust(repo)  # the apply suspended the host's trust; the hooks run in the sandbox anyway
    broken = {"name": "edit_file", "arguments": {"path": "calc.py", "old_text": "def sub",
              "new_text": "def debug():\n    breakpoint()\n\n\ndef sub"}}  # fmt: skip
    # Nothing shows the change works (the tests passed before it too): only
    # --apply-unverified gets it as far as the BeforeApply hook.
    events = kiln_events(repo, turns(broken), "--apply", "--apply-unverified")
    before = ran(events, "BeforeApply")
    assert [(e["outcome"], e["in_sandbox"]) for e in before] == [("blocked", True)], before
    assert events[-1]["applied"] == [] and "breakpoint" not in (repo / "calc.py").read_text()
