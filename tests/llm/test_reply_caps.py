"""Must hold: one model reply past kiln's size cap (text, reasoning or tool arguments) or
streaming past its time cap is cut off with one sentence and never sent for again, on
every backend; a reply within the caps is untouched. The scripted server streams the big
and the slow replies over real HTTP."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agent.llm.anthropic import AnthropicClient
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.reply_caps import MAX_REPLY_BYTES, ReplyCapped, ReplyCaps
from agent.llm.scripted.server import ScriptedServer
from agent.llm.text_protocol import TextProtocolClient
from tests.conftest import make_git_repo
from tests.e2e.test_kiln_run import KILN
from tests.llm.streams import TOOLS, USER, collect

# About 100 KB past the cap, in long words so the stream has a few thousand frames.
BIG_TEXT = ("w" * 99 + " ") * (MAX_REPLY_BYTES // 100 + 1_000)
BIG_EDIT = {"name": "edit_file", "arguments": {"path": "a.py", "old_text": "x", "new_text": BIG_TEXT}}  # fmt: skip


def openai(server: ScriptedServer, caps: ReplyCaps | None = None) -> OpenAICompatClient:
    profile = ModelProfile(base_url=server.base_url, model="m", tool_protocol="native")
    given = {"caps": caps} if caps else {}  # none given: kiln's own caps
    return OpenAICompatClient(profile, env={}, backoff_base_s=0.01, **given)


def anthropic(server: ScriptedServer, caps: ReplyCaps | None = None) -> AnthropicClient:
    profile = ModelProfile(provider="anthropic", base_url=server.base_url, model="claude-x")
    given = {"caps": caps} if caps else {}
    return AnthropicClient(profile, env={"KILN_API_KEY": "k"}, backoff_base_s=0.01, **given)


async def cut_off(client: Any) -> str:
    with pytest.raises(ReplyCapped) as caught:
        await collect(client, USER, TOOLS)
    await client.aclose()
    return caught.value.message


@pytest.mark.parametrize("backend", [openai, anthropic])
@pytest.mark.parametrize("turn", [{"text": BIG_TEXT}, {"tool_calls": [BIG_EDIT]},
                                  {"reasoning": BIG_TEXT, "text": "ok"}])  # fmt: skip
async def test_a_reply_past_the_size_cap_is_cut_off_once(backend: Any, turn: dict) -> None:
    with ScriptedServer([turn, {"text": "never asked for"}]) as server:
        message = await cut_off(backend(server))
        assert len(server.requests) == 1  # not retried
    assert message.startswith("The model's reply passed 512 KB") and message.count(". ") == 0


async def test_the_text_protocol_is_capped_through_its_backend() -> None:
    with ScriptedServer([{"text": BIG_TEXT}]) as server:
        message = await cut_off(TextProtocolClient(openai(server)))
        assert len(server.requests) == 1
    assert "cut it off" in message


@pytest.mark.parametrize("backend", [openai, anthropic])
async def test_a_reply_streaming_past_the_time_cap_is_cut_off_once(backend: Any) -> None:
    slow = {"text": "one two " * 200, "stream_delay_s": 0.05}  # 200 frames: ten seconds
    with ScriptedServer([slow]) as server:
        message = await cut_off(backend(server, ReplyCaps(max_s=1.0)))
        assert len(server.requests) == 1  # not retried
    assert message.startswith("The model's reply was still streaming after 1 s")


@pytest.mark.parametrize("backend", [openai, anthropic])
async def test_a_reply_within_the_caps_is_untouched(backend: Any) -> None:
    text = "word " * (MAX_REPLY_BYTES // 10)  # half the cap
    with ScriptedServer([{"text": text, "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}]}]) as server:  # fmt: skip
        client = backend(server)
        got = await collect(client, USER, TOOLS)
        await client.aclose()
    assert got.completion.message.content == text
    assert got.completion.message.tool_calls[0].arguments == {"path": "a.py"}


def test_kiln_run_ends_with_one_sentence_and_its_json(docker_ready: None, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    write = {"name": "write_file", "arguments": {"path": "big.py", "content": BIG_TEXT}}
    with ScriptedServer([{"tool_calls": [write]}, {"text": "again"}]) as server:
        done = subprocess.run(
            [KILN, "run", "write it", "--repo", str(repo), "--output-format", "json",
             "--base-url", server.base_url, "--model", "m"],
            capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        asked = [r for r in server.requests if r.path.endswith("/chat/completions")]
    result = json.loads(done.stdout)
    assert "Traceback" not in done.stderr
    assert result["stop_reason"] == "model_error" and done.returncode == 6
    assert result["summary"].startswith("The model's reply passed 512 KB")
    assert len(asked) == 1 and result["files_changed"] == []
