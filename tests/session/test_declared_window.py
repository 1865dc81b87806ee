"""Which context window a session takes, and where it came from: the person's setting,
else kiln's model data for a hosted model (with no question to its API), else what the
server declares, else Claude's 200k, and the 32k default only for a server that says
nothing of a model kiln does not know."""

from __future__ import annotations

from pathlib import Path

from agent.llm.scripted.server import ScriptedServer
from agent.session.startup import declared_window
from agent.settings.config import MODEL_DATA, describe, load_settings
from tests.strict import StrictServer


async def window_for(repo: Path, **main: object) -> tuple[int, bool, int]:
    settings = load_settings(repo, {f"models.main.{k}": v for k, v in main.items()}, env={})
    window = await declared_window(settings.models["main"], settings)
    return window.tokens, window.known, window.reply_reserve


async def test_a_hosted_model_kiln_knows_takes_its_window_with_no_question(
    tmp_path: Path,
) -> None:
    with StrictServer("anthropic", []) as server:
        claude = await window_for(
            tmp_path, provider="anthropic", base_url=server.base_url, model=server.model,
            effort="high",
        )  # fmt: skip
        asked_claude = server.requests
    with StrictServer("openai-gpt5", []) as server:
        gpt5 = await window_for(tmp_path, base_url=server.base_url, model="gpt-5")
        asked_gpt5 = server.requests
    # Claude: 200k, and the reply keeps room for its thinking budget (24576 beside 32000,
    # cut to a quarter of the window).
    assert claude == (200000, True, 50000)
    assert gpt5 == (400000, True, 32000)
    assert asked_claude == [] and asked_gpt5 == []
    settings = load_settings(tmp_path, {"models.main.model": "gpt-5"}, env={})
    shown = {key: source for key, _, source in describe(settings)}
    assert shown["models.main.context_window"] == MODEL_DATA
    assert shown["models.main.max_output_tokens"] == MODEL_DATA


async def test_the_persons_window_stands_over_the_data_and_the_server(tmp_path: Path) -> None:
    with StrictServer("llamacpp", [], context=8192) as server:
        mine = await window_for(
            tmp_path, base_url=server.base_url, model="gpt-5", context_window=100000
        )
        assert server.requests == []
        served = await window_for(tmp_path, base_url=server.base_url, model=server.model)
    assert mine[:2] == (100000, True)
    assert served[:2] == (8192, True)


async def test_the_default_is_only_for_a_server_that_says_nothing(tmp_path: Path) -> None:
    with ScriptedServer({"turns": []}) as server:
        unknown = await window_for(tmp_path, base_url=server.base_url, model="house-model")
    assert unknown[:2] == (32768, False)
    # A Claude model kiln has no row for, through the Anthropic API: Claude's 200k.
    proxied = await window_for(
        tmp_path, provider="anthropic", base_url="http://127.0.0.1:9", model="house-claude"
    )
    assert proxied[:2] == (200000, True)
