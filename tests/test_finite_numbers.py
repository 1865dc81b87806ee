"""Numbers are numbers: nan and the infinities are refused in one sentence wherever kiln
reads a number (nan passes every `<` a limit makes, so `budget_usd = nan` never trips).

Every float field of the settings is found by walking the dataclasses, so a field added
later is covered without a change here."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent import cli, tools
from agent.batch.tasks import load_tasks
from agent.cost import table
from agent.errors import ConfigError, UsageError
from agent.hooks.config import claude_hooks
from agent.llm.base import ModelProfile, Prices
from agent.settings import paths
from agent.settings.config import _SECTIONS, ENV_KEYS, McpServer, load_settings
from sandbox.base import Sandbox
from tests.conftest import make_git_repo
from tests.scripted import tool_context

KILN = str(Path(sys.executable).parent / "kiln")
NOT_FINITE = ("nan", "inf", "-inf")


def _number_keys(kinds: tuple[type, ...]) -> list[str]:
    """Every dotted key whose default is one of `kinds` (bool, an int, is left out)."""
    tables: list[tuple[str, type]] = [*_SECTIONS.items()]
    tables += [("models.main", ModelProfile), ("models.main.prices", Prices)]
    tables += [("mcp_servers.docs", McpServer)]
    return [
        f"{prefix}.{f.name}"
        for prefix, cls in tables
        for f in dataclasses.fields(cls)
        if type(getattr(cls(), f.name)) in kinds
    ]


FLOAT_KEYS = _number_keys((float,))
INT_KEYS = _number_keys((int,))


def _toml(dotted: str, literal: str) -> str:
    table, _, key = dotted.rpartition(".")
    return f"[{table}]\n{key} = {literal}\n"


def test_the_walk_finds_the_float_settings_people_set() -> None:
    # The walk itself: were it to find nothing, every test below would pass on nothing.
    assert {"limits.budget_usd", "models.main.prices.input", "sandbox.cpus"} <= set(FLOAT_KEYS)
    assert "mcp_servers.docs.tool_timeout_sec" in FLOAT_KEYS and "limits.max_steps" in INT_KEYS


@pytest.mark.parametrize("literal", NOT_FINITE)
@pytest.mark.parametrize("dotted", FLOAT_KEYS + INT_KEYS)
def test_a_file_with_nan_or_infinity_is_one_sentence(dotted: str, literal: str) -> None:
    user_file = paths.user_config_file()
    user_file.parent.mkdir(parents=True, exist_ok=True)
    user_file.write_text(_toml(dotted, literal))
    with pytest.raises(ConfigError) as err:
        load_settings(None, env={})
    said = err.value.message
    assert said.startswith(f"{user_file}: `{dotted}`: ") and "\n" not in said
    assert "finite number" in said or "whole number" in said


@pytest.mark.parametrize("literal", NOT_FINITE)
def test_a_repository_file_with_nan_is_refused_even_untrusted(tmp_path: Path, literal: str) -> None:
    (tmp_path / ".kiln.toml").write_text(_toml("limits.budget_usd", literal))
    with pytest.raises(ConfigError, match=r"\.kiln\.toml: `limits\.budget_usd`: .*finite"):
        load_settings(tmp_path, env={})


NUMBER_VARS = [var for var, key in ENV_KEYS.items() if key in FLOAT_KEYS + INT_KEYS]


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "infinity"])
@pytest.mark.parametrize("var", NUMBER_VARS)
def test_an_environment_variable_with_nan_or_infinity_is_one_sentence(var: str, text: str) -> None:
    assert "KILN_BUDGET_USD" in NUMBER_VARS
    with pytest.raises(ConfigError) as err:
        load_settings(None, env={var: text})
    assert err.value.message.startswith(f"env {var}: `{ENV_KEYS[var]}`: {text!r} should be")


@pytest.mark.parametrize("text", NOT_FINITE)
def test_a_flag_with_nan_is_refused_by_the_parser(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (
        ["run", "t", f"--budget-usd={text}"],  # `=`: "-inf" alone reads as an option
        ["run", "t", f"--timeout={text}"],
        ["batch", "tasks.jsonl", f"--budget-usd={text}"],
        ["review", f"--min-confidence={text}"],
        ["sandbox", "run", f"--timeout={text}", "ls"],
    ):
        with pytest.raises(SystemExit) as done:
            cli._build_parser(argv[0]).parse_args(argv)
        assert done.value.code == 2
        assert f"{text!r} is not a finite number" in capsys.readouterr().err
    # A flag's value reaches the settings as a number, and is checked there too.
    with pytest.raises(ConfigError, match=r"flag: `limits\.budget_usd`: nan should be a finite"):
        load_settings(None, {"limits.budget_usd": float("nan")}, env={})


def test_kiln_run_says_one_sentence_and_exits_2(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    env = {**os.environ, "KILN_BUDGET_USD": "nan", "XDG_CONFIG_HOME": str(tmp_path / "c")}
    done = subprocess.run(
        [KILN, "run", "fix it", "--repo", str(repo)],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "env KILN_BUDGET_USD: `limits.budget_usd`: 'nan' should be a finite number" in (
        done.stderr
    )
    flagged = subprocess.run(
        [KILN, "run", "fix it", "--repo", str(repo), "--budget-usd", "inf"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert flagged.returncode == 2 and "'inf' is not a finite number" in flagged.stderr


@pytest.mark.parametrize("literal", NOT_FINITE)
def test_a_hook_timeout_of_nan_or_infinity_is_refused(tmp_path: Path, literal: str) -> None:
    user_file = paths.user_config_file()
    user_file.parent.mkdir(parents=True, exist_ok=True)
    user_file.write_text(f'[[hooks.PreToolUse]]\ncommand = "true"\ntimeout = {literal}\n')
    with pytest.raises(ConfigError, match="`timeout` should be a number of seconds above 0"):
        load_settings(None, env={})
    # Claude Code's JSON: Python's reader takes NaN and Infinity.
    spelled = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[literal]
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").write_text(
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", '
        f'"timeout": {spelled}}}]}}]}}}}'
    )
    with pytest.raises(ConfigError, match="`timeout` should be a number of seconds above 0"):
        claude_hooks(tmp_path)


@pytest.mark.parametrize("spelled", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("key", ["budget_usd", "timeout", "max_steps"])
def test_a_batch_line_with_nan_or_infinity_is_named(tmp_path: Path, key: str, spelled: str) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(f'{{"id": "a", "repo": ".", "task": "t", "{key}": {spelled}}}\n')
    with pytest.raises(UsageError, match=f"line 1: '{key}' should be a finite number above 0"):
        load_tasks(tasks)


def test_every_price_kiln_ships_is_a_finite_number() -> None:
    rows = table.rows()
    assert len(rows) > 10
    for row in rows:
        for f in dataclasses.fields(Prices):
            price = getattr(row.prices, f.name)
            assert price == price and 0 <= price < 1_000, (row.model, f.name, price)


async def test_a_model_asking_for_a_nan_timeout_gets_an_error_not_no_limit(
    sandbox: Sandbox,
) -> None:
    ctx = tool_context(sandbox)
    ran = await tools.call(ctx, "run", {"command": "echo ran", "timeout_s": float("nan")})
    assert not ran.ok and "`timeout_s` must be a number of seconds" in ran.output
    assert "ran\n" not in ran.output
