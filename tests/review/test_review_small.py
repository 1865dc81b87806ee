"""A review by a small model gets the files with the change and only the two reporting
tools; any model going round in circles is stopped."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.review.cli import review_command
from agent.review.reviewer import REPEATED
from agent.settings.config import load_settings
from tests.review.test_review import finding, finish
from tests.review.test_review_targets import args


async def _review(repo: Path, turns: list, small: bool) -> tuple[dict, list]:  # type: ignore[type-arg]
    out = io.StringIO()
    with ScriptedServer(turns) as server:
        profile = ModelProfile(base_url=server.base_url, model="m", small_model=small)
        client = OpenAICompatClient(profile)
        namespace: argparse.Namespace = args(rev="HEAD")
        await review_command(namespace, repo, load_settings(repo, env={}), client=client,
                             out=out, err=io.StringIO())  # fmt: skip
        await client.aclose()
        bodies = [r.body for r in server.chat_requests]
    return json.loads(out.getvalue()), bodies


async def test_a_small_model_reads_the_files_in_the_message_and_only_reports(
    buggy_repo: Path,
) -> None:
    # A line past the end of the file (a small model's miscount) lands on the nearest change.
    turns = [
        {"tool_calls": [finding(0), finding(1, line=11, title="off the end")]},
        {"tool_calls": [finish()]},
    ]
    result, bodies = await _review(buggy_repo, turns, True)
    assert [f["line"] for f in result["findings"]] == [4, 4]
    tools = sorted(t["function"]["name"] for t in bodies[0]["tools"])
    assert tools == ["finish_review", "report_finding"]
    message = bodies[0]["messages"][-1]["content"]
    assert "--- shop.py after the change ---" in message
    assert "   10     return total(prices) / len(prices)" in message
    assert (
        "- shop.py line 4: was `for price in prices:`, now `for price in prices[1:]:`"
    ) in message


async def test_the_same_call_again_is_answered_once_then_the_part_ends(buggy_repo: Path) -> None:
    read = {"tool_calls": [{"name": "search", "arguments": {"pattern": "total"}}]}
    result, bodies = await _review(buggy_repo, [read] * 5, False)
    assert len(bodies) == 4  # the first answered, three repeats, then the part ends
    assert bodies[2]["messages"][-1]["content"] == REPEATED
    assert result["findings"] == [] and result["verdict"] == "correct"
