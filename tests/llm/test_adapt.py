"""The refusals kiln adapts to (`agent/llm/adapt.py`), read from the providers' own error
bodies (the texts of `shared/reference/hosted-api-rules.md`), and the one sentence when it
cannot adapt."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent.llm.adapt import Fix, Refusal, Situation, fix_for, nearest_effort, refused_sentence
from agent.llm.choices import WireChoices, chat_choices
from agent.llm.facts import facts_for
from agent.llm.retry import RequestRefused, error_fields, status_error


def openai_error(message: str, param: str | None = None, code: str | None = None) -> str:
    error = {"message": message, "type": "invalid_request_error", "param": param, "code": code}
    return json.dumps({"error": error})


def gemini_error(message: str) -> str:
    return json.dumps([{"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}])


A1 = openai_error(
    "Unsupported parameter: 'max_tokens' is not supported with this model. "
    "Use 'max_completion_tokens' instead.",
    "max_tokens",
    "unsupported_parameter",
)
A2 = openai_error(
    "Unsupported value: 'temperature' does not support 0 with this model. "
    "Only the default (1) value is supported.",
    "temperature",
    "unsupported_value",
)
A4 = openai_error(
    "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. "
    "Supported values are: 'none', 'low', 'medium', and 'high'.",
    "reasoning_effort",
    "unsupported_value",
)
A5 = openai_error(
    "Function tools with reasoning_effort are not supported for gpt-5.4 in "
    "/v1/chat/completions. Please use /v1/responses instead.",
    "reasoning_effort",
)
A6 = openai_error(
    "Function tools with reasoning_effort are not supported for gpt-5.6-terra in "
    "/v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort "
    "to 'none'.",
    "reasoning_effort",
)
B1 = openai_error(
    "This model is only supported in v1/responses and not in v1/chat/completions.", "model"
)
D1 = gemini_error(
    "Function call is missing a thought_signature in functionCall parts. This is required for "
    "tools to work correctly, and missing thought_signature may lead to degraded model "
    "performance. Additional data, function call `default_api:mcp_everything_echo` , position "
    "2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
)
D3 = gemini_error("Invalid reasoning_effort: minimal. Valid values are: high, low, medium, none")
E1 = json.dumps(
    {
        "error": {
            "message": "The reasoning_content is an intermediate result for display purposes only "
            "and will not be included in the context for inference. Please remove the "
            "reasoning_content from your message to reduce network traffic.",
            "type": "invalid_request_error",
        }
    }
)
E2 = openai_error("Missing `reasoning_content` field in the assistant message at message index 2")
E3 = openai_error(
    "The `reasoning_content` in the thinking mode must be passed back to the API.",
    None,
    "invalid_request_error",
)
F1 = json.dumps(
    {
        "error": {
            "message": "thinking is enabled but reasoning_content is missing in assistant tool "
            "call message at index 2",
            "type": "invalid_request_error",
        }
    }
)
F2 = json.dumps(
    {
        "error": {
            "message": "invalid temperature: only 1 is allowed for this model",
            "type": "invalid_request_error",
        }
    }
)
G1 = json.dumps(
    {
        "error": {
            "message": '"auto" tool choice requires --enable-auto-tool-choice and '
            "--tool-call-parser to be set",
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        }
    }
)
G1_OLD = json.dumps(
    {
        "object": "error",
        "message": '"auto" tool choice requires --enable-auto-tool-choice and '
        "--tool-call-parser to be set",
        "type": "BadRequestError",
        "param": None,
        "code": 400,
    }
)

# Ollama's /v1 for a model whose template has no tools (ollama/ollama#6027)
OLLAMA_NO_TOOLS = json.dumps(
    {
        "error": {
            "message": "stablelm2:latest does not support tools",
            "type": "api_error",
            "param": None,
            "code": None,
        }
    }
)


def refusal(body: str, status: int = 400) -> Refusal:
    error = status_error(status, body, "http://127.0.0.1:1/v1", "")
    assert isinstance(error, RequestRefused) and error.status == status and error.body == body
    return Refusal.of(error)


def situation(model: str = "m", **overrides: Any) -> Situation:
    fields: dict[str, Any] = {
        "model": model,
        "base_url": "http://127.0.0.1:1/v1",
        "choices": chat_choices(facts_for(model), ""),
        "tools_sent": True,
        "signatures_kept": False,
        "on_responses": False,
    }
    fields.update(overrides)
    return Situation(**fields)


def test_error_bodies_of_every_shape_are_read() -> None:
    assert error_fields(A1)[1:] == ("max_tokens", "unsupported_parameter")
    assert error_fields(D3)[0].startswith("Invalid reasoning_effort: minimal")  # a JSON list
    assert error_fields(G1_OLD)[0].startswith('"auto" tool choice')  # vLLM's older flat body
    assert error_fields(G1)[1:] == ("", "")  # code 400 is a number, not a code
    assert error_fields("Bad Gateway") == ("Bad Gateway", "", "")
    # The one sentence quotes Gemini's message, not the list it came in.
    message = status_error(400, D3, "http://h/v1", "").message  # type: ignore[attr-defined]
    assert "(400: Invalid reasoning_effort: minimal" in message


@pytest.mark.parametrize(
    ("body", "status", "choices", "expected"),
    [
        (A1, 400, WireChoices(), ("output_param", "max_completion_tokens")),  # A1
        (A2, 400, WireChoices(), ("temperature", "none")),  # A2
        (F2, 400, WireChoices(), ("temperature", "1")),  # F2: the value it takes
        (A4, 400, WireChoices(effort="minimal"), ("effort", "low")),  # A4: nearest listed
        (D3, 400, WireChoices(effort="minimal"), ("effort", "low")),  # D3
        (A4, 400, WireChoices(effort="xhigh"), ("effort", "high")),
        (A5, 400, WireChoices(effort="high"), ("api", "responses")),  # A5
        (A6, 400, WireChoices(), ("api", "responses")),  # A6: no effort sent at all
        (B1, 404, WireChoices(), ("api", "responses")),  # B1
        (E2, 400, WireChoices(), ("reasoning_back", True)),  # E2
        (E3, 400, WireChoices(), ("reasoning_back", True)),  # E3
        (F1, 400, WireChoices(), ("reasoning_back", True)),  # F1
        (E1, 400, WireChoices(reasoning_back=True), ("reasoning_back", False)),  # E1
        (G1, 400, WireChoices(), ("tools", "text")),  # G1
        (G1_OLD, 400, WireChoices(), ("tools", "text")),
        (OLLAMA_NO_TOOLS, 400, WireChoices(), ("tools", "text")),
    ],
)
def test_each_refusal_names_its_fix(
    body: str, status: int, choices: WireChoices, expected: tuple[str, Any]
) -> None:
    found = fix_for(refusal(body, status), situation("acme-1", choices=choices))
    assert isinstance(found, Fix) and (found.kind, found.value) == expected
    assert found.said.startswith(("acme-1 ", "the server at")) and "from now on" in found.said


def test_what_was_said_reads_as_one_note() -> None:
    found = fix_for(refusal(A1), situation("gpt-5", choices=WireChoices()))
    assert isinstance(found, Fix)
    assert found.said == "gpt-5 refused max_tokens: kiln sends max_completion_tokens from now on"


def test_nothing_to_change_is_no_fix() -> None:
    # Already what the refusal asks for: no fix (the caller says the one sentence).
    assert fix_for(refusal(A2), situation(choices=WireChoices(temperature="none"))) is None
    assert fix_for(refusal(E3), situation(choices=WireChoices(reasoning_back=True))) is None
    assert fix_for(refusal(E1), situation(choices=WireChoices())) is None
    assert fix_for(refusal(A4), situation(choices=WireChoices())) is None  # no effort sent
    assert fix_for(refusal(G1), situation(tools_sent=False)) is None
    assert fix_for(refusal(B1, 404), situation(on_responses=True)) is None
    assert fix_for(refusal(A1), situation(choices=None)) is None


def test_a_missing_thought_signature_is_sent_when_kept_else_one_sentence() -> None:
    kept = fix_for(refusal(D1), situation("gemini-x", choices=WireChoices(), signatures_kept=True))
    assert isinstance(kept, Fix) and (kept.kind, kept.value) == ("extras_back", True)
    lost = fix_for(refusal(D1), situation("gemini-3-pro-preview", signatures_kept=False))
    assert isinstance(lost, str) and lost.endswith("start a new session with this model.")
    assert "cannot make up after the fact" in lost and "Function call is missing" in lost


def test_effort_nearest_the_refused_one() -> None:
    assert nearest_effort("minimal", ["none", "low", "medium", "high"]) == "low"  # tie: higher
    assert nearest_effort("max", ["low", "medium", "high"]) == "high"
    assert nearest_effort("high", ["high"]) == ""  # the refused one is no answer
    assert nearest_effort("low", []) == ""
    none_listed = openai_error("Unsupported value: 'low'.", "reasoning_effort", "unsupported_value")
    found = fix_for(refusal(none_listed), situation(choices=WireChoices(effort="low")))
    assert isinstance(found, Fix) and found.value == ""
    assert found.said.endswith("kiln sends none from now on")


@pytest.mark.parametrize(
    ("body", "names", "advice"),
    [
        (A2, "refused temperature for gpt-5", "temperature = -1"),
        (A4, "refused reasoning_effort for gpt-5", 'effort = ""'),
        (A1, "refused max_tokens for gpt-5", "max_output_tokens"),
        (G1, "refused tools for gpt-5", 'tool_protocol = "text"'),
        (B1, "refused model for gpt-5", 'wire_api = "responses"'),
    ],
)
def test_a_refusal_kiln_cannot_adapt_to_is_one_sentence(body: str, names: str, advice: str) -> None:
    r = refusal(body, 404 if body == B1 else 400)
    sentence = refused_sentence(r, situation("gpt-5"), "fallback")
    assert sentence.startswith("The model server at http://127.0.0.1:1/v1 " + names)
    assert advice in sentence and r.short in sentence and sentence.endswith(".")


def test_a_refusal_naming_no_parameter_keeps_the_usual_sentence() -> None:
    r = refusal(openai_error("Something else went wrong."))
    assert refused_sentence(r, situation(), "the usual one") == "the usual one"
