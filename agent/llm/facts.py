"""What kiln knows about a model, as data (`models.toml`), so the clients hold no branch per
model: which wire API it speaks, which parameter limits its reply, what it accepts for
temperature and reasoning effort, its window and reply limit, and what of a reply must go
back on the next request. Each row is dated and names its sources (the rule ids of
`shared/reference/hosted-api-rules.md` and the providers' pages).

A model no row names gets `UNKNOWN`: chat completions with `max_tokens`, any temperature,
no effort; what its server refuses is adapted to at run time (`llm/adapt.py`).
"""

from __future__ import annotations

import fnmatch
import functools
import tomllib
from pathlib import Path

from agent.llm.profile import EFFORT_WORDS
from sandbox.frozen import frozen

# Ways a model takes its reasoning effort.
EFFORT_AS = ("", "reasoning_effort", "reasoning.effort", "thinking_budget", "output_config.effort")
# What of a reply a server wants back on the next request.
SEND_BACK = ("reasoning_content", "thought_signature", "thinking_blocks", "reasoning_items")


@frozen
class ModelFacts:
    """One row of `models.toml`, as the clients read it."""

    name: str = ""  # the row's first pattern; "" for a model kiln knows nothing of
    api: str = ""  # "chat", "responses" or "anthropic"; "": what the provider speaks
    output_param: str = "max_tokens"  # or "max_completion_tokens", "max_output_tokens"
    # "any"; "default": send none (only the model's default is taken); or a number the
    # model requires (Kimi's thinking models: 1.0)
    temperature: str = "any"
    efforts: tuple[str, ...] = ()  # the values the model takes; () takes none
    effort_as: str = ""  # how: one of EFFORT_AS
    window: int = 0  # tokens; 0 unknown
    max_output: int = 0  # tokens a reply may have, reasoning included; 0 unknown
    send_back: tuple[str, ...] = ()  # of SEND_BACK
    # Anthropic's thinking budget per effort, in tokens (C1: at least 1024)
    budgets: tuple[tuple[str, int], ...] = ()
    # Anthropic beta headers a thinking request carries (C7: interleaved thinking)
    betas: tuple[str, ...] = ()
    date: str = ""
    source: str = ""

    def budget(self, effort: str) -> int:
        return dict(self.budgets).get(effort, 0)


UNKNOWN = ModelFacts()


def _words(name: str) -> str:
    """Lower case, without a router's `vendor/` prefix or Bedrock's `us.anthropic.`."""
    name = name.strip().lower().rsplit("/", 1)[-1]
    head, dot, rest = name.partition("anthropic.")
    return rest if dot and head.strip(".") in ("", "us", "eu", "apac", "global") else name


@functools.cache
def _rows() -> tuple[tuple[tuple[str, ...], ModelFacts], ...]:
    text = Path(__file__).with_name("models.toml").read_text(encoding="utf-8")
    rows = []
    for row in tomllib.loads(text)["model"]:
        patterns = tuple(str(p).lower() for p in row["match"])
        facts = ModelFacts(
            name=patterns[0],
            api=str(row.get("api", "")),
            output_param=str(row.get("output_param", "max_tokens")),
            temperature=str(row.get("temperature", "any")),
            efforts=tuple(row.get("efforts", ())),
            effort_as=str(row.get("effort_as", "")),
            window=int(row.get("window", 0)),
            max_output=int(row.get("max_output", 0)),
            send_back=tuple(row.get("send_back", ())),
            budgets=tuple((str(k), int(v)) for k, v in row.get("budgets", {}).items()),
            betas=tuple(str(b) for b in row.get("betas", ())),
            date=str(row["date"]),
            source=str(row["source"]),
        )
        rows.append((patterns, facts))
    return tuple(rows)


def facts_for(model: str) -> ModelFacts:
    """The first row whose pattern matches the model's name (fnmatch, lower case, without
    a router's prefix); UNKNOWN when none does."""
    words = _words(model)
    if not words:
        return UNKNOWN
    for patterns, facts in _rows():
        if any(fnmatch.fnmatchcase(words, p) for p in patterns):
            return facts
    return UNKNOWN


def effort_for(facts: ModelFacts, asked: str) -> str:
    """The effort to send: what the person asked when the model takes it, in the model's
    own word where kiln's differs; "" when the model takes none (or nothing was asked)."""
    if not asked or not facts.effort_as:
        return ""
    asked = asked.lower()
    if not facts.efforts or asked in facts.efforts:
        return asked
    # kiln's three words, to the nearest the model has (gpt-5-pro takes "high" only).
    order = EFFORT_WORDS
    rank = order.index(asked) if asked in order else order.index("medium")
    known = [e for e in order if e in facts.efforts]
    return min(known, key=lambda e: abs(order.index(e) - rank)) if known else ""


# A reply's share of the window kiln reserves at most, whatever the model's own limit: a
# step's reply (reasoning included) fits, and the conversation keeps the rest.
REPLY_RESERVE = 32000


def on_client(facts: ModelFacts, family: str) -> ModelFacts:
    """The facts a client of `family` ("openai" or "anthropic") can use: a row for the
    other family's API (Claude through an OpenAI-compatible router) keeps only its window
    and reply limit."""
    theirs = "anthropic" if facts.api == "anthropic" else ("openai" if facts.api else "")
    if not theirs or theirs == family:
        return facts
    return ModelFacts(name=facts.name, window=facts.window, max_output=facts.max_output)


def limits_for(model: str) -> tuple[int, int]:
    """(window, reply limit) kiln knows for the model; 0 for what it does not."""
    facts = facts_for(model)
    return facts.window, min(facts.max_output, REPLY_RESERVE)
