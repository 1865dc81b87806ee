"""What a repository runs on the host, found however it is named, and what a host process
kiln starts is never handed: through `kiln run` with a hostile scripted model on the real
sandbox.

- a git hooks folder of any name (`core.hooksPath tools/git-hooks`, which no name pattern
  knows): a change to it is flagged at approval, and kiln's commit does not run it;
- a script a repository's own hook runs by path, with its folder: flagged;
- every well-known model key variable, and the one a profile names, is kept from a hook
  of the person's and from git at kiln's commit."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from agent.llm.scripted.server import ScriptedServer
from agent.settings import host_code, paths, trust
from tests.conftest import make_git_repo
from tests.e2e.test_host_code import FIX, head, kiln_run, turns, write
from tests.e2e.test_kiln_run import KILN
from tests.e2e.test_refused_apply import CALC, TESTS

pytestmark = pytest.mark.usefixtures("docker_ready")

HOOKS = "tools/git-hooks"
DUMP_ENV = "#!/bin/sh\nenv > {dump}\n"


def _executable(path: Path) -> None:
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def _amend(repo: Path) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@e"]
    subprocess.run([*git, "commit", "-qam", "initial", "--amend"], cwd=repo, check=True)


def test_a_hooks_folder_no_pattern_knows_is_found_by_git_config(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, f"{HOOKS}/pre-commit": "#!/bin/sh\n"})
    assert host_code.host_files_in(repo, [f"{HOOKS}/pre-commit"]) == []  # not yet a hooks folder
    subprocess.run(["git", "config", "core.hooksPath", HOOKS], cwd=repo, check=True)
    changed = [f"{HOOKS}/pre-commit", f"{HOOKS}/lib/common.sh", "calc.py", "tools/other.py"]
    expected = [f"{HOOKS}/pre-commit", f"{HOOKS}/lib/common.sh"]
    assert host_code.host_files_in(repo, changed) == expected
    assert host_code.hooks_touched(repo, changed) == expected


def test_a_rewritten_hook_in_a_folder_of_any_name_is_flagged_and_not_run_at_commit(
    tmp_path: Path,
) -> None:
    dump, canary = tmp_path / "hook-env", tmp_path / "canary"
    files = {"calc.py": CALC, "test_calc.py": TESTS,
             f"{HOOKS}/pre-commit": DUMP_ENV.format(dump=dump)}  # fmt: skip
    repo = make_git_repo(tmp_path / "repo", files)
    _executable(repo / HOOKS / "pre-commit")
    _amend(repo)
    subprocess.run(["git", "config", "core.hooksPath", HOOKS], cwd=repo, check=True)
    rewrite = turns(FIX, write(f"{HOOKS}/pre-commit", f"#!/bin/sh\ntouch {canary}\n"))

    result, code = kiln_run(repo, rewrite, "--apply", "--commit")
    assert code != 0 and result["applied"] == [] and head(repo) == "initial"
    assert f"{HOOKS}/pre-commit" in result["not_applied"] and "git hooks" in result["not_applied"]

    result, code = kiln_run(repo, rewrite, "--apply", "--apply-flagged", "--commit")
    assert code == 0 and f"{HOOKS}/pre-commit" in result["applied"] and head(repo) != "initial"
    assert not canary.exists() and not dump.exists()  # kiln's commit ran neither hook


def test_a_script_a_repository_hook_runs_is_flagged_with_its_folder(tmp_path: Path) -> None:
    hooks = {"hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": "python3 scripts/check.py"}]}]}}  # fmt: skip
    repo = make_git_repo(tmp_path / "repo", {
        "calc.py": CALC, "test_calc.py": TESTS, "scripts/check.py": "import helper\n",
        "scripts/helper.py": "", ".claude/settings.json": json.dumps(hooks),
    })  # fmt: skip
    trust.trust(repo)
    assert "scripts/check.py" in host_code.hook_run_paths(repo)
    rewrite = turns(
        FIX, write("scripts/check.py", "import os\n"), write("scripts/helper.py", "X = 1\n")
    )
    result, code = kiln_run(repo, rewrite, "--apply")
    assert code != 0 and result["applied"] == []
    said = result["not_applied"]
    assert "scripts/check.py" in said and "scripts/helper.py" in said and "hook" in said
    assert (repo / "scripts/check.py").read_text() == "import helper\n"


PROFILE_KEY = "MY_GATEWAY_TOKEN"  # a key the profile names (api_key_env)
# The variables model keys are kept in, spelled here apart from kiln's own list, so a name
# dropped from that list is still planted (and one added to it is planted too).
WELL_KNOWN_KEYS = {
    "KILN_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
    "GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY",
    "DEEPSEEK_API_KEY", "GROQ_API_KEY", "TOGETHER_API_KEY", "AZURE_OPENAI_API_KEY", "HF_TOKEN",
}  # fmt: skip


def test_no_model_key_reaches_a_hook_or_git_at_commit(tmp_path: Path) -> None:
    hook_dump, git_dump = tmp_path / "hook-env", tmp_path / "git-env"
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(  # the person's own hook: it runs on the host
        f'[[hooks.SessionStart]]\ncommand = "env > {hook_dump}"\n'
    )
    repo = make_git_repo(tmp_path / "repo", {"calc.py": CALC, "test_calc.py": TESTS})
    pre_commit = repo / ".git" / "hooks" / "pre-commit"
    pre_commit.write_text(DUMP_ENV.format(dump=git_dump))
    _executable(pre_commit)
    names = sorted(WELL_KNOWN_KEYS | host_code.MODEL_KEY_VARS | {PROFILE_KEY})
    planted = {name: f"canary-{name}-0123456789" for name in names}
    env = {**planted, "KILN_API_KEY_ENV": PROFILE_KEY}

    with ScriptedServer(turns(FIX)) as server:
        done = subprocess.run(
            [KILN, "run", "fix add", "--repo", str(repo), "--approval", "full-auto",
             "--output-format", "json", "--base-url", server.base_url, "--model", "m",
             "--apply", "--commit"],
            capture_output=True, text=True, timeout=300, env={**os.environ, **env},
        )  # fmt: skip
    result, code = json.loads(done.stdout.splitlines()[-1]), done.returncode
    assert code == 0 and result["applied"] == ["calc.py"] and head(repo) != "initial"
    for dump in (hook_dump, git_dump):
        seen = dump.read_text()
        assert "PATH=" in seen  # the process ran, and this is its environment
        leaked = [name for name, value in planted.items() if value in seen]
        assert leaked == [], f"{dump.name}: {leaked}"
