"""Which repositories' own settings may loosen isolation: the ones the person trusts.

A repository's `.kiln.toml` is written by whoever wrote the repository, or by a model
whose diff was applied. Of what it sets, only what can do no harm is honoured as it is;
the rest (what loosens the sandbox, reaches the person's machine, money or limits: the
table is `repo_keys.REPO_KEYS`) only once the person ran `kiln trust` for that repository,
and only for the file as it was then: its hash is remembered. Network during setup is
never taken from a repository's file. The same holds for the MCP servers a repository's `.mcp.json`
names: their commands run on the host, so they start only once it is trusted as it is,
and so are the repository's files those commands run (`host_code.run_fingerprint`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agent.errors import ConfigError
from agent.hooks.config import claude_hooks
from agent.settings import host_code, paths, repo_keys

# What a repository's own file may set, key by key: `repo_keys.REPO_KEYS`.
why_ignored = repo_keys.why_ignored
trust_would_honour = repo_keys.trust_would_honour

REPO_FILE = ".kiln.toml"
MCP_FILE = ".mcp.json"
CLAUDE_FILE = ".claude/settings.json"  # its `hooks` run on the host (agent/hooks/)
TRUSTED_FILES = (REPO_FILE, MCP_FILE, CLAUDE_FILE)


def servers_awaiting_trust(repo: Path) -> list[str]:
    """The MCP servers the repository's `.mcp.json` would start once trusted (none when it
    is trusted already, or has none); only their names are read, to ask the person."""
    path = repo / MCP_FILE
    if not path.is_file() or is_trusted(repo, MCP_FILE):
        return []
    try:
        servers = json.loads(path.read_text(encoding="utf-8")).get("mcpServers")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return ["(the file cannot be read)"]
    return sorted(servers) if isinstance(servers, dict) else []


def hooks_awaiting_trust(repo: Path) -> list[str]:
    """The commands the repository's `.claude/settings.json` hooks would run once trusted
    (none when it is trusted as it is, has none, or cannot be read: then none run)."""
    try:
        hooks = claude_hooks(repo)
    except ConfigError:
        return []
    if not hooks or is_trusted(repo, CLAUDE_FILE):
        return []
    return sorted({hook.command for hook in hooks})


def runs_key(key: str) -> bool:
    """A repository's `key` changes what runs, and `kiln trust` would honour it."""
    runs = any(key == k or key.startswith(k + ".") for k in RUNS_KEYS)
    return runs and repo_keys.honoured(key, trusted=True)


def ignored_runs(repo: Path, ignored: dict[str, object]) -> str | None:
    """One sentence naming what the repository's files would run that kiln ignores until
    `kiln trust` (its settings' `ignored`, its `.mcp.json` servers, its Claude Code hooks),
    said once at a session's start; None: nothing is waiting."""
    # A server is named once, not once per field it sets.
    own = sorted({".".join(k.split(".")[:2]) for k in ignored if runs_key(k)})
    servers = servers_awaiting_trust(repo)
    hooks = hooks_awaiting_trust(repo)
    named = [
        *([f"{', '.join(own)} in {REPO_FILE}"] if own else []),
        *([f"the MCP servers {', '.join(servers)} in {MCP_FILE}"] if servers else []),
        *([f"the hooks in {CLAUDE_FILE}"] if hooks else []),
    ]
    if not named:
        return None
    return (
        "This repository is not trusted as it is now, so kiln ignores what it would run "
        f"({'; '.join(named)}); run `kiln trust` to honour it."
    )


def trust_file() -> Path:
    return paths.config_dir() / "trusted.json"


def _trusted() -> dict[str, object]:
    try:
        data = json.loads(trust_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def fingerprint(repo: Path, name: str = REPO_FILE) -> str:
    import hashlib  # here: most starts read no repository file, and it is 1 ms to import

    try:
        return hashlib.sha256((repo / name).read_bytes()).hexdigest()
    except OSError:
        return ""


# Beside `.mcp.json`'s own hash: one hash over the files its servers run.
MCP_RUNS = ".mcp.json runs"
# And one over the files the repository's hooks run (`.claude/settings.json`, `.kiln.toml`).
HOOK_RUNS = "hooks run"
# Set by an apply: what runs on the host waits for `kiln trust` again.
APPLIED_SINCE = "applied since"
# The person's own choice (`kiln trust --hooks-on-host`): the repository's hooks run on
# the host rather than in a sandbox, until the next apply.
HOOKS_ON_HOST = "hooks on host"
# What a repository's `.kiln.toml` sets that runs on the host (or with the network the
# person's own config may give setup): waits for trust again after an apply.
HOST_SIDE_KEYS = ("sandbox.setup", "mcp_servers.")
# What a repository's `.kiln.toml` sets that changes what runs: ignored untrusted, each is
# named when a session starts (`ignored_runs`).
RUNS_KEYS = ("sandbox.setup", "sandbox.image", "sandbox.dockerfile", "hooks", "mcp_servers")


def _entry(repo: Path) -> dict[str, object]:
    entry = _trusted().get(str(repo.resolve()))
    if isinstance(entry, str):  # written before .mcp.json was trusted too: .kiln.toml's hash
        entry = {REPO_FILE: entry}
    return entry if isinstance(entry, dict) else {}


def was_trusted(repo: Path, name: str) -> bool:
    """The person trusted `name` here once, whatever it is now (so a change dropped it)."""
    return name in _entry(repo)


def is_trusted(repo: Path, name: str = REPO_FILE) -> bool:
    """The person trusted this repository's file `name`, and it has not changed since;
    for `.mcp.json`, neither have the scripts its servers run."""
    now = fingerprint(repo, name)
    if not now or _entry(repo).get(name) != now:
        return False
    if name == MCP_FILE and suspended(repo):
        return False  # its servers run on the host: an apply since then ends that
    # An entry from before the scripts were covered has no MCP_RUNS: it trusts no script.
    if name == CLAUDE_FILE:
        return hooks_trusted(repo)
    return name != MCP_FILE or _entry(repo).get(MCP_RUNS) == host_code.run_fingerprint(repo)


def hooks_trusted(repo: Path) -> bool:
    """The files the repository's hooks run are as they were when the person trusted it."""
    runs = host_code.hook_run_paths(repo)
    return _entry(repo).get(HOOK_RUNS) == host_code.run_fingerprint(repo, runs)


def suspended(repo: Path) -> bool:
    """kiln applied a diff here since the person last trusted it."""
    return bool(_entry(repo).get(APPLIED_SINCE))


def hooks_on_host(repo: Path) -> bool | None:
    """True: the person let this repository's hooks run on the host, and nothing was
    applied since; None: they did, but an apply since then suspended it; False: never."""
    if not _entry(repo).get(HOOKS_ON_HOST):
        return False
    return None if suspended(repo) else True


def host_side_key(key: str) -> bool:
    return any(key == k or (k.endswith(".") and key.startswith(k)) for k in HOST_SIDE_KEYS)


SUSPENDED = (
    "kiln applied changes to a repository you trusted: what it runs on your machine (the "
    "servers of its .mcp.json, its [sandbox] setup and [mcp_servers], hooks you let run on "
    "the host) waits until you read them and run `kiln trust` again; its hooks keep running "
    "in the sandbox."
)


def suspend(repo: Path) -> bool:
    """After an apply: what the repository runs on the host waits for `kiln trust` again.
    True when this ended a trust (said once: later applies find it suspended already)."""
    key = str(repo.resolve())
    trusted = dict(_trusted())
    entry = _entry(repo)
    if not entry or entry.get(APPLIED_SINCE):
        return False
    trusted[key] = {**entry, APPLIED_SINCE: True}
    _write(trusted)
    return True


def trust(repo: Path, *, on_host: bool = False) -> None:
    trusted: dict[str, object] = dict(_trusted())
    entry: dict[str, object] = {
        name: fingerprint(repo, name) for name in TRUSTED_FILES if fingerprint(repo, name)
    }
    if MCP_FILE in entry:
        entry[MCP_RUNS] = host_code.run_fingerprint(repo)
    entry[HOOK_RUNS] = host_code.run_fingerprint(repo, host_code.hook_run_paths(repo))
    if on_host:
        entry[HOOKS_ON_HOST] = True
    trusted[str(repo.resolve())] = entry
    _write(trusted)


def _write(trusted: dict[str, object]) -> None:
    paths.config_dir().mkdir(parents=True, exist_ok=True, mode=0o700)
    trust_file().write_text(json.dumps(trusted, indent=2) + "\n", encoding="utf-8")


def main(args: argparse.Namespace) -> int:
    """`kiln trust [PATH] [--hooks-on-host]`: honour PATH's .kiln.toml in full, start the
    MCP servers its .mcp.json names and run its hooks (in a sandbox, or on the host with
    --hooks-on-host), as the files are now, until the next apply."""
    from agent.settings.repo import find_repo

    repo = find_repo(args.path)
    present = [name for name in TRUSTED_FILES if (repo / name).is_file()]
    if not present:
        print(f"{repo} has no {REPO_FILE}, {MCP_FILE} or {CLAUDE_FILE}; there is nothing to trust.")
        return 0
    on_host = bool(getattr(args, "hooks_on_host", False))
    trust(repo, on_host=on_host)
    runs = host_code.mcp_run_paths(repo) if MCP_FILE in present else []
    runs += host_code.hook_run_paths(repo)
    also = f" (with what its servers and hooks run: {', '.join(runs)})" if runs else ""
    where = "on your machine" if on_host else "in a sandbox"
    print(
        f"Trusted {' and '.join(str(repo / name) for name in present)}{also} as they are now; "
        f"its hooks run {where}. If one changes, or kiln applies a change here, kiln "
        "ignores what it asks of your machine again until you run `kiln trust` once more."
    )
    return 0
