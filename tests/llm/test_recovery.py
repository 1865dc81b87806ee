"""Tool calls written as text: recovered when valid, corrected precisely when not."""

from __future__ import annotations

import json

import pytest

from agent.llm.base import ModelProfile, TextChunk
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.recovery import recover_calls
from agent.llm.recovery_stream import TextHold
from agent.llm.scripted.server import ScriptedServer
from tests.llm.streams import TOOLS, collect

ARGS = {"path": "src/dates.py", "start_line": 3}
WRAPPED = {
    "fenced": f'Let me read it.\n```json\n{{"name": "read_file", "arguments": {json.dumps(ARGS)}}}\n```',
    "tags": f'<tool_call>\n{{"name": "read_file", "arguments": {json.dumps(ARGS)}}}\n</tool_call>',
    "bare": f'{{"name": "read_file", "arguments": {json.dumps(ARGS)}}}',
    "function_parameters": f'{{"function": "read_file", "parameters": {json.dumps(ARGS)}}}',
    "openai_shape": f'{{"type": "function", "function": {{"name": "read_file", "arguments": {json.dumps(json.dumps(ARGS))}}}}}',
    "array": f'[{{"name": "read_file", "arguments": {json.dumps(ARGS)}}}, {{"name": "run", "arguments": {{"command": "ls"}}}}]',
}


@pytest.mark.parametrize("style", list(WRAPPED))
def test_each_text_style_is_recovered(style: str) -> None:
    result = recover_calls(WRAPPED[style], TOOLS)
    assert result.problems == []
    assert result.calls[0].name == "read_file" and result.calls[0].arguments == ARGS
    assert all(c.recovered_from_text for c in result.calls)
    assert "read_file" not in result.text  # the call is taken out of the visible reply


@pytest.mark.parametrize(
    "text",
    [
        'The config is:\n```json\n{"name": "my-app", "version": "1.0"}\n```',
        "```python\nsettings = {'name': 'x', 'arguments': 1}\n```",
        'Use a dict like {"a": 1} here.',
        "Plain prose with no call at all.",
    ],
)
def test_json_that_is_not_a_call_is_left_alone(text: str) -> None:
    result = recover_calls(text, TOOLS)
    assert (result.calls, result.problems, result.text) == ([], [], text)


def test_unknown_tool_lists_the_valid_names() -> None:
    [problem] = recover_calls(
        '```json\n{"name": "open_file", "arguments": {"path": "a"}}\n```', TOOLS
    ).problems
    assert problem.correction.startswith(
        "There is no tool named `open_file`. The tools are: read_file, edit_file, run, update_plan."
    )


def test_missing_key_wrong_type_and_bad_enum_are_named() -> None:
    def correction(call: dict) -> str:
        [problem] = recover_calls(f"<tool_call>{json.dumps(call)}</tool_call>", TOOLS).problems
        return problem.correction

    missing = correction({"name": "edit_file", "arguments": {"path": "a.py", "new_text": "y"}})
    assert missing.startswith(
        "Your call to `edit_file` is missing the required argument `old_text`."
    )
    assert (
        "edit_file takes (path: string, old_text: string, new_text: string, replace_all?: boolean)"
        in missing
    )
    assert (
        '{"name": "edit_file", "arguments": {"path": "...", "old_text": "...", "new_text": "..."}}'
        in missing
    )
    wrong = correction({"name": "run", "arguments": {"command": "ls", "timeout_s": "10"}})
    assert "has argument `timeout_s` as a string, but it must be a number" in wrong
    enum = correction(
        {"name": "update_plan", "arguments": {"steps": [{"title": "a", "status": "started"}]}}
    )
    assert (
        'argument `steps[0].status` = "started", but it must be one of "pending", "in_progress", "done"'
        in enum
    )


def test_bad_json_in_a_call_block_gets_the_exact_format() -> None:
    [problem] = recover_calls(
        '```json\n{"name": "run", "arguments": {"command": "ls"\n```', TOOLS
    ).problems
    assert "not valid JSON" in problem.correction
    assert '{"name": "<tool>", "arguments": {...}}' in problem.correction
    assert "read_file, edit_file, run, update_plan" in problem.correction


def test_text_hold_shows_prose_at_once_and_holds_call_blocks() -> None:
    hold = TextHold()
    shown = [hold.feed(p) for p in ["Looking ", "at it.\n", "``", '`json\n{"name"', ": 1}\n```"]]
    assert "".join(shown) == "Looking at it.\n"
    assert hold.finish() == '```json\n{"name": 1}\n```'
    code = TextHold()
    streamed = "```python\nx = {'a': 1}\n```\nok"
    assert "".join(code.feed(ch) for ch in streamed) + code.finish() == streamed
    assert code.held == ""  # a python block is never held


@pytest.mark.parametrize("style", ["fenced", "tags", "bare", "function_parameters"])
async def test_streamed_text_calls_are_recovered_and_never_shown(style: str) -> None:
    turn = {
        "text": "I will read the file.",
        "text_tool_call": style,
        "tool_calls": [{"name": "read_file", "arguments": ARGS}],
    }
    with ScriptedServer([turn]) as server:
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"), env={})
        got = await collect(client)
        await client.aclose()
    assert "tools" in server.requests[0].body  # native tools were offered; the model wrote text
    [call] = got.completion.message.tool_calls
    assert (call.name, call.arguments, call.recovered_from_text) == ("read_file", ARGS, True)
    assert got.completion.finish_reason == "tool_calls"
    assert "read_file" not in got.text
    assert got.text.startswith("I will read the file.")
    assert got.text.rstrip() == got.completion.message.content.rstrip()


async def test_unrecoverable_streamed_call_is_shown_and_corrected() -> None:
    turn = {"text_tool_call": "tags", "tool_calls": [{"name": "write_everything", "arguments": {}}]}
    with ScriptedServer([turn]) as server:
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"), env={})
        got = await collect(client)
        await client.aclose()
    assert got.completion.message.tool_calls == ()
    assert (
        "There is no tool named `write_everything`" in got.completion.format_problems[0].correction
    )
    assert "<tool_call>" in got.text  # released at the end: nothing the model said is lost
    assert all(isinstance(e, TextChunk) for e in got.events[:-1])


async def test_native_protocol_does_not_recover() -> None:
    turn = {
        "text_tool_call": "fenced",
        "tool_calls": [{"name": "run", "arguments": {"command": "ls"}}],
    }
    with ScriptedServer([turn]) as server:
        profile = ModelProfile(base_url=server.base_url, model="m", tool_protocol="native")
        client = OpenAICompatClient(profile, env={})
        got = await collect(client)
        await client.aclose()
    assert got.completion.message.tool_calls == () and '"name": "run"' in got.text
