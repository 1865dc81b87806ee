"""The shipped price table, name matching, and the order prices are chosen in."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.cost import table
from agent.cost.pricing import is_local, pricing_for
from agent.events import Usage
from agent.llm.base import ModelProfile, Prices
from agent.settings import paths
from agent.settings.config import load_settings

SONNET = Prices(input=3.0, cached_input=0.3, cache_write=3.75, output=15.0)


def test_every_row_has_four_prices_a_date_and_a_source() -> None:
    rows = table.rows()
    assert len(rows) >= 40
    for row in rows:
        p = row.prices
        assert p.input > 0 and p.output > 0 and p.cached_input > 0, row.model
        assert p.cached_input <= p.input <= p.cache_write, row.model
        assert len(row.date) == 10 and row.date[4] == "-", row.model
        assert row.source.startswith("https://"), row.model
    families = ("gpt-4o", "gpt-4.1", "o3", "gpt-5", "claude-sonnet-4-5", "claude-opus-4-1",
                "claude-haiku-4-5", "claude-3-5-sonnet", "deepseek-chat", "qwen-plus",
                "kimi-k2-0905-preview", "gemini-2.5-pro")  # fmt: skip
    assert all(table.lookup(name) is not None for name in families)


@pytest.mark.parametrize(
    ("asked", "row"),
    [
        ("claude-sonnet-4-5", "claude-sonnet-4-5"),
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("anthropic/claude-sonnet-4.5", "claude-sonnet-4-5"),
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"),
        ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5"),
        ("claude-3-5-sonnet-latest", "claude-3-5-sonnet"),
        ("GPT-4o-2024-08-06", "gpt-4o"),
        ("gpt-4o-2024-05-13", "gpt-4o-2024-05-13"),  # a dated row with its own price wins
        ("openai/gpt-4.1-2025-04-14", "gpt-4.1"),
        ("models/gemini-2.5-flash", "gemini-2.5-flash"),
        ("qwen-plus-latest", "qwen-plus"),
    ],
)
def test_names_match_exactly_then_normalised(asked: str, row: str) -> None:
    found = table.lookup(asked)
    assert found is not None and found.model == row


@pytest.mark.parametrize(
    "asked", ["gpt-5.7", "qwen2.5-coder:7b", "deepseek-ai/DeepSeek-V3", "llama3", "", "scripted"]
)
def test_a_name_that_only_resembles_a_row_is_not_priced(asked: str) -> None:
    assert table.lookup(asked) is None


def test_prices_from_the_table_for_a_hosted_model() -> None:
    pricing = pricing_for(
        ModelProfile(base_url="https://api.anthropic.com", model="claude-sonnet-4-5-20250929")
    )
    assert pricing.prices == SONNET and pricing.source.startswith("table 2025-09-29 https://")
    # 1000 uncached, 3000 cached, 2000 written, 100 out, by hand:
    # 1000*3 + 3000*0.3 + 2000*3.75 + 100*15 = 3000 + 900 + 7500 + 1500 = 12900 per million
    assert pricing.cost(Usage(1000, 3000, 2000, 100)) == pytest.approx(0.0129)


def test_config_prices_win_over_the_table_even_all_zero(tmp_path: Path) -> None:
    person_config(
        '[models.main]\nbase_url = "https://api.openai.com/v1"\nmodel = "gpt-4o"\n'
        "[models.main.prices]\ninput = 0\n"
    )
    settings = load_settings(tmp_path, env={})
    profile = settings.models["main"]
    assert (
        pricing_for(profile, settings).prices == Prices()
        and pricing_for(profile, settings).source == "config"
    )
    assert pricing_for(profile).prices == table.lookup("gpt-4o").prices  # type: ignore[union-attr]
    custom = ModelProfile(model="gpt-4o", prices=Prices(input=1.0, output=2.0))
    assert pricing_for(custom).prices == Prices(input=1.0, output=2.0)


def test_an_unknown_hosted_model_is_unknown_and_a_local_one_free() -> None:
    unknown = pricing_for(ModelProfile(base_url="https://llm.example.com/v1", model="mystery-7"))
    assert not unknown.known and unknown.cost(Usage(10, 0, 0, 10)) is None
    local = pricing_for(ModelProfile(base_url="http://127.0.0.1:8080/v1", model="qwen2.5-coder:7b"))
    assert local.known and local.source == "local" and local.cost(Usage(10**6, 0, 0, 10**6)) == 0.0
    # A rented GPU at $1.80 an hour: a 90-second request costs 1.80 * 90 / 3600 = $0.045.
    gpu = pricing_for(
        ModelProfile(base_url="http://10.0.0.5:8000/v1", model="big", price_per_hour=1.8)
    )
    assert gpu.cost(Usage(5000, 0, 0, 500), duration_s=90.0) == pytest.approx(0.045)


@pytest.mark.parametrize(
    ("url", "local"),
    [("http://127.0.0.1:8080/v1", True), ("http://localhost:11434", True), ("http://[::1]:1234/v1", True),
     ("https://api.openai.com/v1", False), ("not a url", False)],
)  # fmt: skip
def test_is_local(url: str, local: bool) -> None:
    assert is_local(url) is local


def test_price_per_hour_is_a_setting(tmp_path: Path) -> None:
    person_config(
        '[models.main]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\nprice_per_hour = 2.5\n'
    )
    assert load_settings(tmp_path, env={}).models["main"].price_per_hour == 2.5


def person_config(text: str) -> None:
    """The person's own config.toml: prices are theirs to set (a repository's file needs trust)."""
    paths.user_config_file().parent.mkdir(parents=True, exist_ok=True)
    paths.user_config_file().write_text(text)


@pytest.mark.parametrize(
    ("asked", "prices", "source"),
    [
        ("gpt-5.1-2025-11-13", (1.25, 0.125, 10.0), "developers.openai.com"),
        ("claude-opus-5", (5.0, 0.5, 25.0), "platform.claude.com"),
        ("claude-sonnet-5", (2.0, 0.2, 10.0), "platform.claude.com"),
        ("deepseek-flash", (0.30, 0.006, 1.20), "api-docs.deepseek.com"),  # the peak rate
        ("deepseek-v4-pro", (1.32, 0.044, 3.96), "api-docs.deepseek.com"),
    ],
)
def test_todays_models_are_priced_from_their_providers_pages(
    asked: str, prices: tuple[float, float, float], source: str
) -> None:
    row = table.lookup(asked)
    assert row is not None and row.date == "2026-12-05" and source in row.source
    assert (row.prices.input, row.prices.cached_input, row.prices.output) == prices


@pytest.mark.parametrize(
    "asked", ["gpt-5.2", "gpt-5.5", "claude-sonnet-5-5", "gemini-3-pro-preview", "kimi-k2.6"]
)
def test_a_price_read_only_on_others_pages_is_left_out(asked: str) -> None:
    assert table.lookup(asked) is None
