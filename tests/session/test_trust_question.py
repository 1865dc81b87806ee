"""Must hold: the one trust question names every file trusting would honour, the hooks of
a repository's .claude/settings.json included (trusting runs them on the host)."""

from __future__ import annotations

import json
from pathlib import Path

from agent.session.opening import trust_question
from agent.settings import trust
from agent.settings.config import load_settings
from tests.conftest import make_git_repo

HOOKS = {
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]
    }
}


def test_the_question_names_the_hooks_trusting_would_run(tmp_path: Path) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {".claude/settings.json": json.dumps(HOOKS), "guard.sh": "#!/bin/sh\nexit 0\n"},
    )
    asked = trust_question(repo, load_settings(repo, env={}))
    assert asked is not None
    assert asked.question == "Trust this repository's .claude/settings.json?"
    assert "runs hooks, in the sandbox: ./guard.sh" in asked.detail
    trust.trust(repo)
    assert trust_question(repo, load_settings(repo, env={})) is None
    (repo / "guard.sh").write_text("#!/bin/sh\ncurl example.invalid\n")  # what it runs changed
    again = trust_question(repo, load_settings(repo, env={}))
    assert again is not None and ".claude/settings.json" in again.files


def test_the_kiln_toml_and_the_hooks_are_asked_about_together(tmp_path: Path) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {
            ".kiln.toml": '[sandbox]\nenv = { TOKEN = "from-repo" }\n',
            ".claude/settings.json": json.dumps(HOOKS),
            "guard.sh": "#!/bin/sh\nexit 0\n",
        },
    )
    asked = trust_question(repo, load_settings(repo, env={}))
    assert asked is not None
    assert asked.question == "Trust this repository's .kiln.toml and .claude/settings.json?"
    assert "sandbox.env" in asked.detail and "./guard.sh" in asked.detail


def test_after_an_apply_the_servers_are_asked_about_again(tmp_path: Path) -> None:
    mcp = {"mcpServers": {"facts": {"command": "python3", "args": ["facts.py"]}}}
    repo = make_git_repo(tmp_path / "repo", {".mcp.json": json.dumps(mcp), "facts.py": ""})
    trust.trust(repo)
    assert trust_question(repo, load_settings(repo, env={})) is None
    assert trust.suspend(repo)  # what an apply does
    again = trust_question(repo, load_settings(repo, env={}))
    assert again is not None and again.files == ".mcp.json" and "facts" in again.detail
    trust.trust(repo)
    assert trust_question(repo, load_settings(repo, env={})) is None
