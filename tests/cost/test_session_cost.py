"""Cost through real sessions: a scripted model over HTTP, the real Docker sandbox, the
store, `kiln cost` and `kiln sessions show --requests`, budgets ending a headless run."""

from __future__ import annotations

import argparse
import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from agent.approval import Mode
from agent.cost.cli import main as kiln_cost
from agent.events import Event, Finished
from agent.headless.run import run_headless
from agent.llm.anthropic import AnthropicClient
from agent.llm.base import ModelProfile
from agent.llm.scripted.server import ScriptedServer
from agent.session import Session
from agent.settings.config import load_settings
from agent.settings.flags import settings_for
from agent.store.cli import main as kiln_sessions
from agent.store.db import Store
from tests.conftest import make_git_repo
from tests.scripted import BUGGY_REPO, FIX_SCRIPT, ScriptedPerson

SONNET = {"input": 3.0, "cached": 0.3, "write": 3.75, "output": 15.0}  # the table's row


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "repo", BUGGY_REPO)


def by_hand(row: dict[str, Any]) -> float:
    return (
        row["uncached"] * SONNET["input"] + row["cached"] * SONNET["cached"]
        + row["cache_write"] * SONNET["write"] + row["output"] * SONNET["output"]
    ) / 1e6  # fmt: skip


async def test_a_claude_session_is_priced_from_the_table_and_kept_whole(
    docker_ready: None, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events: list[Event] = []
    with ScriptedServer(FIX_SCRIPT) as server:
        profile = ModelProfile(
            provider="anthropic", base_url=server.base_url, model="claude-sonnet-4-5-20250929",
            api_key_env="ANTHROPIC_API_KEY", max_retries=0,
        )  # fmt: skip
        client = AnthropicClient(profile, env={"ANTHROPIC_API_KEY": "k"}, backoff_base_s=0.01)
        session = Session(
            load_settings(repo, env={}), repo, ScriptedPerson(), Mode.AUTO_EDIT, client=client
        )
        try:
            events = [e async for e in session.run("fix add")]
        finally:
            await session.close()
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.stop_reason.value == "done"
    store = Store()
    rows = store.requests(session.session_id)
    assert [r["step"] for r in rows] == [1, 2, 3, 4, 5]
    assert {r["model"] for r in rows} == {"claude-sonnet-4-5-20250929"}
    # The Anthropic wire reports cache writes and reads: both prices are exercised.
    assert sum(r["cache_write"] for r in rows) > 0 and sum(r["cached"] for r in rows) > 0
    for row in rows:
        assert row["cost_usd"] == pytest.approx(by_hand(row), rel=1e-12)
    assert finished.cost_usd == pytest.approx(sum(by_hand(r) for r in rows), rel=1e-12)
    assert kiln_cost(argparse.Namespace(session=session.session_id, json=True)) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["total"]["cost_usd"] == pytest.approx(finished.cost_usd, rel=1e-12)
    # What the model saw: each request the previous one plus what happened since.
    exchanges = store.exchanges(session.session_id)
    assert exchanges[0]["messages"][0]["content"] == session.conversation.system
    for before, after in itertools.pairwise(exchanges):
        assert after["messages"][: len(before["messages"])] == before["messages"]
        assert (
            after["messages"][len(before["messages"])]["tool_calls"]
            == before["reply"]["tool_calls"]
        )
    assert len(exchanges[-1]["tools"]) >= 5
    assert (
        kiln_sessions(argparse.Namespace(action="show", id=session.session_id, requests=True)) == 0
    )
    shown = capsys.readouterr().out
    assert shown.count("=== request ") == 5 and "=== request 5 · step 5 · main" in shown
    assert session.conversation.system.splitlines()[0] in shown
    assert '→ edit_file {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"}' in shown


def run_args(repo: Path, base_url: str, model: str, **more: Any) -> argparse.Namespace:
    args = argparse.Namespace(
        task="fix", repo=str(repo), base_url=base_url, model=model, provider=None,
        approval="full-auto", apply=False, patch_out=None, max_steps=None, budget_usd=None,
        timeout=None, output_format="stream-json", test_command=None,
    )  # fmt: skip
    vars(args).update(more)
    return args


async def test_an_unknown_hosted_model_reports_cost_null(docker_ready: None, repo: Path) -> None:
    # 127.0.0.2 is no address a local model server is found at: it stands in for a hosted API.
    with ScriptedServer(FIX_SCRIPT, host="127.0.0.2") as server:
        url = f"http://127.0.0.2:{server.port}/v1"
        args = run_args(repo, url, "mystery-70b", budget_usd=5.0)
        out, err = io.StringIO(), io.StringIO()
        code = await run_headless(args, repo, settings_for(args, repo), out=out, err=err)
    assert code == 0, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    result = lines[-1]
    assert result["cost_usd"] is None and result["cost_known"] is False
    assert result["usage"]["output_tokens"] > 0 and "cost unknown" in result["usage_line"]
    notes = [x["message"] for x in lines if x["type"] == "notice"]
    assert any("mystery-70b is unknown" in n and "cannot be kept" in n for n in notes)
    assert all(x["cost_usd"] is None for x in lines if x["type"] == "usage_updated")


async def test_a_dollar_budget_warns_at_80_percent_then_stops_clean_with_exit_3(
    docker_ready: None, repo: Path
) -> None:
    """gpt-4o at $10 per million output tokens; each scripted reply is a few tokens, so a
    budget of a few of them is spent by the fourth request. The edit of step 3 is kept."""
    with ScriptedServer(FIX_SCRIPT) as server:
        args = run_args(repo, server.base_url, "gpt-4o")
        settings = settings_for(args, repo)
        probe = io.StringIO()
        await run_headless(args, repo, settings, out=probe, err=io.StringIO())
    costs = [
        x["cost_usd"]
        for x in map(json.loads, probe.getvalue().splitlines())
        if x["type"] == "usage_updated"
    ]
    budget = costs[2] * 0.9999  # spent once the third request is counted
    repo2 = make_git_repo(repo.parent / "again" / "repo", BUGGY_REPO)  # the same prompt
    with ScriptedServer(FIX_SCRIPT) as server:
        args = run_args(repo2, server.base_url, "gpt-4o", budget_usd=budget)
        out, err = io.StringIO(), io.StringIO()
        code = await run_headless(args, repo2, settings_for(args, repo2), out=out, err=err)
    assert code == 3, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    kinds = [x["type"] for x in lines]
    warning = lines[kinds.index("budget_warning")]
    assert warning["budget"] == "usd" and warning["used"] >= 0.8 * budget
    assert kinds.index("budget_warning") < kinds.index("finished")
    result = lines[-1]
    assert result["stop_reason"] == "dollar_budget" and result["exit_code"] == 3
    assert result["steps"] == 3 and result["files_changed"] == ["calc.py"]
    assert "checkpointed" in kinds  # the edit of step 3 was checkpointed before the stop
    assert (repo2 / "calc.py").read_text() == BUGGY_REPO["calc.py"]  # nothing applied
    store = Store()
    row = store.find(result["session_id"])
    assert row is not None and row.stop_reason == "dollar_budget"
    assert "a + b" in store.state(row.id)[1]  # the session keeps its changes: kiln apply
