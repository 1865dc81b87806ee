"""The meter with unknown prices and a price per hour, and the budget warnings at 80%."""

from __future__ import annotations

import pytest

from agent.cost.meter import Meter
from agent.cost.pricing import UNKNOWN, Pricing
from agent.events import BudgetWarning, Notice, StopReason, Usage
from agent.llm.base import Prices
from agent.settings.config import Limits
from tui.meter_state import MeterState
from tui.widgets.meter import MeterReading


def test_an_unknown_price_counts_tokens_and_never_shows_zero() -> None:
    meter = Meter(UNKNOWN)
    meter.add(Usage(100, 0, 0, 20))
    assert meter.tokens == 120 and meter.cost_usd is None
    assert meter.estimate("x" * 40)[2] is None
    assert meter.over_budget(Limits(budget_usd=0.01)) is None  # cannot be kept, not a crash
    assert meter.over_budget(Limits(max_tokens=100)) is StopReason.TOKEN_BUDGET
    said = meter.budget_events(Limits(budget_usd=1.0))
    assert len(said) == 1 and isinstance(said[0], Notice) and "unknown" in said[0].message
    assert meter.budget_events(Limits(budget_usd=1.0)) == []  # said once


def test_a_switch_to_an_unknown_model_makes_the_session_unknown() -> None:
    meter = Meter(Pricing("m", Prices(input=1.0)))
    meter.add(Usage(uncached_input=1_000_000))
    assert meter.cost_usd == pytest.approx(1.0)
    meter.pricing = UNKNOWN
    meter.add(Usage(uncached_input=10))
    assert meter.cost_usd is None and meter.spent_usd == pytest.approx(1.0)


def test_price_per_hour_counts_request_time() -> None:
    meter = Meter(Pricing("local", Prices(), price_per_hour=3.6))
    meter.add(Usage(500, 0, 0, 50), duration_s=10.0)  # 3.6 $/h * 10 s = $0.01
    meter.add(Usage(500, 400, 0, 50), duration_s=5.0)  # + $0.005
    assert meter.cost_usd == pytest.approx(0.015)


def test_warnings_at_80_percent_of_each_budget_once() -> None:
    meter = Meter(Pricing("m", Prices(output=1_000_000.0)))  # $1 per output token
    limits = Limits(budget_usd=10.0, max_tokens=1000)
    meter.add(Usage(0, 0, 0, 7))  # $7: 70%
    assert meter.budget_events(limits) == []
    meter.add(Usage(0, 0, 0, 1))  # $8: 80%
    (warning,) = meter.budget_events(limits)
    assert isinstance(warning, BudgetWarning) and warning.budget == "usd"
    assert warning.used == pytest.approx(8.0) and warning.limit == 10.0
    assert warning.kind == "budget_warning" and "80%" in warning.message
    meter.add(Usage(800, 0, 0, 0))  # 808 tokens: over 80% of the token budget
    (tokens,) = meter.budget_events(limits)
    assert isinstance(tokens, BudgetWarning) and tokens.budget == "tokens"
    assert meter.budget_events(limits) == []
    meter.add(Usage(0, 0, 0, 2))
    assert meter.over_budget(limits) is StopReason.DOLLAR_BUDGET


def test_the_tui_meter_shows_unknown_and_turns_at_80_percent() -> None:
    from agent.events import UsageUpdated

    state = MeterState(budget_usd=1.0)
    state.apply(UsageUpdated(Usage(10, 0, 0, 5), Usage(10, 0, 0, 5), None))
    reading = MeterReading.of(state)
    assert reading.cost == "cost unknown" and reading.bar == "" and not reading.warning
    tokens = MeterState(max_tokens=100)
    tokens.apply(UsageUpdated(Usage(50, 0, 0, 0), Usage(50, 0, 0, 0), None))
    assert MeterReading.of(tokens).bar == "█" * 5 + "░" * 5 and not MeterReading.of(tokens).warning
    tokens.apply(BudgetWarning("80%", budget="tokens", used=80, limit=100))
    assert MeterReading.of(tokens).warning
    dollars = MeterState(budget_usd=1.0)
    dollars.apply(UsageUpdated(Usage(), Usage(), 0.85))
    assert MeterReading.of(dollars).warning and MeterReading.of(dollars).cost == "$0.85 / $1.00"
