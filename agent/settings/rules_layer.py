"""`[permissions]` and `[hooks]` in a settings file: lists that add up across files instead
of one file's value replacing another's.

Every other key takes the value of the strongest layer; a rule or a hook instead counts
wherever it was written (the person's config and a trusted repository's `.kiln.toml`), and
remembers which file that was. A repository's whole table is one key (`permissions`,
`hooks`), so an untrusted repository's are ignored, and said so, once (`repo_keys`:
trusted only).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agent.errors import ConfigError
from agent.hooks.config import Hook, hooks_of
from agent.permissions import Effect, PermissionRules, Rule, RuleError, parse_rule, parse_rules

KEY = "permissions"
HOOKS = "hooks"
KEYS = (KEY, HOOKS)


def _table(layer: dict[str, Any], key: str) -> dict[str, Any]:
    table = {k.removeprefix(key + "."): v for k, v in layer.items() if k.startswith(key + ".")}
    if isinstance(layer.get(key), dict):
        table.update(layer[key])
    return table


def gathered(layer: dict[str, Any]) -> dict[str, Any]:
    """A flattened layer with its `permissions.*` and `hooks.*` keys as one table each."""
    tables = {key: _table(layer, key) for key in KEYS}
    return {**without(layer), **{key: table for key, table in tables.items() if table}}


def without(layer: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v for k, v in layer.items() if not any(k == c or k.startswith(c + ".") for c in KEYS)
    }


def rules_of(layers: Iterable[tuple[str, dict[str, Any]]]) -> PermissionRules:
    """Every rule of every layer, with the file it came from; a bad one is a ConfigError."""
    rules: list[Rule] = []
    for source, layer in layers:
        for name, values in _table(layer, KEY).items():
            try:
                effect = Effect(name)
            except ValueError:
                raise ConfigError(
                    f"{source}: [permissions] has no `{name}`; it takes allow, ask and deny."
                ) from None
            try:
                rules.extend(parse_rules(values, effect, source))
            except RuleError as exc:
                raise ConfigError(str(exc)) from None
    return PermissionRules(tuple(rules))


def hooks_in(layers: Iterable[tuple[str, dict[str, Any]]]) -> tuple[Hook, ...]:
    """Every hook of every layer, in file order, with the file it came from."""
    return tuple(h for source, layer in layers for h in hooks_of(_table(layer, HOOKS), source))


def claude_rules(path: Path) -> tuple[tuple[Rule, ...], list[str]]:
    """The `permissions` lists of a Claude Code settings file as kiln's rules, and what is
    left out: the rules for tools kiln has (Bash, Edit, Write, MultiEdit, mcp__...) count;
    the others (Read, WebFetch...) are named, never an error: the file is Claude Code's."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, UnicodeDecodeError, ValueError):
        return (), [f"{path} cannot be read as JSON; its permissions are left out."]
    table = data.get("permissions") if isinstance(data, dict) else None
    rules: list[Rule] = []
    skipped: list[str] = []
    for effect in Effect:
        values = table.get(effect.value) if isinstance(table, dict) else None
        for value in values if isinstance(values, list) else []:
            text = f"{value}(*)" if isinstance(value, str) and value.isalpha() else value
            try:
                rules.append(parse_rule(text, effect, str(path)))
            except RuleError:
                skipped.append(str(value))
    said = (
        [f"{len(skipped)} rule(s) of {path} name tools kiln does not have and are left out: "
         f"{', '.join(skipped[:4])}{' ...' if len(skipped) > 4 else ''}."]
        if skipped
        else []
    )  # fmt: skip
    return tuple(rules), said
