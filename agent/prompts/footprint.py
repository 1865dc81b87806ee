"""/context: what the stable prefix holds and what each part of a request costs of the
context window, in tokens as the window counts them (calibrated by the server's own
counts when it gave any, else estimated).

The parts are the system prompt (kiln's instructions and the repository's facts), the
project rules, the skills' metadata, the repo map, the tool schemas, and the conversation.
The first five are the stable prefix: the same bytes in every request of the session.
"""

from __future__ import annotations

import re

from agent.llm.base import ToolSpec
from agent.present import human_tokens
from agent.prompts.conversation import Conversation
from agent.prompts.window import Window, prompt_chars

_FALLBACK_CHARS_PER_TOKEN = 4.0
_RULES_FROM = re.compile(r"^## Project rules from (\S+)", re.MULTILINE)
_SKILL_LINE = re.compile(r"^- ([a-z0-9-]+): ", re.MULTILINE)


def _what(part: str, text: str) -> str:
    if part == "rules":
        return ", ".join(_RULES_FROM.findall(text))
    if part == "skills":
        names = _SKILL_LINE.findall(text)
        return f"{len(names)}: {', '.join(names[:8])}{', …' if len(names) > 8 else ''}"
    return ""


def footprint_lines(
    conversation: Conversation,
    parts: dict[str, str],
    specs: list[ToolSpec],
    window: Window | None,
) -> list[str]:
    per_token = window.chars_per_token if window else _FALLBACK_CHARS_PER_TOKEN

    def tokens(chars: int) -> int:
        return round(chars / per_token)

    system = conversation.system
    present = {k: v for k, v in parts.items() if v and v in system}
    base = len(system) - sum(len(v) + 2 for v in present.values())
    kiln_tools = [s for s in specs if "__" not in s.name and s.name != "read_skill"]
    beyond = [s.name for s in specs if s not in kiln_tools]
    rows: list[tuple[str, int, str]] = [("system prompt", tokens(max(base, 0)), "kiln's")]
    labels = {"rules": "project rules", "skills": "skills", "map": "repo map"}
    for part, label in labels.items():
        text = present.get(part, "")
        rows.append((label, tokens(len(text)), _what(part, text) if text else "none"))
    tools_about = f"{len(kiln_tools)} of kiln's" + (f", then {', '.join(beyond)}" if beyond else "")
    rows.append(("tools", tokens(prompt_chars([], specs)), tools_about))
    prefix = sum(n for _, n, _ in rows)
    history = conversation.history
    talk = tokens(prompt_chars(history, []))
    total = prefix + talk
    head = "Context"
    if window is not None:
        said = "" if window.known else ", a guess"
        head += (
            f": about {human_tokens(total)} of the {human_tokens(window.tokens)}-token window"
            f"{said} ({window.share(total):.0%})"
        )
    lines = [head + ".", "The stable prefix (the same in every request, cached by the server):"]
    lines += [f"  {label:14} {human_tokens(n):>7}  {about}" for label, n, about in rows]
    lines.append(f"  {'in all':14} {human_tokens(prefix):>7}")
    lines.append(f"The conversation: {human_tokens(talk)} ({len(history)} messages).")
    return lines
