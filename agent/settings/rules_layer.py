"""`[permissions]` in a settings file: lists that add up across files instead of one file's
value replacing another's.

Every other key takes the value of the strongest layer; a rule instead counts wherever it
was written (the person's config and a trusted repository's `.kiln.toml`), and remembers
which file that was. A repository's whole table is one key, `permissions`, so an untrusted
repository's rules are ignored, and said so, once (`repo_keys`: trusted only).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agent.errors import ConfigError
from agent.permissions import Effect, PermissionRules, Rule, RuleError, parse_rules

KEY = "permissions"


def _is_rules(key: str) -> bool:
    return key == KEY or key.startswith(KEY + ".")


def gathered(layer: dict[str, Any]) -> dict[str, Any]:
    """A flattened layer with its `permissions.*` keys as one `permissions` table."""
    table = {k.removeprefix(KEY + "."): v for k, v in layer.items() if k.startswith(KEY + ".")}
    rest = without(layer)
    return {**rest, KEY: table} if table else rest


def without(layer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in layer.items() if not _is_rules(k)}


def rules_of(layers: Iterable[tuple[str, dict[str, Any]]]) -> PermissionRules:
    """Every rule of every layer, with the file it came from; a bad one is a ConfigError."""
    rules: list[Rule] = []
    for source, layer in layers:
        table = {k.removeprefix(KEY + "."): v for k, v in layer.items() if k.startswith(KEY + ".")}
        if isinstance(layer.get(KEY), dict):
            table.update(layer[KEY])
        for name, values in table.items():
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
