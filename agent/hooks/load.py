"""The session's hooks: the person's own (`[hooks]` in their config, the hooks of their
`~/.claude/settings.json`) and a trusted repository's (`[hooks]`, `.claude/settings.json`);
one sentence for the ones kiln leaves out."""

from __future__ import annotations

from pathlib import Path

from agent.errors import ConfigError
from agent.hooks.config import CLAUDE_SETTINGS, Hook, claude_hooks
from agent.hooks.runner import HookRunner
from agent.settings import host_code, trust
from agent.settings.config import Settings


def session_hooks(settings: Settings, repo: Path) -> tuple[tuple[Hook, ...], list[str]]:
    """(the hooks that run, sentences about the ones that do not): the person's own first
    (kiln's config, then `~/.claude/settings.json`, which they wrote for Claude Code), then
    a trusted repository's."""
    notes: list[str] = []
    try:
        own = claude_hooks(Path.home())
    except ConfigError as exc:
        own, notes = (), [f"{exc.message} Its hooks do not run."]
    mine = (*settings.hooks, *own)
    if repo.resolve() == Path.home().resolve():
        return mine, notes  # the person's own file, read above
    try:
        claude = claude_hooks(repo)
    except ConfigError as exc:
        return mine, [*notes, f"{exc.message} Its hooks do not run."]
    if claude and not trust.is_trusted(repo, CLAUDE_SETTINGS):
        notes.append(
            f"The repository's {CLAUDE_SETTINGS} names {len(claude)} hook(s), which kiln does "
            "not run: they run on your machine, and the repository is not trusted as it is "
            "now (or what they run changed since); `kiln trust` runs them."
        )
        claude = ()
    return (*mine, *claude), notes


def open_hooks(settings: Settings, repo: Path, session_id: str, notes: list[str]) -> HookRunner:
    """The session's HookRunner; what is left out is added to `notes`."""
    hooks, said = session_hooks(settings, repo)
    notes.extend(said)
    return HookRunner(hooks, repo, session_id, host_code.host_env(settings.model_key_vars))
