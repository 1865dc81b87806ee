"""Writing one permission rule into the person's own `config.toml`, when they confirm the
rule an "always" answer implies (the TUI's approval screen, line mode).

kiln keeps no TOML writer, so the file is edited as text: the rule joins the `allow` (or
`ask`, `deny`) list of the `[permissions]` table, which is added when missing. The result
is read back; if it does not say what it should, the file is put back as it was and the
person is told to add the line themselves. Comments inside that one list are not kept.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from agent.errors import ConfigError
from agent.permissions import Effect, parse_rule
from agent.settings import paths

_HEADER = re.compile(r"^\s*\[permissions\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")


def remember_rule(rule: str, effect: Effect = Effect.ALLOW, file: Path | None = None) -> Path:
    """Add `rule` to `[permissions] EFFECT` of the person's config.toml; returns the file.
    Raises ConfigError (one sentence) when it cannot."""
    target = file or paths.user_config_file()
    parse_rule(rule, effect, str(target))  # a rule kiln cannot read is never written
    before = target.read_text(encoding="utf-8") if target.is_file() else ""
    current = _rules(before, target).get(effect.value, [])
    if rule in current:
        return target
    after = _with_rule(before, effect.value, [*current, rule])
    if _rules(after, target).get(effect.value) != [*current, rule]:
        raise ConfigError(
            f"kiln could not add the rule to {target} safely; add it yourself: "
            f"[permissions] {effect.value} = {json.dumps([rule])}."
        )
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    target.write_text(after, encoding="utf-8")
    return target


def _rules(text: str, target: Path) -> dict[str, Any]:
    try:
        table = tomllib.loads(text).get("permissions", {})
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{target} is not valid TOML ({exc}); fix it first.") from None
    return table if isinstance(table, dict) else {}


def _with_rule(text: str, name: str, values: list[str]) -> str:
    line = f"{name} = {json.dumps(values)}"
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if _HEADER.match(ln)), None)
    if start is None:
        sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        return f"{text}{sep}[permissions]\n{line}\n"
    end = next((i for i in range(start + 1, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines))
    key = re.compile(rf"^\s*{name}\s*=")
    first = next((i for i in range(start + 1, end) if key.match(lines[i])), None)
    if first is None:
        lines.insert(start + 1, line)
    else:
        last = _assignment_end(lines, first, end)
        lines[first : last + 1] = [line]
    return "\n".join(lines) + "\n"


def _assignment_end(lines: list[str], first: int, end: int) -> int:
    """The last line of the (maybe multi-line) array assigned at `first`."""
    for last in range(first, end):
        try:
            tomllib.loads("\n".join(lines[first : last + 1]))
            return last
        except tomllib.TOMLDecodeError:
            continue
    return first
