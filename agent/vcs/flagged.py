"""What in a diff must be seen by the person before it reaches the working tree, whatever
the approval mode: files that run on the host or steer kiln (`host_code`), and the
deletion of most of the repository. Each is one short phrase for the approval's question;
a headless run applies a flagged diff only with `--apply-flagged`."""

from __future__ import annotations

import subprocess
from pathlib import Path

from agent.prompts.rules import RULE_FILES
from agent.settings import host_code, trust
from agent.vcs import ledger
from agent.vcs.apply import parse_patches, touched_paths

SHOWN = 4  # paths named in one phrase; the diff holds the rest


def _tracked_files(repo: Path) -> int:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=repo, capture_output=True)
    return listed.stdout.count(b"\0")


def _named(paths: list[str]) -> str:
    more = f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else ""
    return ", ".join(paths[:SHOWN]) + more


def flags_for(repo: Path, diff: str) -> tuple[str, ...]:
    """One phrase per reason `diff` must be looked at; () when nothing is flagged."""
    patches = parse_patches(diff)
    flags: list[str] = []
    by_reason: dict[str, list[str]] = {}
    for path in host_code.host_files_in(repo, touched_paths(patches)):
        by_reason.setdefault(host_code.why_host_file(repo, path), []).append(path)
    for why, paths in by_reason.items():
        flags.append(f"changes {_named(paths)} ({why})")
    deleted = [p.old_path for p in patches if "deleted" in p.flags and p.old_path]
    tracked = _tracked_files(repo) if deleted else 0  # git is asked only when it matters
    if deleted and len(deleted) * 2 > tracked:
        flags.append(f"deletes {len(deleted)} of the repository's {tracked} files")
    return tuple(flags)


def trust_dropped(repo: Path, paths: list[str]) -> list[str]:
    """The trusted files whose trust the applied `paths` ended (they changed what it
    covered): said once after the apply, so the person knows why servers stop starting."""
    dropped = []
    for name in trust.TRUSTED_FILES:
        if trust.was_trusted(repo, name) and not trust.is_trusted(repo, name):
            dropped.append(name)
    return dropped if host_code.host_files_in(repo, paths) else []


def unreviewed_rules(repo: Path) -> list[str]:
    """Rule files (AGENTS.md ...) a kiln apply wrote that are not committed yet: read into
    every prompt, so the session says where they came from."""
    written = {p for e in ledger.entries(repo) if not e.undone for p in e.paths}
    mine = [name for name in RULE_FILES if name in written]
    if not mine:
        return []
    status = subprocess.run(
        ["git", "status", "--porcelain", "--", *mine], cwd=repo, capture_output=True, text=True
    )
    return [line[3:] for line in status.stdout.splitlines() if line[3:] in mine]
