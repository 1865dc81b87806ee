"""What OpenAI's API checks per model: reasoning, the effort values it takes, its default
effort, whether chat completions serves it, and what it says of function tools with an
effort. Rules file ids in each row's comment; a model matches its first pattern."""

from __future__ import annotations

import re
from dataclasses import dataclass

O_SERIES = ("low", "medium", "high")
GPT5 = ("minimal", "low", "medium", "high")
GPT51 = ("none", "low", "medium", "high")
GPT52 = ("none", "low", "medium", "high", "xhigh")


@dataclass(frozen=True)
class OpenAIModel:
    reasoning: bool = False
    efforts: tuple[str, ...] = ()
    default_effort: str | None = None
    responses_only: bool = False
    # A5: function tools refused with an effort other than none (sent).
    # A6: function tools refused unless "none" was sent (the default applies otherwise).
    tools_with_effort: str = ""  # "" | "A5" | "A6"


_TABLE: list[tuple[str, OpenAIModel]] = [
    # B1: Responses-only models (tmuxai#82, goose#2564, vscode-openai#358). A4: gpt-5-pro
    # takes high only (openai-python completion_create_params.py reasoning_effort docstring).
    (r"gpt-5-pro", OpenAIModel(True, ("high",), "high", responses_only=True)),
    (r"o[13]-pro", OpenAIModel(True, O_SERIES, "medium", responses_only=True)),
    (r"codex-mini", OpenAIModel(True, O_SERIES, "medium", responses_only=True)),
    # not confirmed: codex models' effort lists (no 'minimal' on gpt-5-codex, xhigh on
    # gpt-5.1-codex-max and later codex models) and that codex models after 5.1 are
    # Responses-only like the ones B1 names.
    (r"gpt-5\.1-codex-max", OpenAIModel(True, (*O_SERIES, "xhigh"), "medium", responses_only=True)),
    (r"gpt-5(\.1)?-codex", OpenAIModel(True, O_SERIES, "medium", responses_only=True)),
    (r"gpt-5\.\d+-codex", OpenAIModel(True, GPT52[1:], "medium", responses_only=True)),
    # A6: gpt-5.6 family (webmcp-tools#417, joplin#16451). A4: 'max' in the spec's list.
    (r"gpt-5\.6", OpenAIModel(True, (*GPT52, "max"), "none", tools_with_effort="A6")),
    # A5: gpt-5.2 and gpt-5.4 (pipecat#4043, openai-openapi#541, livekit/agents#5088);
    # not confirmed: 5.3 and 5.5 behave as 5.2 and 5.4 do.
    (r"gpt-5\.[2-5]", OpenAIModel(True, GPT52, "none", tools_with_effort="A5")),
    # A4: gpt-5.1 none/low/medium/high, default none (opencode#4451).
    (r"gpt-5\.1", OpenAIModel(True, GPT51, "none")),
    # not confirmed: gpt-5-chat(-latest) is a non-reasoning chat model.
    (r"gpt-5-chat", OpenAIModel()),
    # A4: gpt-5, -mini, -nano minimal/low/medium/high, default medium.
    (r"gpt-5", OpenAIModel(True, GPT5, "medium")),
    # A4: o-series low/medium/high.
    (r"o[1-9]", OpenAIModel(True, O_SERIES, "medium")),
]


def openai_model(name: str) -> OpenAIModel:
    """The row for `name` (dated ids such as gpt-5-2025-08-07 match their family)."""
    bare = name.split("/")[-1]
    for pattern, row in _TABLE:
        if re.match(pattern + r"($|[-.:])", bare):
            return row
    return OpenAIModel()


def effective_effort(row: OpenAIModel, sent: object) -> str | None:
    return sent if isinstance(sent, str) else row.default_effort
