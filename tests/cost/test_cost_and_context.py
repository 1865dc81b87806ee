from __future__ import annotations

from agent.cost.meter import Meter
from agent.cost.pricing import Pricing
from agent.events import StopReason, Usage
from agent.llm.base import Message, Prices, ToolCall
from agent.present import format_usage
from agent.prompts.conversation import Conversation, truncate
from agent.settings.config import Limits


def test_meter_sums_and_prices_every_kind_of_token() -> None:
    meter = Meter(Pricing("m", Prices(input=3.0, cached_input=0.3, cache_write=3.75, output=15.0)))
    meter.add(Usage(uncached_input=1000, cached_input=0, cache_write=2000, output=100))
    meter.add(Usage(uncached_input=100, cached_input=3000, output=50))
    assert meter.total == Usage(1100, 3000, 2000, 150)
    expected = (1100 * 3.0 + 3000 * 0.3 + 2000 * 3.75 + 150 * 15.0) / 1e6
    assert abs(meter.cost_usd - expected) < 1e-12
    assert meter.requests == 2


def test_budgets() -> None:
    meter = Meter(Pricing("m", Prices(input=1_000_000.0)))
    assert meter.over_budget(Limits(budget_usd=1.0)) is None
    meter.add(Usage(uncached_input=2))
    assert meter.over_budget(Limits(budget_usd=1.0)) is StopReason.DOLLAR_BUDGET
    assert meter.over_budget(Limits(max_tokens=2)) is StopReason.TOKEN_BUDGET
    assert meter.over_budget(Limits()) is None


def test_format_usage() -> None:
    line = format_usage(Usage(2000, 8000, 0, 1500), 0.01234)
    assert line == "10.0k in (80% cached) · 1.5k out · $0.0123"


def test_truncate_keeps_head_and_tail() -> None:
    text = "".join(f"{i:05d}\n" for i in range(10_000))
    short, cut = truncate(text, 1200)
    assert cut and len(short) < 1300
    assert short.startswith("00000") and short.rstrip().endswith("09999")
    assert truncate("small", 1200) == ("small", False)


def test_conversation_only_appends_and_marks_the_stable_prefix() -> None:
    conv = Conversation("system text")
    conv.add_user("task")
    first = conv.messages()
    call = ToolCall("c1", "read_file", {"path": "a"})
    conv.add_assistant(Message("assistant", "", tool_calls=(call,)))
    conv.add_tool_result(call, "content")
    conv.add_feedback("tests failed")
    second = conv.messages()
    assert second[: len(first)] == first  # the prefix a server cached is unchanged
    assert second[0].cache_breakpoint and not any(m.cache_breakpoint for m in second[1:])
    assert second[-1].role == "tool" and second[-1].content.endswith("tests failed")
