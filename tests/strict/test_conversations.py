"""Through every profile, a client that does what each provider asks (plain httpx, the
way kiln's clients should) gets a four-request scripted fix with tool calls through with
no request refused, and every reply's usage recorded. The proof that the rules refuse only
what breaks them, and a reference for what each wire needs sent back."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.strict import StrictServer
from tests.strict.talk import post

FIX: list[dict[str, Any]] = [
    {
        "text": "Looking.",
        "reasoning": "Read first",
        "tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}],
    },
    {
        "tool_calls": [
            {
                "name": "edit_file",
                "arguments": {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"},
            }
        ]
    },
    {"tool_calls": [{"name": "run_tests", "arguments": {}}]},
    {"text": "add() adds now."},
]
TASK = "make the failing test pass"
SCHEMA = {"type": "object", "properties": {}}
NAMES = ("read_file", "edit_file", "run_tests")
CHAT_TOOLS = [{"type": "function", "function": {"name": n, "parameters": SCHEMA}} for n in NAMES]

CHAT_PROFILES = [
    ("openai", "gpt-5", {"max_completion_tokens": 4000, "reasoning_effort": "high"}),
    ("openai", "gpt-5.4", {"max_completion_tokens": 4000}),
    ("openai", "gpt-5.6-terra", {"reasoning_effort": "none"}),
    ("gemini", "gemini-3-pro-preview", {"reasoning_effort": "high"}),
    ("deepseek", "deepseek-reasoner", {}),
    ("kimi", "kimi-k2-thinking", {}),
    ("kimi", "kimi-k2.5", {"temperature": 1}),
    ("vllm-no-auto-tools", "Qwen/Qwen2.5-Coder-7B-Instruct", {"tool_choice": "required"}),
    ("ollama", "qwen2.5-coder:7b", {}),
    ("llamacpp", "qwen2.5-coder-7b-instruct", {}),
]


@pytest.mark.parametrize(
    ("profile", "model", "extra"), CHAT_PROFILES, ids=[f"{p}-{m}" for p, m, _ in CHAT_PROFILES]
)
def test_chat_completions_fix_goes_through(profile: str, model: str, extra: dict[str, Any]) -> None:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You fix code."},
        {"role": "user", "content": TASK},
    ]
    with StrictServer(profile, FIX, model=model) as server:
        for _ in FIX:
            reply = post(
                server,
                "/chat/completions",
                {"model": model, "messages": messages, "tools": CHAT_TOOLS, **extra},
            )
            assert reply.status_code == 200, reply.text
            said = reply.json()["choices"][0]["message"]
            messages.append(said)  # whole: reasoning_content, extra_content and all
            for call in said.get("tool_calls") or []:
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": "ok"})
    assert said["content"] == "add() adds now."
    assert server.refusals == [] and server.turns_served == 4
    assert [u.prompt for u in server.usage_reported] == [
        u.raw.get("prompt_tokens", u.prompt) for u in server.usage_reported
    ]
    assert len(server.usage_reported) == 4 and all(u.output > 0 for u in server.usage_reported)


def test_vllm_without_tools_gets_text_tool_calls_through() -> None:
    model = "Qwen/Qwen2.5-Coder-7B-Instruct"
    messages: list[dict[str, Any]] = [{"role": "user", "content": TASK}]
    with StrictServer("vllm-no-auto-tools", FIX) as server:
        for _ in FIX:
            said = post(server, "/chat/completions", {"model": model, "messages": messages}).json()[
                "choices"
            ][0]["message"]
            messages += [said, {"role": "user", "content": "result: ok"}]
    assert server.refusals == [] and "<tool_call>" in messages[1]["content"]


@pytest.mark.parametrize("model", ["gpt-5-codex", "gpt-5.4", "gpt-5"])
def test_responses_stateless_fix_goes_through(model: str) -> None:
    tools = [{"type": "function", "name": n, "parameters": SCHEMA, "strict": False} for n in NAMES]
    items: list[dict[str, Any]] = [{"role": "user", "content": TASK}]
    with StrictServer("openai-responses", FIX) as server:
        for _ in FIX:
            body = {
                "model": model, "instructions": "You fix code.", "input": items, "tools": tools,
                "store": False, "include": ["reasoning.encrypted_content"],
                "reasoning": {"effort": "high", "summary": "auto"}, "max_output_tokens": 4000,
            }  # fmt: skip
            reply = post(server, "/responses", body)
            assert reply.status_code == 200, reply.text
            output = reply.json()["output"]
            items += output
            items += [
                {"type": "function_call_output", "call_id": i["call_id"], "output": "ok"}
                for i in output
                if i["type"] == "function_call"
            ]
    assert output[-1]["content"][0]["text"] == "add() adds now."
    assert server.refusals == [] and server.turns_served == 4
    assert all(u.reasoning > 0 for u in server.usage_reported)
    assert all(u.cached > 0 for u in server.usage_reported[1:])


@pytest.mark.parametrize("beta", ["", "interleaved-thinking-2025-05-14"])
def test_anthropic_thinking_fix_goes_through(beta: str) -> None:
    headers = {
        "x-api-key": "k",
        "anthropic-version": "2023-06-01",
        **({"anthropic-beta": beta} if beta else {}),
    }
    tools = [{"name": n, "input_schema": SCHEMA} for n in NAMES]
    tools[-1]["cache_control"] = {"type": "ephemeral"}
    messages: list[dict[str, Any]] = [{"role": "user", "content": TASK}]
    with StrictServer("anthropic", FIX) as server:
        for _ in FIX:
            body = {
                "model": "claude-sonnet-4-5", "max_tokens": 8000, "tools": tools, "messages": messages,
                "system": [{"type": "text", "text": "You fix code.", "cache_control": {"type": "ephemeral"}}],
                "thinking": {"type": "enabled", "budget_tokens": 4000},
            }  # fmt: skip
            reply = post(server, "/messages", body, headers)
            assert reply.status_code == 200, reply.text
            content = reply.json()["content"]
            messages.append({"role": "assistant", "content": content})
            results = [
                {"type": "tool_result", "tool_use_id": b["id"], "content": "ok"}
                for b in content
                if b["type"] == "tool_use"
            ]
            if results:
                messages.append({"role": "user", "content": results})
        models = httpx.get(server.base_url + "/models")
    assert content[-1] == {"type": "text", "text": "add() adds now."}
    assert models.status_code == 401  # no key: the real API refuses it too
    assert server.reply_refusals == [] and [r.rule for r in server.refusals] == ["C11"]
    assert server.turns_served == 4
    assert all(u.cached > 0 for u in server.usage_reported[1:])
