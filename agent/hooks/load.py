"""The session's hooks: the person's own (`[hooks]` in their config, the hooks of their
`~/.claude/settings.json`), which run on the host, and a trusted repository's (`[hooks]` of
its `.kiln.toml`, its `.claude/settings.json`), which run in the session's sandbox: a
repository's hook runs whatever the repository holds (`python -m unittest` imports the
model's code, `npm run lint` reads the model's `package.json`), so it never reaches the
host unless the person said so (`kiln trust --hooks-on-host`), and only until kiln next
applies a change there. One sentence for the ones kiln leaves out."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from agent.errors import ConfigError
from agent.hooks.config import CLAUDE_SETTINGS, Hook, claude_hooks
from agent.hooks.runner import HookRunner
from agent.settings import host_code, trust
from agent.settings.config import Settings


def session_hooks(settings: Settings, repo: Path) -> tuple[tuple[Hook, ...], list[str]]:
    """(the hooks that run, sentences about the ones that do not): the person's own first
    (kiln's config, then `~/.claude/settings.json`, which they wrote for Claude Code), then
    a trusted repository's, placed where they run."""
    notes: list[str] = []
    try:
        own = claude_hooks(Path.home())
    except ConfigError as exc:
        own, notes = (), [f"{exc.message} Its hooks do not run."]
    if repo.resolve() == Path.home().resolve():
        return (*settings.hooks, *own), notes  # the person's own files, read above
    repo_file = (repo / ".kiln.toml").resolve()
    from_repo = tuple(h for h in settings.hooks if _from(h, repo_file))
    mine = (*(h for h in settings.hooks if not _from(h, repo_file)), *own)
    try:
        claude = claude_hooks(repo)
    except ConfigError as exc:
        claude, notes = (), [*notes, f"{exc.message} Its hooks do not run."]
    if claude and not trust.is_trusted(repo, CLAUDE_SETTINGS):
        claude = ()  # named with the rest an untrusted repository would run: ignored_runs
    placed, said = _placed(repo, (*from_repo, *claude))
    return (*mine, *placed), [*notes, *said]


def _from(hook: Hook, repo_file: Path) -> bool:
    return bool(hook.source) and Path(hook.source).resolve() == repo_file


def _placed(repo: Path, hooks: tuple[Hook, ...]) -> tuple[tuple[Hook, ...], list[str]]:
    """A repository's hooks in the sandbox; on the host only as the person chose, and not
    after an apply (then they wait for `kiln trust`, said here)."""
    if not hooks:
        return (), []
    on_host = trust.hooks_on_host(repo)
    if on_host:
        return hooks, []
    if on_host is None:
        return (), [
            f"The repository's {len(hooks)} hook(s) ran on your machine as you chose, but "
            "kiln applied changes here since: they wait until you read them and run "
            "`kiln trust --hooks-on-host` again (plain `kiln trust` runs them in a sandbox)."
        ]
    return tuple(dataclasses.replace(h, in_sandbox=True) for h in hooks), []


def open_hooks(settings: Settings, repo: Path, session_id: str, notes: list[str]) -> HookRunner:
    """The session's HookRunner; what is left out is added to `notes`. Its sandbox is set
    once the session's has started (`HookRunner.sandbox`)."""
    hooks, said = session_hooks(settings, repo)
    notes.extend(said)
    return HookRunner(hooks, repo, session_id, host_code.host_env(settings.model_key_vars))
