"""Qwen2.5-Coder (1.5B, llama-cpp-python) writes regex arguments as Python raw strings."""

from __future__ import annotations

from agent.llm.base import ToolSpec
from agent.llm.recovery import recover_calls

SEARCH = ToolSpec(
    "search",
    "search files",
    {
        "type": "object",
        "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}},
        "required": ["pattern"],
    },
)

# Verbatim from a live run with the local model.
REPLY = '```json\n{\n  "name": "search",\n  "arguments": {\n    "pattern": r"temperature\\(\\)",\n    "path": "temperature.py"\n  }\n}\n```'


def test_a_raw_string_argument_is_recovered_with_its_backslashes_kept() -> None:
    recovery = recover_calls(REPLY, [SEARCH])
    assert recovery.problems == []
    [call] = recovery.calls
    assert call.arguments == {"pattern": "temperature\\(\\)", "path": "temperature.py"}
    assert call.recovered_from_text


def test_an_r_inside_an_ordinary_string_is_left_alone() -> None:
    text = (
        '```json\n{"name": "search", "arguments": {"pattern": "for r\\"x\\"", "path": "a.py"}}\n```'
    )
    [call] = recover_calls(text, [SEARCH]).calls
    assert call.arguments["pattern"] == 'for r"x"'
