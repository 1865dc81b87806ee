"""Adapting to what a server refuses: once, remembered for the session, said once.

`AdaptingClient` wraps the client of an OpenAI-compatible server (the factory puts it
around every one). When the server refuses a request with an error that names what it
wants instead, the client changes that and sends the request again at once (not a retry:
the retry budget is the new request's), yields `Adapted` with one sentence for the person,
and keeps the change for as long as it lives (the session's client). Each kind of change
is made at most once: a request refused again over the same thing, or over anything these
rules do not know, ends in one sentence naming the model, the parameter and what to set,
with the server's own message.

The rules (ids of `shared/reference/hosted-api-rules.md`):

| refused | kiln from then on |
| --- | --- |
| `max_tokens` unsupported, "Use 'max_completion_tokens'" (A1) | the parameter it names |
| `temperature` unsupported value (A2, A3) | no temperature; "only 1 is allowed" (F2): 1 |
| a `reasoning_effort` value (A4, D3) | the nearest value the error lists, or none |
| "only supported in v1/responses" (B1), tools with an effort (A5, A6) | the Responses API |
| `reasoning_content` missing or not passed back (E2, E3, F1) | the reasoning sent back |
| `reasoning_content` "is an intermediate result ... remove" (E1) | the reasoning kept back |
| a missing thought signature (D1) | the signatures kiln kept sent back; none kept: a sentence |
| "auto" tool choice needs `--enable-auto-tool-choice` (G1), Ollama's "does not support tools" | tool calls as text |

What is changed is the wire client's `choices` (`choices.py`), so any client that holds
one can be adapted; the Responses API client is switched to by `ResponsesClient(profile,
env=...)`, and text tool calls are `text_protocol.TextProtocolClient` around the client.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

from agent.errors import ModelError
from agent.llm.base import Adapted, Message, ModelClient, ModelEvent, ToolSpec
from agent.llm.choices import WireChoices
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.profile import EFFORT_WORDS
from agent.llm.retry import RequestRefused, error_fields
from sandbox.frozen import frozen

OUTPUT_PARAMS = ("max_completion_tokens", "max_tokens", "max_output_tokens")
# The other name of a reply's limit, when a server refuses one without naming its own.
OTHER_OUTPUT = {"max_tokens": "max_completion_tokens", "max_completion_tokens": "max_tokens"}
# How servers say they take no native tool calls: vLLM without --enable-auto-tool-choice
# (G1), Ollama for a model whose template has none (400 "MODEL does not support tools":
# ollama/ollama#6027, #5793). llama.cpp's "tools param requires --jinja flag" is a 500,
# retried as a server fault, never seen here.
NO_NATIVE_TOOLS = (
    '"auto" tool choice requires',
    "--enable-auto-tool-choice",
    "does not support tools",
)
# What each parameter's refusal tells the person to set, when kiln could not adapt.
ADVICE = {
    "temperature": "set temperature = -1 in the model profile so kiln sends none",
    "effort": 'set effort to one the model takes, or effort = "" to send none',
    "output": "set max_output_tokens in the model profile to what the model allows",
    "tools": 'set tool_protocol = "text" in the model profile',
    "api": 'set wire_api = "responses" in the model profile',
    "reasoning_content": (
        "start a new session with this model (replies in this conversation are missing "
        "the reasoning the server wants back)"
    ),
}


@frozen
class Refusal:
    """A refused request as the rules read it."""

    status: int
    message: str  # the server's own words
    param: str  # the parameter the error names ("" when it names none)
    code: str

    @property
    def text(self) -> str:
        return self.message.lower()

    @property
    def short(self) -> str:
        return " ".join(self.message.split())[:200].rstrip(".")

    @staticmethod
    def of(refused: RequestRefused) -> Refusal:
        message, param, code = error_fields(refused.body)
        return Refusal(refused.status, message, param, code)


@frozen
class Fix:
    """One change: a `WireChoices` field to a value, or "api" / "tools" to another client."""

    kind: str
    value: Any
    said: str


@frozen
class Situation:
    """What the rules need to know of the request that was refused."""

    model: str
    base_url: str
    choices: WireChoices | None  # None: the client has nothing to change
    tools_sent: bool
    signatures_kept: bool  # the conversation's tool calls carry what the server attached
    on_responses: bool


def fix_for(r: Refusal, s: Situation) -> Fix | str | None:
    """The change a refusal asks for, a sentence when it cannot be repaired, or None."""
    for rule in (_another_api, _text_tools, _signatures, _reasoning_back):
        found = rule(r, s)
        if found is not None:
            return found
    if s.choices is None:
        return None
    for param_rule in (_output_param, _temperature, _effort):
        fix = param_rule(r, s, s.choices)
        if fix is not None:
            return fix
    return None


def _another_api(r: Refusal, s: Situation) -> Fix | None:  # B1, A5, A6
    if "v1/responses" not in r.text or s.on_responses:
        return None
    if "function tools" in r.text:
        said = f"{s.model} takes tools with a reasoning effort only on the Responses API"
    else:
        said = f"{s.model} is served on the Responses API only"
    return Fix("api", "responses", f"{said}: kiln uses /v1/responses from now on")


def _text_tools(r: Refusal, s: Situation) -> Fix | None:  # G1
    if not s.tools_sent or not any(p in r.text for p in NO_NATIVE_TOOLS):
        return None
    said = f"the server at {s.base_url} takes no native tool calls for {s.model}"
    return Fix("tools", "text", f"{said}: kiln writes tool calls as text from now on")


def _signatures(r: Refusal, s: Situation) -> Fix | str | None:  # D1
    if "thought_signature" not in r.text and "thought signature" not in r.text:
        return None
    if s.choices is not None and not s.choices.extras_back and s.signatures_kept:
        said = f"{s.model} wants its thought signatures back"
        return Fix("extras_back", True, f"{said}: kiln sends them with its tool calls from now on")
    return (
        f"{s.model} refused the conversation ({r.status}: {r.short}): a tool call in it lacks "
        "the thought signature the model gave it, which kiln cannot make up after the fact; "
        "start a new session with this model."
    )


def _reasoning_back(r: Refusal, s: Situation) -> Fix | None:  # E1, E2, E3, F1
    if "reasoning_content" not in r.text or s.choices is None:
        return None
    if "intermediate result" in r.text or "remove" in r.text:  # E1
        if not s.choices.reasoning_back:
            return None
        said = f"{s.model} refused its reasoning sent back"
        return Fix("reasoning_back", False, f"{said}: kiln keeps it from the server from now on")
    if ("passed back" in r.text or "missing" in r.text) and not s.choices.reasoning_back:
        said = f"{s.model} wants its reasoning back"
        return Fix("reasoning_back", True, f"{said}: kiln sends reasoning_content from now on")
    return None


def _output_param(r: Refusal, s: Situation, c: WireChoices) -> Fix | None:  # A1
    sent = c.output_param
    named = r.param == sent or (not r.param and f"'{sent}'" in r.text)
    unsupported = r.code == "unsupported_parameter" or any(
        w in r.text for w in ("unsupported parameter", "not supported", "unrecognized")
    )
    if not named or not unsupported:
        return None
    hint = re.search(r"use '([a-z_]+)' instead", r.text)
    new = hint.group(1) if hint and hint.group(1) in OUTPUT_PARAMS else OTHER_OUTPUT.get(sent, "")
    if not new or new == sent:
        return None
    return Fix("output_param", new, f"{s.model} refused {sent}: kiln sends {new} from now on")


def _temperature(r: Refusal, s: Situation, c: WireChoices) -> Fix | None:  # A2, A3, F2
    if r.param != "temperature" and not (not r.param and "temperature" in r.text):
        return None
    only = re.search(r"only (\d+(?:\.\d+)?) is allowed", r.text)  # Kimi (F2)
    if only:
        value = only.group(1)
        if c.temperature not in ("any", "none") and float(c.temperature) == float(value):
            return None
        said = f"{s.model} takes temperature {value} only: kiln sends it from now on"
        return Fix("temperature", value, said)
    if c.temperature == "none":
        return None
    return Fix("temperature", "none", f"{s.model} refused temperature: kiln sends none from now on")


def _effort(r: Refusal, s: Situation, c: WireChoices) -> Fix | None:  # A4, D3
    if not c.effort or not ("effort" in r.param or "reasoning_effort" in r.text):
        return None
    new = nearest_effort(c.effort, listed_values(r.message))
    then = f"kiln sends {new} from now on" if new else "kiln sends none from now on"
    return Fix("effort", new, f"{s.model} refused reasoning effort {c.effort}: {then}")


def listed_values(message: str) -> list[str]:
    """The effort words an error lists as valid ("Supported values are: 'none', 'low',
    and 'high'." or "Valid values are: high, low, medium, none")."""
    found = re.search(r"values are:?(.*)", message, re.IGNORECASE | re.DOTALL)
    if not found:
        return []
    words = re.findall(r"[a-z]+", found.group(1).lower())
    return [w for w in words if w in EFFORT_WORDS]


def nearest_effort(refused: str, allowed: list[str]) -> str:
    """The allowed effort nearest the refused one in kiln's order, the higher on a tie;
    "" when none is allowed."""
    order = EFFORT_WORDS
    rank = order.index(refused) if refused in order else order.index("medium")
    known = [e for e in allowed if e in order and e != refused]
    if not known:
        return ""
    return min(known, key=lambda e: (abs(order.index(e) - rank), -order.index(e)))


def refused_sentence(r: Refusal, s: Situation, fallback: str) -> str:
    """Item 7: one sentence naming the model, the parameter and what to set."""
    known = (*OUTPUT_PARAMS, "temperature", "reasoning_effort", "reasoning_content")
    param = r.param or next((p for p in known if p in r.text), "")
    if any(p in r.text for p in NO_NATIVE_TOOLS):
        param, key = param or "tools", "tools"
    elif "v1/responses" in r.text:
        param, key = param or "the chat completions API", "api"
    elif param in OUTPUT_PARAMS:
        key = "output"
    elif "effort" in param:
        key = "effort"
    else:
        key = param
    if not param:
        return fallback
    advice = ADVICE.get(key, "check the model profile")
    return (
        f"The model server at {s.base_url} refused {param} for {s.model} "
        f"({r.status}: {r.short}); {advice}."
    )


class AdaptingClient:
    """A ModelClient around a wire client that adapts to the refusals above."""

    def __init__(self, inner: ModelClient, *, env: Mapping[str, str] | None = None) -> None:
        self.base = inner  # the wire client: chat completions, or Responses once switched
        self.front: ModelClient = inner  # what a request goes through: base, or text calls
        self.profile = inner.profile
        self._env = env
        self._done: set[str] = set()

    @property
    def takes_shape(self) -> bool:
        """Whether `stream(shape=...)` reaches a server that takes it (the text protocol)."""
        return self.front is self.base and bool(getattr(self.base, "takes_shape", False))

    @property
    def choices(self) -> WireChoices | None:
        held = getattr(self.base, "choices", None)
        return held if isinstance(held, WireChoices) else None

    async def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        **extra: Any,
    ) -> AsyncIterator[ModelEvent]:
        while True:
            client: Any = self.front
            kwargs: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature}
            if extra and self.takes_shape:
                kwargs.update(extra)
            try:
                async for event in client.stream(messages, tools, **kwargs):
                    yield event
                return
            except RequestRefused as refused:
                fix = self._fix(Refusal.of(refused), messages, tools, refused.message)
            await self._apply(fix)
            yield Adapted(fix.said)

    def _situation(self, messages: list[Message], tools: list[ToolSpec]) -> Situation:
        model = self.profile.model or str(getattr(self.base, "_model", "")) or "the model"
        return Situation(
            model=model,
            base_url=str(getattr(self.base, "base_url", "") or self.profile.base_url),
            choices=self.choices,
            tools_sent=bool(tools) and self.front is self.base,
            signatures_kept=any(c.extra for m in messages for c in m.tool_calls),
            on_responses=not isinstance(self.base, OpenAICompatClient),
        )

    def _fix(
        self, r: Refusal, messages: list[Message], tools: list[ToolSpec], fallback: str
    ) -> Fix:
        s = self._situation(messages, tools)
        found = fix_for(r, s)
        if isinstance(found, str):
            raise ModelError(found) from None
        if found is None or found.kind in self._done:
            raise ModelError(refused_sentence(r, s, fallback)) from None
        return found

    async def _apply(self, fix: Fix) -> None:
        self._done.add(fix.kind)
        if fix.kind == "api":
            # Imported when a server first sends kiln there: most sessions never go.
            from agent.llm.responses import ResponsesClient

            profile = dataclasses.replace(self.profile, wire_api="responses")
            old, texted = self.base, self.front is not self.base
            self.base = ResponsesClient(profile, env=self._env)
            self.front = self._texted(self.base) if texted else self.base
            # The new client's own parameters may be adapted once again.
            self._done -= {f.name for f in dataclasses.fields(WireChoices)}
            await old.aclose()
        elif fix.kind == "tools":
            self.front = self._texted(self.base)
        elif self.choices is not None:
            setattr(self.choices, fix.kind, fix.value)

    def _texted(self, client: ModelClient) -> ModelClient:
        from agent.llm.text_protocol import TextProtocolClient

        return TextProtocolClient(client, "json" if self.profile.small_model else "fenced")

    async def aclose(self) -> None:
        await self.base.aclose()
