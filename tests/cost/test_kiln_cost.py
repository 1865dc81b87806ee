"""`kiln cost`: per step and per model, checked against sums done by hand for several
price tables (cache reads and writes, a config override, an unknown model, a local model
paid by the hour)."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from agent.cost.cli import main as kiln_cost
from agent.cost.meter import Meter
from agent.cost.pricing import pricing_for
from agent.events import SessionStarted, Usage
from agent.llm.base import Completion, Message, ModelProfile, Prices
from agent.store.db import Store

ANTHROPIC = "https://api.anthropic.com"


def store_session(sid: str, requests: list[tuple[Meter, Usage, float]]) -> None:
    """A stored session whose requests each meter priced, as a run would record them."""
    store = Store()
    store.record(sid, SessionStarted(sid, "/repo", f"task {sid}", "m", "ask"))
    for step, (meter, usage, seconds) in enumerate(requests, 1):
        done = Completion(Message("assistant", "ok"), usage, duration_s=seconds)
        store.record_request(sid, meter.request(step, [Message("user", "go")], [], done))
    store.close()


def cost_json(sid: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert kiln_cost(argparse.Namespace(session=sid, json=True)) == 0
    return json.loads(capsys.readouterr().out)


def meter(model: str, base_url: str = ANTHROPIC, role: str = "main", **profile: Any) -> Meter:
    return Meter(pricing_for(ModelProfile(base_url=base_url, model=model, **profile)), role=role)


def test_anthropic_cache_writes_and_reads_main_and_fast_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sonnet, haiku = meter("claude-sonnet-4-5-20250929"), meter("claude-haiku-4-5", role="fast")
    store_session(
        "anth",
        [
            (sonnet, Usage(1000, 0, 2000, 100), 2.0),  # 1000*3 + 2000*3.75 + 100*15 = 12000
            (sonnet, Usage(100, 3000, 0, 50), 1.0),  # 100*3 + 3000*0.3 + 50*15 = 1950
            (haiku, Usage(500, 1000, 200, 40), 1.0),  # 500*1 + 1000*.1 + 200*1.25 + 40*5 = 1050
        ],
    )
    report = cost_json("anth", capsys)
    assert [r["cost_usd"] for r in report["requests"]] == pytest.approx([0.012, 0.00195, 0.00105])
    assert [r["step"] for r in report["requests"]] == [1, 2, 3]
    main, fast = report["models"]
    assert (main["role"], main["model"], main["requests"]) == (
        "main",
        "claude-sonnet-4-5-20250929",
        2,
    )
    assert main["cost_usd"] == pytest.approx(0.01395)
    assert (main["uncached_input_tokens"], main["cached_input_tokens"]) == (1100, 3000)
    assert (main["cache_write_tokens"], main["output_tokens"]) == (2000, 150)
    assert (fast["role"], fast["cost_usd"]) == ("fast", pytest.approx(0.00105))
    assert report["total"]["cost_usd"] == pytest.approx(0.015) and report["total"]["cost_known"]


def test_openai_table_and_a_config_override(capsys: pytest.CaptureFixture[str]) -> None:
    gpt = meter("gpt-4o", "https://api.openai.com/v1")
    custom = meter(
        "house-model", "https://llm.example.com/v1",
        prices=Prices(input=1.0, cached_input=0.1, cache_write=2.0, output=4.0),
    )  # fmt: skip
    store_session(
        "oai",
        [
            (gpt, Usage(2000, 8000, 0, 1500), 1.0),  # 2000*2.5 + 8000*1.25 + 1500*10 = 30000
            (custom, Usage(1000, 1000, 1000, 1000), 1.0),  # 1000 + 100 + 2000 + 4000 = 7100
        ],
    )
    report = cost_json("oai", capsys)
    assert [m["cost_usd"] for m in report["models"]] == pytest.approx([0.03, 0.0071])
    assert report["total"]["cost_usd"] == pytest.approx(0.0371)


def test_an_unknown_model_makes_its_sums_unknown_not_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    deepseek = meter("deepseek-chat", "https://api.deepseek.com")
    mystery = meter("mystery-70b", "https://llm.example.com/v1")
    store_session(
        "unk",
        [
            (deepseek, Usage(1000, 9000, 0, 500), 1.0),  # 1000*.28 + 9000*.028 + 500*.42 = 742
            (mystery, Usage(4000, 0, 0, 300), 1.0),
        ],
    )
    report = cost_json("unk", capsys)
    known, unknown = report["models"]
    assert known["cost_usd"] == pytest.approx(0.000742) and known["cost_known"]
    assert unknown["cost_usd"] is None and not unknown["cost_known"]
    assert unknown["uncached_input_tokens"] == 4000 and unknown["output_tokens"] == 300
    assert report["total"]["cost_usd"] is None and report["total"]["output_tokens"] == 800
    assert kiln_cost(argparse.Namespace(session="unk", json=False)) == 0
    text = capsys.readouterr().out
    assert "$0.000742" in text and "unknown" in text and "$0.00" not in text.split("$0.000742")[1]


def test_a_local_model_costs_its_time_at_the_price_per_hour(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gpu = meter("qwen2.5-coder:32b", "http://127.0.0.1:8080/v1", price_per_hour=1.8)
    free = meter("qwen2.5-coder:7b", "http://127.0.0.1:11434/v1", role="fast")
    store_session(
        "gpu",
        [
            (gpu, Usage(30000, 0, 0, 800), 90.0),  # 1.8 * 90 / 3600 = 0.045
            (gpu, Usage(500, 30000, 0, 200), 30.0),  # 1.8 * 30 / 3600 = 0.015
            (free, Usage(100, 0, 0, 10), 5.0),
        ],
    )
    report = cost_json("gpu", capsys)
    assert [r["cost_usd"] for r in report["requests"]] == pytest.approx([0.045, 0.015, 0.0])
    assert report["total"]["cost_usd"] == pytest.approx(0.06)
    assert kiln_cost(argparse.Namespace(session="gpu", json=False)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("session gpu") and "$0.045000" in lines[2]
    assert lines[-1].split()[:2] == ["3", "all"] and lines[-1].split()[-1] == "$0.060000"


def test_no_such_session_is_one_sentence() -> None:
    from agent.errors import UsageError

    with pytest.raises(UsageError, match="kiln sessions list"):
        kiln_cost(argparse.Namespace(session="nothing-here", json=False))


def test_a_thinking_models_reasoning_tokens_are_counted_apart_and_paid_as_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sonnet = meter("claude-sonnet-4-5-20250929")
    store_session("think", [(sonnet, Usage(1000, 0, 0, 500, reasoning=400), 1.0)])
    as_text = json.dumps(cost_json("think", capsys))
    assert '"reasoning_tokens": 400' in as_text and '"output_tokens": 500' in as_text
    assert '"cost_usd": 0.0105' in as_text  # 1000*3 + 500*15: the reasoning paid as output
    assert kiln_cost(argparse.Namespace(session="think", json=False)) == 0
    printed = capsys.readouterr().out
    assert "thinking" in printed and "      500      400 " in printed
