"""What in a diff must be seen by the person before it reaches the working tree, whatever
the approval mode: files that run on the host or steer kiln (`host_code`), the deletion
of most of the repository, and paths an `edit:` ask rule names. Each is one short phrase
for the approval's question; a headless run applies a flagged diff only with
`--apply-flagged`. An `edit:` deny rule that names a path of the diff refuses the apply
(`refused_by_rules`): the model may have changed the file by any tool (`sed -i` in `run`
as well as `edit_file`), and the diff is what reaches the person's tree."""

from __future__ import annotations

import subprocess
from pathlib import Path

from agent.approval import Action
from agent.permissions import STRENGTH, Effect, PermissionRules, Rule
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


def flags_for(repo: Path, diff: str, rules: PermissionRules | None = None) -> tuple[str, ...]:
    """One phrase per reason `diff` must be looked at; () when nothing is flagged."""
    patches = parse_patches(diff)
    flags: list[str] = [
        f"changes {_named(paths)}, which the rule {rule.describe()} asks about"
        for rule, paths in ruled_paths(rules or PermissionRules(), diff)
        if rule.effect is Effect.ASK
    ]
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


def ruled_paths(rules: PermissionRules, diff: str) -> list[tuple[Rule, list[str]]]:
    """Each `edit:` deny or ask rule that names a path of `diff` (the old or the new path:
    renames, deletions and added files too), with those paths, deny first."""
    found: dict[Rule, list[str]] = {}
    for path in touched_paths(parse_patches(diff)) if rules else []:
        ruling = rules.verdict(Action.EDIT, path)
        if ruling is not None and ruling.effect is not Effect.ALLOW:
            found.setdefault(ruling.rule, []).append(path)
    return sorted(found.items(), key=lambda item: STRENGTH.index(item[0].effect))


def refused_by_rules(rules: PermissionRules, diff: str, session: str) -> tuple[Rule, str] | None:
    """The `edit:` deny rule that refuses applying `diff`, and the sentence saying so; None
    when no deny rule names any of its paths."""
    for rule, paths in ruled_paths(rules, diff):
        if rule.effect is Effect.DENY:
            return rule, (
                f"Not applied: the diff changes {_named(paths)}, which the rule "
                f"{rule.describe()} forbids; the changes are kept: change that rule, then "
                f"run `kiln apply {session}`."
            )
    return None


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
