"""Which repositories' own settings may loosen isolation: the ones the person trusts.

A repository's `.kiln.toml` is written by whoever wrote the repository, or by a model
whose diff was applied. Settings there that loosen the sandbox or reach the person's
machine (network, extra variables, the image or Dockerfile, the state dir, the backend,
the disk, memory and process limits, which variable holds an API key and the server it
goes to) are honoured only once the person ran `kiln trust` for that repository, and only
for the file as it was then: its hash is remembered. Network during setup is never taken
from a repository's file. The same holds for the MCP servers a repository's `.mcp.json`
names: their commands run on the host, so they start only once it is trusted as it is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from pathlib import Path

from agent.settings import paths

# Dotted keys a repository's own file may set only when trusted: they loosen the sandbox,
# its limits that protect the host, or say where the person's API key is sent.
NEEDS_TRUST = re.compile(
    r"^(sandbox\.(network|env|image|dockerfile|state_dir|backend|disk_limit|memory|pids_limit)"
    r"|models\.[^.]+\.(api_key_env|base_url)"
    r"|mcp_servers\..+"  # a server's command runs on the host
    r"|sandbox\.setup_network)$"
)
# ...and keys it may never set, trusted or not: network during setup is the person's call.
NEVER_FROM_REPO = re.compile(r"^sandbox\.setup_network$")


def why_ignored(key: str) -> str:
    if NEVER_FROM_REPO.match(key):
        return "only your own config.toml may allow the network during setup"
    return "the repository is not trusted; `kiln trust` honours it"


REPO_FILE = ".kiln.toml"
MCP_FILE = ".mcp.json"
TRUSTED_FILES = (REPO_FILE, MCP_FILE)


def trust_would_honour(ignored: dict[str, object]) -> dict[str, object]:
    """Of what kiln ignored in a repository's file, what trusting it would honour."""
    return {k: v for k, v in ignored.items() if not NEVER_FROM_REPO.match(k)}


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


def trust_file() -> Path:
    return paths.config_dir() / "trusted.json"


def _trusted() -> dict[str, object]:
    try:
        data = json.loads(trust_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def fingerprint(repo: Path, name: str = REPO_FILE) -> str:
    try:
        return hashlib.sha256((repo / name).read_bytes()).hexdigest()
    except OSError:
        return ""


def is_trusted(repo: Path, name: str = REPO_FILE) -> bool:
    """The person trusted this repository's file `name`, and it has not changed since."""
    entry = _trusted().get(str(repo.resolve()))
    if isinstance(entry, str):  # written before .mcp.json was trusted too: .kiln.toml's hash
        entry = {REPO_FILE: entry}
    if not isinstance(entry, dict):
        return False
    return entry.get(name) == fingerprint(repo, name) != ""


def trust(repo: Path) -> None:
    trusted: dict[str, object] = dict(_trusted())
    trusted[str(repo.resolve())] = {
        name: fingerprint(repo, name) for name in TRUSTED_FILES if fingerprint(repo, name)
    }
    paths.config_dir().mkdir(parents=True, exist_ok=True, mode=0o700)
    trust_file().write_text(json.dumps(trusted, indent=2) + "\n", encoding="utf-8")


def main(args: argparse.Namespace) -> int:
    """`kiln trust [PATH]`: honour PATH's .kiln.toml in full, and start the MCP servers its
    .mcp.json names, as the files are now."""
    from agent.vcs.repo import find_repo

    repo = find_repo(args.path)
    present = [name for name in TRUSTED_FILES if (repo / name).is_file()]
    if not present:
        print(f"{repo} has no {REPO_FILE} or {MCP_FILE}; there is nothing to trust.")
        return 0
    trust(repo)
    print(
        f"Trusted {' and '.join(str(repo / name) for name in present)} as they are now; if one "
        "changes, kiln ignores what it asks of your machine again until you run `kiln trust` "
        "once more."
    )
    return 0
