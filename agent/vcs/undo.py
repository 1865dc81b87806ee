"""Undoing the last change set kiln applied: only kiln's lines, never the person's.

The change set's own diff is applied in reverse with no context required, so lines the
person edited around kiln's (or anywhere else in the same files) stay as they are; when
they edited kiln's lines themselves the reverse does not apply and kiln refuses. A commit kiln made is taken off the branch when it is
the branch's tip (the reflog keeps it), else reverted by a new commit.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from agent.errors import KilnError
from agent.settings.host_code import host_env
from agent.vcs import ledger
from agent.vcs.gitcmd import git_dir, run
from agent.vcs.patches import diff_bytes


class UndoRefused(KilnError):
    """Undoing would touch lines the person changed since, or git refused."""


def undo_last(repo: Path, session: str = "") -> str:
    """Undo the newest change set (of `session`, when given); returns what was done."""
    entry = ledger.last_open(repo, session)
    if entry is None:
        raise KilnError("kiln has applied nothing here that is not undone already.")
    if entry.commit:
        said = _undo_commit(repo, entry)
    else:
        _reverse(repo, entry.diff, entry.paths)
        said = f"kiln's changes to {', '.join(entry.paths)} are taken out of your working tree."
    entry.undone = True
    ledger.update(repo, entry)
    return said


def _reverse(repo: Path, diff: str, paths: list[str]) -> None:
    with tempfile.NamedTemporaryFile(
        "wb", dir=git_dir(repo), prefix="kiln-undo-", suffix=".patch"
    ) as patch:
        patch.write(diff_bytes(diff))
        patch.flush()
        # -C0: only kiln's own lines must still be as kiln left them; the lines around
        # them (the diff's context) may have been edited since, and stay as they are.
        check = run(repo, "apply", "-R", "-C0", "--check", "--binary", patch.name)
        if not check.ok:
            raise UndoRefused(
                f"{', '.join(paths)} changed where kiln's lines are since kiln applied them, "
                "so nothing was undone; take those lines out yourself (git diff shows them)."
            )
        done = run(repo, "apply", "-R", "-C0", "--binary", patch.name)
        if not done.ok:
            raise UndoRefused(f"git could not undo the change ({done.reason}); nothing was undone.")


def _undo_commit(repo: Path, entry: ledger.Entry) -> str:
    head = run(repo, "rev-parse", "HEAD").out.strip()
    short = entry.commit[:10]
    if head != entry.commit:
        # git runs the commit hooks here: they get no model keys (see host_code).
        reverted = run(repo, "revert", "--no-edit", entry.commit, base_env=host_env())
        if not reverted.ok:
            run(repo, "revert", "--abort")
            raise UndoRefused(
                f"Reverting {short} conflicts with what came after it ({reverted.reason}); "
                "nothing was undone: revert it yourself with `git revert`."
            )
        return f"{short} is reverted by a new commit (later commits kept it from being dropped)."
    parent = run(repo, "rev-parse", "--verify", "--quiet", f"{entry.commit}^").out.strip()
    if not parent:
        raise UndoRefused(f"{short} is the repository's first commit; kiln leaves it alone.")
    diff = run(repo, "diff", "--binary", parent, entry.commit).out
    _reverse(repo, diff, entry.paths)
    run(repo, "reset", "-q", "--soft", parent)
    run(repo, "reset", "-q", parent, "--", *entry.paths)  # the index forgets kiln's lines too
    return f"{short} is taken off the branch and its lines out of your working tree (git reflog keeps it)."


def main(args: object) -> int:
    """`kiln undo`: the newest change set kiln applied to this repository."""
    from agent.settings.repo import find_repo

    repo = find_repo(getattr(args, "repo", "."))
    print(undo_last(repo))
    return 0
