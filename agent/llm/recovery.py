"""Tolerant tool calls: recover calls that a model wrote into its reply text.

Small local models often write the call as text instead of using native tool calls:
Qwen2.5-Coder on llama.cpp writes a fenced ```json {"name": ..., "arguments": ...}```
block, others use `<tool_call>` tags, bare JSON, or `{"function": ..., "parameters": ...}`.
A call is recovered only when it names an offered tool and its arguments validate against
that tool's JSON schema (required keys, basic types). A reply that clearly tried a call
but cannot be used (unknown tool, bad JSON, invalid arguments) yields a `FormatProblem`
whose correction says exactly what was wrong and the exact format expected.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from agent.llm.base import FormatProblem, ToolCall, ToolSpec

_FENCE = re.compile(r"```[ \t]*([\w-]*)[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.S)
CALL_LANGUAGES = {"", "json", "json5", "jsonc", "tool_call", "tool", "function", "tool_code"}
_NAME_KEYS = ("name", "function", "tool", "tool_name")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_LOOKS_LIKE_CALL = re.compile(r'\{\s*"(?:name|function|tool)"\s*:')
_MISSING = object()
# strict=False: small models copy tabs and newlines from file contents into strings raw.
_DECODER = json.JSONDecoder(strict=False)


@dataclass
class Recovery:
    """The tool calls recovered from a reply's text, the problems to correct, the text left."""

    calls: list[ToolCall] = field(default_factory=list)
    problems: list[FormatProblem] = field(default_factory=list)
    text: str = ""  # the reply with recovered call snippets taken out


def recover_calls(text: str, tools: list[ToolSpec]) -> Recovery:
    """Find tool calls written as text; recover the valid ones, explain the rest."""
    by_name = {t.name: t for t in tools}
    result = Recovery(text=text)
    if not tools or not text.strip():
        return result
    claimed: list[tuple[int, int]] = []
    recovered: list[tuple[int, int]] = []
    for start, end, raw, explicit in _candidates(text):
        if any(s <= start < e for s, e in claimed):
            continue
        outcome = _interpret(raw, explicit, by_name)
        if outcome is None:
            continue
        claimed.append((start, end))
        if isinstance(outcome, FormatProblem):
            result.problems.append(outcome)
        else:
            result.calls.extend(outcome)
            recovered.append((start, end))
    broken = "" if claimed else _broken_bare_call(text)
    if broken:
        result.problems.append(_problem_bad_json(None, f"it is not valid JSON ({broken})", by_name))
    if recovered:
        pieces, cursor = [], 0
        for start, end in sorted(recovered):
            pieces.append(text[cursor:start])
            cursor = end
        pieces.append(text[cursor:])
        result.text = re.sub(r"\n{3,}", "\n\n", "".join(pieces)).rstrip()
    return result


def _broken_bare_call(text: str) -> str:
    """`{"name": ...` that never becomes valid JSON: a call attempt; "" when there is none."""
    for match in _LOOKS_LIKE_CALL.finditer(text):
        try:
            _DECODER.raw_decode(text, match.start())
        except ValueError as exc:
            return str(exc)
    return ""


def check_native_call(
    name: str, arguments: str | dict[str, Any], tools: list[ToolSpec], call_id: str = ""
) -> ToolCall | FormatProblem:
    """Validate a native tool call; the same rules as recovered ones."""
    by_name = {t.name: t for t in tools}
    if name not in by_name:
        return _problem_unknown(name, by_name)
    if isinstance(arguments, str):
        try:
            parsed = _DECODER.decode(arguments) if arguments.strip() else {}
        except ValueError as exc:
            return _problem_bad_json(
                by_name[name], f"its arguments are not valid JSON ({exc})", by_name
            )
    else:
        parsed = arguments
    return _validated(name, parsed, by_name, call_id or _new_id(), recovered=False)


# --- finding candidates ----------------------------------------------------------------


def _candidates(text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, json text, explicit) in order; explicit = tags, always an attempt."""
    found: list[tuple[int, int, str, bool]] = []
    for m in _TAG.finditer(text):
        found.append((m.start(), m.end(), m.group(1), True))
    for m in _FENCE.finditer(text):
        if m.group(1).lower() in CALL_LANGUAGES and "<tool_call>" not in m.group(2):
            found.append((m.start(), m.end(), m.group(2).strip(), False))
    decoder = _DECODER
    index = 0
    while True:
        index = _next_brace(text, index)
        if index < 0:
            break
        try:
            _, end = decoder.raw_decode(text, index)
        except ValueError:
            index += 1
            continue
        found.append((index, end, text[index:end], False))
        index = end
    found.sort(key=lambda c: (c[0], -c[1]))
    return found


def _next_brace(text: str, start: int) -> int:
    positions = [p for p in (text.find("{", start), text.find("[", start)) if p >= 0]
    return min(positions) if positions else -1


def _interpret(
    raw: str, explicit: bool, by_name: dict[str, ToolSpec]
) -> list[ToolCall] | FormatProblem | None:
    """Calls, a problem, or None when the snippet is not an attempted call at all."""
    try:
        data = _loads_tolerant(raw)
    except ValueError as exc:
        if explicit or _LOOKS_LIKE_CALL.search(raw):
            return _problem_bad_json(None, f"it is not valid JSON ({exc})", by_name)
        return None
    items = data if isinstance(data, list) else [data]
    shaped = [_shape(item, by_name) for item in items]
    if not shaped or any(s is None for s in shaped):
        if explicit:
            return _problem_bad_json(None, "it does not have the expected shape", by_name)
        return None
    calls: list[ToolCall] = []
    for name, args in shaped:  # type: ignore[misc]
        if name not in by_name:
            return _problem_unknown(name, by_name)
        if isinstance(args, str):
            try:
                args = _DECODER.decode(args) if args.strip() else {}
            except ValueError as exc:
                return _problem_bad_json(
                    by_name[name], f"its arguments are not valid JSON ({exc})", by_name
                )
        checked = _validated(name, {} if args is _MISSING else args, by_name, _new_id(), True)
        if isinstance(checked, FormatProblem):
            return checked
        calls.append(checked)
    return calls


# Qwen2.5-Coder writes regex arguments as Python raw strings: "pattern": r"foo\(\)".
_RAW_STRING = re.compile(r'(?<=[:\[,])(\s*)r"([^"\n]*)"')


def _loads_tolerant(raw: str) -> Any:
    """json.loads, also accepting Python raw-string values (their backslashes are literal)."""
    try:
        return _DECODER.decode(raw)
    except ValueError:
        fixed = _RAW_STRING.sub(lambda m: m.group(1) + json.dumps(m.group(2)), raw)
        if fixed == raw:
            raise
        return _DECODER.decode(fixed)


def _shape(item: Any, by_name: dict[str, ToolSpec]) -> tuple[str, Any] | None:
    """(tool name, raw arguments) when `item` is shaped like a call."""
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("function"), dict):
        item = item["function"]
    name = next((item[k] for k in _NAME_KEYS if isinstance(item.get(k), str)), None)
    if name is None:
        return None
    args = next((item[k] for k in _ARG_KEYS if k in item), _MISSING)
    if args is _MISSING and name not in by_name:
        return None  # {"name": "my-package"} in a package.json is not a call
    return name, args


# --- validation -------------------------------------------------------------------------

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def validation_error(args: Any, schema: dict[str, Any], where: str = "") -> str | None:
    """The first way `args` breaks `schema`, as a phrase, or None when it fits."""
    if not isinstance(args, dict):
        return f"has arguments that are {_json_type(args)}, not a JSON object"
    props: dict[str, Any] = schema.get("properties", {})
    for key in schema.get("required", []):
        if key not in args:
            return f"is missing the required argument `{where}{key}`"
    if schema.get("additionalProperties") is False:
        for key in args:
            if key not in props:
                return f"has an unknown argument `{where}{key}` (allowed: {', '.join(props)})"
    for key, value in args.items():
        if key in props:
            problem = _value_error(value, props[key], f"{where}{key}")
            if problem:
                return problem
    return None


def _value_error(value: Any, schema: dict[str, Any], where: str) -> str | None:
    types = schema.get("type")
    names = [types] if isinstance(types, str) else list(types or [])
    if names and not any(_is_type(value, t) for t in names):
        wanted = " or ".join(names)
        return f"has argument `{where}` as {_json_type(value)}, but it must be {_article(wanted)}"
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(json.dumps(v) for v in schema["enum"])
        return f"has argument `{where}` = {json.dumps(value)}, but it must be one of {allowed}"
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            problem = _value_error(item, schema["items"], f"{where}[{i}]")
            if problem:
                return problem
    if isinstance(value, dict) and ("properties" in schema or "required" in schema):
        return validation_error(value, schema, f"{where}.")
    return None


def _is_type(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if isinstance(value, bool) and name != "boolean":
        return False
    return isinstance(value, _JSON_TYPES.get(name, (object,)))


def _json_type(value: Any) -> str:
    for name in ("boolean", "integer", "number", "string", "array", "object"):
        if _is_type(value, name):
            return _article(name)
    return "null"


def _article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _validated(
    name: str, args: Any, by_name: dict[str, ToolSpec], call_id: str, recovered: bool
) -> ToolCall | FormatProblem:
    tool = by_name[name]
    problem = validation_error(args, tool.parameters)
    if problem:
        return FormatProblem(
            f"Your call to `{name}` {problem}. {name} takes {signature(tool)}. "
            f"Call it again like this: {call_example(tool)}"
        )
    return ToolCall(id=call_id, name=name, arguments=args, recovered_from_text=recovered)


# --- corrections ------------------------------------------------------------------------


def signature(tool: ToolSpec) -> str:
    """`path: string, start_line?: integer` — the compact argument list of a tool."""
    props: dict[str, Any] = tool.parameters.get("properties", {})
    required = set(tool.parameters.get("required", []))
    parts = []
    for key, schema in props.items():
        kind = schema.get("type", "any")
        kind = "|".join(kind) if isinstance(kind, list) else kind
        parts.append(f"{key}{'' if key in required else '?'}: {kind}")
    return "(" + ", ".join(parts) + ")"


def call_example(tool: ToolSpec) -> str:
    props: dict[str, Any] = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", list(props)[:1])
    args = {key: _placeholder(props.get(key, {})) for key in required}
    return "```json\n" + json.dumps({"name": tool.name, "arguments": args}) + "\n```"


def _placeholder(schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    return {"integer": 1, "number": 1, "boolean": True, "array": [], "object": {}}.get(
        kind if isinstance(kind, str) else "", "..."
    )


def _problem_unknown(name: str, by_name: dict[str, ToolSpec]) -> FormatProblem:
    return FormatProblem(
        f"There is no tool named `{name}`. The tools are: {', '.join(by_name)}. "
        'Call one of them as {"name": "<tool>", "arguments": {...}} in a ```json block.'
    )


def _problem_bad_json(
    tool: ToolSpec | None, what: str, by_name: dict[str, ToolSpec]
) -> FormatProblem:
    target = f"Your call to `{tool.name}`" if tool else "Your tool call"
    example = (
        call_example(tool)
        if tool
        else '```json\n{"name": "<tool>", "arguments": {...}}\n```'
        + f" where <tool> is one of: {', '.join(by_name)}"
    )
    return FormatProblem(f"{target} could not be used: {what}. Write exactly: {example}")


def _new_id() -> str:
    return f"call_{os.urandom(6).hex()}"
