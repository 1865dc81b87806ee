"""Which repositories' own settings may loosen isolation: the ones the person trusts.

A repository's `.kiln.toml` is written by whoever wrote the repository, or by a model
whose diff was applied. Settings there that loosen the sandbox or reach the person's
machine (network, extra variables, the image or Dockerfile, the state dir, the backend,
the disk, memory and process limits, which variable holds an API key and the server it
goes to) are honoured only once the person ran `kiln trust` for that repository, and only
for the file as it was then: its hash is remembered. Network during setup is never taken
from a repository's file.
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
    r"|sandbox\.setup_network)$"
)
# ...and keys it may never set, trusted or not: network during setup is the person's call.
NEVER_FROM_REPO = re.compile(r"^sandbox\.setup_network$")


def why_ignored(key: str) -> str:
    if NEVER_FROM_REPO.match(key):
        return "only your own config.toml may allow the network during setup"
    return "the repository is not trusted; `kiln trust` honours it"


REPO_FILE = ".kiln.toml"


def trust_would_honour(ignored: dict[str, object]) -> dict[str, object]:
    """Of what kiln ignored in a repository's file, what trusting it would honour."""
    return {k: v for k, v in ignored.items() if not NEVER_FROM_REPO.match(k)}


def trust_file() -> Path:
    return paths.config_dir() / "trusted.json"


def _trusted() -> dict[str, str]:
    try:
        data = json.loads(trust_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def fingerprint(repo: Path) -> str:
    try:
        return hashlib.sha256((repo / REPO_FILE).read_bytes()).hexdigest()
    except OSError:
        return ""


def is_trusted(repo: Path) -> bool:
    """The person trusted this repository, and its file has not changed since."""
    return _trusted().get(str(repo.resolve())) == fingerprint(repo) != ""


def trust(repo: Path) -> None:
    trusted = _trusted()
    trusted[str(repo.resolve())] = fingerprint(repo)
    paths.config_dir().mkdir(parents=True, exist_ok=True, mode=0o700)
    trust_file().write_text(json.dumps(trusted, indent=2) + "\n", encoding="utf-8")


def main(args: argparse.Namespace) -> int:
    """`kiln trust [PATH]`: honour PATH's .kiln.toml in full, as it is now."""
    from agent.vcs.repo import find_repo

    repo = find_repo(args.path)
    if not (repo / REPO_FILE).is_file():
        print(f"{repo} has no {REPO_FILE}; there is nothing to trust.")
        return 0
    trust(repo)
    print(
        f"Trusted {repo / REPO_FILE} as it is now; if it changes, kiln ignores its sandbox "
        "settings again until you run `kiln trust` once more."
    )
    return 0
