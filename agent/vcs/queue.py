"""The review queue's git side: kiln's commits on the current branch (its trailers say so),
and what can be done to each, every one a plain git operation the reflog can undo:
accept (fast-forward the branch they are for), reword, squash into the commit before, drop.
No Textual here: tui/screens/queue.py draws it, `/queue` lists it in line mode."""

from __future__ import annotations

import re
import shlex
import sys
import tempfile
from pathlib import Path

from agent.errors import KilnError
from agent.settings.host_code import host_env
from agent.vcs.gitcmd import git_dir, run
from sandbox.frozen import frozen

SEP = "\x1f"
TRAILER = re.compile(r"^Kiln-([A-Za-z]+): (.*)$", re.M)


class QueueRefused(KilnError):
    """git refused the queue's action; the branch is as it was."""


@frozen
class QueuedCommit:
    sha: str
    subject: str
    trailers: dict[str, str]
    files: int = 0
    insertions: int = 0
    deletions: int = 0

    @property
    def session(self) -> str:
        return self.trailers.get("Session", "")

    @property
    def cost(self) -> str:
        return self.trailers.get("Cost", "")

    @property
    def tests(self) -> str:
        return self.trailers.get("Tests", "")

    @property
    def target(self) -> str:
        return self.trailers.get("Target", "")

    @property
    def diffstat(self) -> str:
        return f"{self.files} files +{self.insertions} -{self.deletions}"


def kiln_commits(repo: Path, session: str = "", limit: int = 200) -> list[QueuedCommit]:
    """kiln's commits on the current branch, newest first (of `session`, when given)."""
    log = run(repo, "log", f"-{limit}", "--shortstat", f"--format=%x1e%H{SEP}%s{SEP}%B")
    if not log.ok:
        return []
    found = []
    for record in log.out.split("\x1e")[1:]:
        sha, subject, rest = record.split(SEP, 2)
        body, _, stat = rest.rpartition("\n\n")
        if not body.strip():  # no stat line (an empty commit): all of it is the body
            body, stat = rest, ""
        trailers = dict(TRAILER.findall(body))
        if "Session" not in trailers or (session and trailers["Session"] != session):
            continue
        numbers = {w: int(n) for n, w in re.findall(r"(\d+) (file|insertion|deletion)", stat)}
        found.append(
            QueuedCommit(
                sha,
                subject,
                trailers,
                numbers.get("file", 0),
                numbers.get("insertion", 0),
                numbers.get("deletion", 0),
            )
        )
    return found


def commit_diff(repo: Path, sha: str) -> str:
    return run(repo, "show", "--format=", "--binary", "-M", sha).out


def queue_lines(repo: Path, session: str = "") -> list[str]:
    commits = kiln_commits(repo, session)
    if not commits:
        return ["kiln has made no commits on this branch (with [git] commit, or /commit)."]
    lines = [
        f"{c.sha[:10]}  {c.subject[:50]:50}  {c.diffstat:18}  {c.cost or '?':>9}  "
        f"{c.tests or 'tests not run'}"
        for c in commits
    ]
    return [*lines, "The queue (/queue in the full-screen app) accepts, rewords, squashes, drops."]


def _clean_tree(repo: Path, what: str) -> None:
    dirty = run(repo, "status", "--porcelain", "--untracked-files=no").out.strip()
    if dirty:
        raise QueueRefused(
            f"Your working tree has uncommitted changes, so kiln did not {what}; commit or "
            "stash them first."
        )


def _rebase(repo: Path, sha: str, action: str, then: str, what: str, base: str = "") -> str:
    """`git rebase -i` from before `base` (default `sha`), with `sha`'s line rewritten."""
    _clean_tree(repo, what)
    start = base or sha
    parent = run(repo, "rev-parse", "--verify", "--quiet", f"{start}^").out.strip()
    editor = " ".join(
        shlex.quote(w)
        for w in [sys.executable, "-m", "agent.vcs.rebase_todo", action, sha, *then.split(" ")]
        if w
    )
    env = {"GIT_SEQUENCE_EDITOR": editor, "GIT_EDITOR": "true"}
    before = run(repo, "rev-parse", "HEAD").out.strip()
    start_at = [parent] if parent else ["--root"]
    # The rebase runs the repository's hooks: they get no model keys (see host_code).
    done = run(repo, "rebase", "-q", "-i", *start_at, env=env, base_env=host_env())
    if not done.ok:
        run(repo, "rebase", "--abort")
        raise QueueRefused(f"git could not {what} ({done.reason}); the branch is as it was.")
    return (
        f"{what.capitalize()}: done. git reflog keeps the branch as it was: "
        f"git reset --hard {before[:10]}"
    )


def drop(repo: Path, sha: str) -> str:
    return _rebase(repo, sha, "drop", "", f"drop {sha[:10]}")


def _with_message(
    repo: Path, message: str, action: str, sha: str, what: str, base: str = ""
) -> str:
    """The rebase, with the rewritten commit's message set to `message` (hooks run)."""
    with tempfile.NamedTemporaryFile(
        "w", dir=git_dir(repo), prefix="kiln-msg-", encoding="utf-8", delete=False
    ) as file:
        file.write(message)
    try:
        amend = f"git commit --amend -q -F {shlex.quote(file.name)}"
        return _rebase(repo, sha, action, amend, what, base)
    finally:
        Path(file.name).unlink(missing_ok=True)


def _message(repo: Path, sha: str) -> str:
    return run(repo, "log", "-1", "--format=%B", sha).out


def reword(repo: Path, sha: str, subject: str) -> str:
    """A new subject line; the body and kiln's trailers stay."""
    if not subject.strip():
        raise QueueRefused("The new message is empty; type the subject line to use.")
    _, _, body = _message(repo, sha).partition("\n")
    message = subject.strip() + "\n" + body
    return _with_message(repo, message, "pick", sha, f"reword {sha[:10]}")


def squash(repo: Path, sha: str) -> str:
    """Fold `sha` into the commit before it: that one's subject, both commits' tokens and
    cost added up in the trailers, `sha`'s subject kept in the body."""
    parent = run(repo, "rev-parse", "--verify", "--quiet", f"{sha}^").out.strip()
    if not parent:
        raise QueueRefused("The first commit has nothing before it to squash into.")
    first, second = _message(repo, parent), _message(repo, sha)
    message = _summed(first, second)
    return _with_message(
        repo, message, "fixup", sha, f"squash {sha[:10]} into {parent[:10]}", base=parent
    )


def _summed(first: str, second: str) -> str:
    one, two = dict(TRAILER.findall(first)), dict(TRAILER.findall(second))
    subject = first.splitlines()[0] if first.strip() else ""
    body = [line for line in first.splitlines()[1:] if line.strip() and not TRAILER.match(line)]
    body.append(f"Squashed in: {second.splitlines()[0] if second.strip() else ''}")
    merged = {**two, **one}
    if "Tokens" in one or "Tokens" in two:
        merged["Tokens"] = str(_int(one.get("Tokens")) + _int(two.get("Tokens")))
    costs = [_dollars(one.get("Cost")), _dollars(two.get("Cost"))]
    if "Cost" in merged:
        merged["Cost"] = "unknown" if None in costs else f"${sum(c or 0.0 for c in costs):.4f}"
    trailers = [f"Kiln-{key}: {value}" for key, value in merged.items()]
    return "\n".join([subject, "", *body, "", *trailers]) + "\n"


def _int(raw: str | None) -> int:
    return int(raw) if raw and raw.isdigit() else 0


def _dollars(raw: str | None) -> float | None:
    if raw is None:
        return 0.0
    try:
        return float(raw.lstrip("$"))
    except ValueError:
        return None


def accept(repo: Path, sha: str) -> str:
    """Move the branch the commit is for (its Kiln-Target) forward to it."""
    trailers = dict(TRAILER.findall(run(repo, "log", "-1", "--format=%B", sha).out))
    target = trailers.get("Target", "")
    here = run(repo, "branch", "--show-current").out.strip()
    if not target or target == here:
        return f"{sha[:10]} is on {here} already; nothing to accept."
    old = run(repo, "rev-parse", "--verify", "--quiet", f"refs/heads/{target}").out.strip()
    if not old:
        raise QueueRefused(f"The branch {target} is gone; create it, or merge {sha[:10]} yourself.")
    if not run(repo, "merge-base", "--is-ancestor", old, sha).ok:
        raise QueueRefused(
            f"{target} has moved on since kiln branched off; merge {here} into it yourself."
        )
    moved = run(
        repo, "update-ref", "-m", f"kiln: accept {sha[:10]}", f"refs/heads/{target}", sha, old
    )
    if not moved.ok:
        raise QueueRefused(f"git did not move {target} ({moved.reason}).")
    return f"{target} now ends at {sha[:10]} (it was {old[:10]}; git reflog {target} has it)."
