"""`kiln config show`: every effective setting, its value, and where it came from; then
what a session would add to them: permission rules, hooks, custom commands, skills and
the agents the `agent` tool can start.
A front end: it reads across the layers below it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from agent.commands import COMMANDS
from agent.custom import agents as custom_agents
from agent.custom import commands as custom_commands
from agent.custom import skills as custom_skills
from agent.errors import UsageError
from agent.hooks.load import session_hooks
from agent.present import escape_controls
from agent.settings import paths, rules_layer, trust
from agent.settings.config import describe, load_settings
from agent.settings.repo import find_repo
from agent.tools.testdigest import detect_test_command

SECRET_HINTS = ("key", "token", "secret", "password")


def _shown(key: str, value: Any) -> str:
    name = key.rsplit(".", 1)[-1]
    # A variable's NAME (api_key_env) is fine to show; a value that looks secret is not.
    secret = not name.endswith("_env") and any(hint in name for hint in SECRET_HINTS)
    if secret and isinstance(value, str) and value:
        return "********"
    if isinstance(value, dict):
        return json.dumps(value)
    return repr(value) if isinstance(value, str) else str(value)


def _say(line: str) -> None:
    """One line of the listing: names, descriptions and hook commands come from files a
    repository holds, and a control character in them would reach the terminal."""
    print(escape_controls(line, one_line=True))


def main(args: argparse.Namespace) -> int:
    raw = getattr(args, "repo", ".") or "."
    try:
        repo = find_repo(raw)
    except UsageError:  # outside a repository the settings still have an answer
        repo = Path(raw).resolve()
    flags = {
        f"models.main.{name}": getattr(args, name)
        for name in ("base_url", "model", "provider", "effort")
        if getattr(args, name, None)
    }
    settings = load_settings(repo, flags)
    rows = describe(settings)
    width = max(len(key) for key, _, _ in rows)
    _say(f"# files: {repo / '.kiln.toml'} < {paths.user_config_file()} < KILN_* < flags")
    for key, value, source in rows:
        _say(f"{key:<{width}}  {_shown(key, value):<32}  ({source})")
    for key, value in settings.ignored.items():
        _say(
            f"{key:<{width}}  {_shown(key, value):<32}  (ignored: set by {repo / '.kiln.toml'}; "
            f"{trust.why_ignored(key, settings.trust_suspended and trust.host_side_key(key))})"
        )
    for rule in settings.permissions.rules:
        key = f"permissions.{rule.effect.value}"
        _say(f"{key:<{width}}  {rule.text!r:<32}  ({rule.source})")
    hooks, left_out = session_hooks(settings, repo)
    for hook in hooks:
        _say(f"{'hooks.' + hook.event.value:<{width}}  {hook.describe()!r:<32}  ({hook.source})")
    builtins = [command.name for command in COMMANDS]
    commands = custom_commands.load(repo, builtins)
    for command in commands.commands:
        _say(
            f"{'commands./' + command.name:<{width}}  {command.argument_hint!r:<32}  ({command.origin})"
        )
    skills = custom_skills.load(repo)
    for skill in skills.skills:
        _say(f"{'skills.' + skill.name:<{width}}  {skill.description[:30]!r:<32}  ({skill.origin})")
    agents = custom_agents.load(repo)
    for agent in agents.definitions:
        _say(f"{'agents.' + agent.name:<{width}}  {agent.mode!r:<32}  ({agent.origin})")
    claude = [paths.claude_settings(Path.home()), paths.claude_settings(repo)]
    unread = [said for file in claude for said in rules_layer.claude_rules(file)[1]]
    untrusted = [said] if (said := trust.ignored_runs(repo, settings.ignored)) else []
    for sentence in (*untrusted, *left_out, *unread, *commands.notes, *skills.notes, *agents.notes):
        _say(f"# {sentence}")
    detected = detect_test_command(repo, settings.tests.command)
    origin = "configured" if settings.tests.command else "detected"
    _say(f"{'tests.effective_command':<{width}}  {detected or '(none found)'!r:<32}  ({origin})")
    if not settings.models:
        _say(
            "# no [models.main]: kiln uses a model server running on 127.0.0.1, "
            "else the local model from `kiln local install`"
        )
    return 0
