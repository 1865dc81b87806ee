"""A scripted model: a real HTTP server on 127.0.0.1 that replays turns.

It speaks the OpenAI chat-completions API (`POST /v1/chat/completions`, streaming and not,
`GET /v1/models`), the OpenAI Responses API (`POST /v1/responses`, `responses.py`) and the
Anthropic Messages API (`POST /v1/messages`), so every backend
is tested over real sockets with real SSE. Tests and `kiln serve-scripted` use it:

    with ScriptedServer([{"text": "hi"}]) as server:
        client = OpenAICompatClient(ModelProfile(base_url=server.base_url, model="m"))
        ...
        assert server.requests[0].body["stream"] is True

Script format (JSON file, or the same shape as Python objects: a list of turns is enough)::

    {
      "model": "scripted-model",          # the id /v1/models reports (optional)
      "loop": false,                      # start over after the last turn (optional)
      "quirks": ["no_usage", ...],        # server quirks, see below (optional)
      "context_window": 8192,             # declared at /props and /v1/models; longer
                                          # prompts are refused as llama.cpp does (optional)
      "turns": [
        {"text": "Let me look.",
         "reasoning": "thinking...",                         # reasoning_content / thinking
         "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}],
         "text_tool_call": "fenced",     # write the calls into the text instead:
                                         #  fenced | tags | bare | function_parameters
         "fault": "429",                 # or a list, one fault per request
         "retry_after": 1,               # seconds (or an HTTP date) for 429
         "delay_s": 2.0,                 # first-token delay for slow_first_token
         "stream_delay_s": 0.1,          # a pause before each streamed frame (a slow reply)
         "when": "TASK-A"}               # only for a conversation whose first user
                                         # message holds this (concurrent child agents)
      ]
    }

Faults: `"429"` (Retry-After header), `"500"`, `"cut"` (the stream stops half-way and the
connection is dropped), `"malformed_json"` (the first tool call's arguments are broken
JSON; a turn without tool calls gets a `data:` line that is not JSON), `"invalid_tool_args"`
(the first tool call is sent with `{}` as arguments), `"slow_first_token"` (waits
`delay_s` after the headers; the server notices when the client hangs up meanwhile).

Turn accounting: a turn is consumed only by a clean, complete reply. Each fault uses up
one request, and the SAME turn is served again on the next request (so a client's retry,
or the loop's correction after a format problem, gets the clean turn). A slow first token
that is waited out counts as clean. When the script is exhausted the server answers 400.

Quirks (real servers differ): `no_usage` (never send usage), `no_ids` (chunks and tool
calls without ids), `comments` (SSE `: keep-alive` lines), `empty_choices` (a chunk with
`choices: []`), `no_done` (no `data: [DONE]`).

Usage is true: prompt tokens are counted from the request with `count_tokens` (words and
punctuation marks), cached tokens are the longest common prefix with the previous request
(like llama.cpp's prompt cache); for Anthropic, cache reads and writes follow the request's
`cache_control` breakpoints. Completion tokens are counted from what was sent.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.llm.scripted import responses, wire
from agent.llm.scripted.wire import NativeCall, Reply, count_tokens, tokenize

LOOKBACK_BLOCKS = 20  # how far back from a breakpoint Anthropic looks for a cache hit
FAULTS = ("429", "500", "cut", "malformed_json", "invalid_tool_args", "slow_first_token")
TEXT_STYLES = ("fenced", "tags", "bare", "function_parameters")
QUIRKS = ("no_usage", "no_ids", "comments", "empty_choices", "no_done")

__all__ = [
    "FAULTS",
    "RecordedRequest",
    "Script",
    "ScriptState",
    "Turn",
    "build_reply",
    "count_tokens",
]


@dataclass
class Turn:
    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    reasoning: str = ""
    faults: list[str] = field(default_factory=list)
    retry_after: str = "1"
    delay_s: float = 2.0
    text_tool_call: str = ""
    stream_delay_s: float = 0.0
    when: str = ""  # served only to a request whose first user message holds this text

    @classmethod
    def from_data(cls, data: dict[str, Any] | Turn) -> Turn:
        if isinstance(data, Turn):
            return data
        fault = data.get("fault", [])
        faults = [fault] if isinstance(fault, str) else [str(f) for f in fault]
        for f in faults:
            if f not in FAULTS:
                raise ValueError(f"unknown fault {f!r}; use one of {', '.join(FAULTS)}")
        style = data.get("text_tool_call", "")
        if style and style not in TEXT_STYLES:
            raise ValueError(f"unknown text_tool_call {style!r}; use one of {TEXT_STYLES}")
        calls = [
            {"name": c["name"], "arguments": c.get("arguments", {})}
            for c in data.get("tool_calls", [])
        ]
        return cls(
            text=data.get("text", ""),
            tool_calls=calls,
            reasoning=data.get("reasoning", ""),
            faults=faults,
            retry_after=str(data.get("retry_after", "1")),
            delay_s=float(data.get("delay_s", 2.0)),
            text_tool_call=style,
            stream_delay_s=float(data.get("stream_delay_s", 0.0)),
            when=str(data.get("when", "")),
        )


@dataclass
class Script:
    turns: list[Turn]
    model: str = "scripted-model"
    loop: bool = False
    quirks: frozenset[str] = frozenset()
    context_window: int = 0  # 0: none declared, nothing refused

    @classmethod
    def from_data(cls, data: Any) -> Script:
        if isinstance(data, Script):
            return data
        if isinstance(data, list):
            data = {"turns": data}
        quirks = frozenset(data.get("quirks", ()))
        unknown = quirks - set(QUIRKS)
        if unknown:
            raise ValueError(f"unknown quirks {sorted(unknown)}; use some of {QUIRKS}")
        return cls(
            turns=[Turn.from_data(t) for t in data.get("turns", [])],
            model=data.get("model", "scripted-model"),
            loop=bool(data.get("loop", False)),
            quirks=quirks,
            context_window=int(data.get("context_window", 0)),
        )

    @classmethod
    def load(cls, path: str | Path) -> Script:
        return cls.from_data(json.loads(Path(path).read_text(encoding="utf-8")))


@dataclass
class RecordedRequest:
    """One request as the server saw it; `outcome` is filled in as the reply goes out."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    turn: int | None = None
    fault: str | None = None
    status: int = 200
    prompt_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    completion_tokens: int = 0
    outcome: str = "pending"  # ok | fault | disconnected | error | over_window
    client_port: int = 0  # the connection it came on (a client that keeps it alive reuses it)


class ScriptState:
    """The turn cursor and the simulated prefix caches, shared by all handler threads."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.lock = threading.Lock()
        self.cursor = 0
        self.faults_used = 0
        self.requests: list[RecordedRequest] = []
        self._last_prompt: list[str] = []
        self._anthropic_cache: set[int] = set()
        self._served = 0
        self._taken: set[int] = set()  # turns served, in a script of `when` turns

    def next_turn(self, first_user: str = "") -> tuple[int, Turn, str | None] | None:
        """The turn to serve now and the fault to inject, without consuming the turn. In a
        script whose turns say `when`, the first turn not served yet whose `when` is in
        `first_user` (or that says none), taken at once: concurrent conversations (child
        agents) each get their own turns, whatever order their requests come in."""
        with self.lock:
            turns = self.script.turns
            if any(t.when for t in turns):
                return self._matching(first_user)
            if self.cursor >= len(turns):
                if not (self.script.loop and turns):
                    return None
                self.cursor = 0
            turn = turns[self.cursor]
            fault = None
            if self.faults_used < len(turn.faults):
                fault = turn.faults[self.faults_used]
                self.faults_used += 1
            return self.cursor, turn, fault

    def _matching(self, first_user: str) -> tuple[int, Turn, str | None] | None:
        for index, turn in enumerate(self.script.turns):
            if index not in self._taken and (not turn.when or turn.when in first_user):
                self._taken.add(index)
                return index, turn, None
        return None

    def consume(self, index: int) -> int | None:
        """Moves past turn `index` if it is the current one; what `unconsume` needs to put
        it back (the faults it had used), or None when nothing moved."""
        with self.lock:
            if self.cursor != index:
                return None
            used, self.cursor, self.faults_used = self.faults_used, self.cursor + 1, 0
            return used

    def unconsume(self, index: int, faults_used: int) -> None:
        """Turn `index` again the current one: its reply did not reach the client after all."""
        with self.lock:
            if self.cursor == index + 1:
                self.cursor, self.faults_used = index, faults_used

    def new_id(self, prefix: str) -> str:
        with self.lock:
            self._served += 1
            return f"{prefix}{self._served}"

    def openai_prompt(self, body: dict[str, Any]) -> tuple[int, int]:
        tokens = tokenize(json.dumps(body.get("tools", []), sort_keys=True))
        for message in body.get("messages", []):
            tokens += _message_tokens(message)
        with self.lock:
            cached = _common_prefix(tokens, self._last_prompt)
            self._last_prompt = tokens
        return len(tokens), cached

    def responses_prompt(self, body: dict[str, Any]) -> tuple[int, int]:
        """(prompt, cached) of a Responses API request, cached as a prefix like openai_prompt."""
        tokens = responses.prompt_tokens(body)
        with self.lock:
            cached = _common_prefix(tokens, self._last_prompt)
            self._last_prompt = tokens
        return len(tokens), cached

    def anthropic_prompt(self, body: dict[str, Any]) -> tuple[int, int, int]:
        """(uncached, cache read, cache write) following the cache_control breakpoints."""
        tokens: list[str] = []
        breakpoints: list[int] = []
        block_ends: list[int] = []

        def add(part: Any) -> None:
            tokens.extend(tokenize(json.dumps(_without_cache_control(part), sort_keys=True)))
            block_ends.append(len(tokens))
            if isinstance(part, dict) and part.get("cache_control"):
                breakpoints.append(len(tokens))

        for tool in body.get("tools", []):
            add(tool)
        system = body.get("system", [])
        for block in [{"type": "text", "text": system}] if isinstance(system, str) else system:
            add(block)
        for message in body.get("messages", []):
            tokens.extend(tokenize(message.get("role", "")))
            content = message.get("content", "")
            for block in (
                [{"type": "text", "text": content}] if isinstance(content, str) else content
            ):
                add(block)
        # As the API does, a breakpoint also finds a cache entry written at any of the 20
        # block boundaries before it (a rolling breakpoint of the previous request).
        candidates: set[int] = set()
        for point in breakpoints:
            at = block_ends.index(point)
            candidates.update(block_ends[max(at - LOOKBACK_BLOCKS, 0) : at + 1])
        with self.lock:
            keys = [hash(tuple(tokens[:p])) for p in breakpoints]
            read = max(
                (p for p in candidates if hash(tuple(tokens[:p])) in self._anthropic_cache),
                default=0,
            )
            last = breakpoints[-1] if breakpoints else 0
            write = last - read if last > read else 0
            self._anthropic_cache.update(keys)
        return len(tokens) - read - write, read, write


def _without_cache_control(part: Any) -> Any:
    if isinstance(part, dict):
        return {k: v for k, v in part.items() if k != "cache_control"}
    return part


def _message_tokens(message: dict[str, Any]) -> list[str]:
    tokens = tokenize(str(message.get("role", "")))
    content = message.get("content") or ""
    if isinstance(content, list):
        content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    tokens += tokenize(str(content))
    for call in message.get("tool_calls") or []:
        tokens += tokenize(json.dumps(call.get("function", {}), sort_keys=True))
    return tokens


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def build_reply(turn: Turn, fault: str | None, turn_index: int) -> Reply:
    """What the model says for this turn, with content faults applied."""
    calls = [
        NativeCall(f"call_{turn_index}_{i}", c["name"], json.dumps(c["arguments"]))
        for i, c in enumerate(turn.tool_calls)
    ]
    if calls and fault == "malformed_json":
        calls[0].arguments = calls[0].arguments.rstrip("}") + ', "'
    if calls and fault == "invalid_tool_args":
        calls[0].arguments = "{}"
    text = turn.text
    if turn.text_tool_call and calls:
        written = []
        for call in calls:
            try:
                args = json.loads(call.arguments)
            except ValueError:
                args = None
            body = wire.text_tool_call(
                call.name, args if args is not None else {}, turn.text_tool_call
            )
            if args is None:  # keep the breakage visible in the text
                body = body.replace("{}", call.arguments)
            written.append(body)
        text = "\n".join(filter(None, [text, *written]))
        calls = []
    return Reply(text=text, reasoning=turn.reasoning, calls=calls)
