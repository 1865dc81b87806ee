"""Committing a change set kiln applied: only its paths, on the current branch or on
`kiln/<session>`, with trailers naming the session, the model, the tokens and the cost.

git itself commits, so the person's own hooks run (never `--no-verify`); a hook that
refuses is shown in one sentence and the changes stay in the working tree, staged. Hooks
run on the person's machine, so three things hold: git's hooks that are the repository's
(a hooks folder in the work tree, a framework's hook running what a repository file lists:
`host_code.repository_git_hooks`) would run the change kiln just applied, so git runs no
hook at all for kiln's commit, and kiln says so; so it does when the change set (or an
uncommitted change in the hooks folder) touches what the hooks run or read; and git, with
its hooks, gets the person's environment without the model keys (`host_code.host_env`).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from agent.errors import KilnError
from agent.llm.base import Message
from agent.settings import host_code
from agent.vcs import ledger
from agent.vcs.gitcmd import Done, git_dir, run
from sandbox.frozen import frozen

SUBJECT_MAX = 72
TYPES = (
    ("fix", ("fix", "bug", "fail", "error", "broken", "crash", "wrong")),
    ("test", ("test",)),
    ("docs", ("doc", "readme", "comment")),
    ("refactor", ("refactor", "rename", "clean", "move", "split")),
)


class CommitFailed(KilnError):
    """git (or a hook of the repository) refused the commit; nothing was lost."""


@frozen
class Provenance:
    """Who made the change: what the trailers say, read back by the review queue."""

    session: str
    model: str = ""
    tokens: int = 0
    cost_usd: float | None = None
    tests: str = ""  # e.g. "3 passed, 0 failed"
    target: str = ""  # the branch the commits are for, when kiln commits on its own

    def trailers(self) -> list[str]:
        lines = [f"Kiln-Session: {self.session}"]
        if self.model:
            lines.append(f"Kiln-Model: {self.model}")
        lines.append(f"Kiln-Tokens: {self.tokens}")
        lines.append(
            "Kiln-Cost: unknown" if self.cost_usd is None else f"Kiln-Cost: ${self.cost_usd:.4f}"
        )
        if self.tests:
            lines.append(f"Kiln-Tests: {self.tests}")
        if self.target:
            lines.append(f"Kiln-Target: {self.target}")
        return lines


def template_message(task: str) -> str:
    """A conventional subject from the task alone, for when no model writes one."""
    words = " ".join(task.split())
    lowered = words.lower()
    kind = next((k for k, keys in TYPES if any(w in lowered for w in keys)), "feat")
    subject = f"{kind}: {words[:1].lower()}{words[1:]}".rstrip(".")
    return subject if len(subject) <= SUBJECT_MAX else subject[: SUBJECT_MAX - 1] + "…"


MESSAGE_PROMPT = (
    "Write the subject line of a git commit for this change, in the Conventional Commits "
    "style (`type: what changed`, imperative mood, at most 72 characters; type is one of "
    "feat, fix, refactor, test, docs, chore). Answer with the line alone."
)


def message_request(task: str, diff: str) -> list[Message]:
    return [
        Message("system", MESSAGE_PROMPT, cache_breakpoint=True),
        Message("user", f"The task: {task}\n\nThe change:\n{diff[:12000]}"),
    ]


def clean_subject(reply: str, task: str) -> str:
    """The model's first line if it reads as a conventional subject, else the template."""
    line = next((s.strip().strip("`\"'") for s in reply.splitlines() if s.strip()), "")
    if not re.match(r"^[a-z]+(\([\w./-]+\))?!?: \S", line) or len(line) > SUBJECT_MAX:
        return template_message(task)
    return line


def current_branch(repo: Path) -> str:
    return run(repo, "branch", "--show-current").out.strip()


def hooks_not_run(repo: Path, paths: list[str]) -> list[str]:
    """What keeps git's hooks from running at kiln's commit of `paths`: those of them the
    hooks run or read, and uncommitted changes in the work tree's hooks folder."""
    touched = host_code.hooks_touched(repo, paths)
    folder = host_code.hooks_dir(repo)
    if folder is not None:
        changed = run(repo, "status", "--porcelain", "-z", "--", folder or ".").out
        touched += [item[3:] for item in changed.split("\0") if item[3:]]
    return sorted(set(touched))


# What git leaves in its directory while an operation waits for the person.
_UNDER_WAY = (
    ("rebase-merge", "a rebase"),
    ("rebase-apply", "a rebase (or git am)"),
    ("MERGE_HEAD", "a merge"),
    ("CHERRY_PICK_HEAD", "a cherry-pick"),
    ("REVERT_HEAD", "a revert"),
)
_THEN = "then /commit (or commit them yourself)."


def not_now(repo: Path) -> str:
    """Why a commit by kiln now would land where the person does not expect it, as the
    sentence's reason and what to do: in the middle of a rebase, merge, cherry-pick or
    revert (conflicted or not: git would make kiln's commit a part of it), or on a detached
    HEAD (a commit on no branch); "" when none."""
    here = git_dir(repo)
    for marker, what in _UNDER_WAY:
        if (here / marker).exists():
            return f"{what} is under way in {repo}; finish or abort it (`git status` says how), {_THEN}"
    if not run(repo, "symbolic-ref", "-q", "HEAD").ok:
        return f"HEAD is detached (on no branch) in {repo}; switch to a branch (`git switch -c NAME`), {_THEN}"
    return ""


def commit_paths(
    repo: Path,
    paths: list[str],
    subject: str,
    who: Provenance,
    *,
    branch: str = "",
    key_vars: frozenset[str] = frozenset(),
) -> str:
    """Commit exactly `paths` (as the working tree has them); returns the commit id.

    `branch` (a name, `{session}` filled in): commit there, switching to it first; the
    working tree's changes come along, and the branch left is named in Kiln-Target.
    `key_vars`: the variables holding model keys beyond the well-known ones, kept from git.
    """
    refused = not_now(repo)
    if refused:  # the apply stands: only the commit waits
        raise CommitFailed(f"Not committed, the changes stay in your working tree: {refused}")
    skip_hooks = hooks_not_run(repo, paths) or host_code.repository_git_hooks(repo)
    env = host_code.host_env(key_vars)
    with tempfile.TemporaryDirectory(prefix="kiln-nohooks-") as empty:
        # An empty hooks folder: git runs no hook (.git/hooks included) at the switch,
        # the add or the commit, when the change touches what they would run.
        no_hooks = ["-c", f"core.hooksPath={empty}"] if skip_hooks else []

        def git(*args: str) -> Done:
            return run(repo, *no_hooks, *args, base_env=env)

        if branch:
            who = _switch(repo, branch, who, git)
        added = git("add", "-A", "--", *paths)
        if not added.ok:
            raise CommitFailed(f"git add failed ({added.reason}); nothing was committed.")
        message = subject + "\n\n" + "\n".join(who.trailers()) + "\n"
        with tempfile.NamedTemporaryFile(
            "w", dir=git_dir(repo), prefix="kiln-msg-", encoding="utf-8"
        ) as file:
            file.write(message)
            file.flush()
            done = git("commit", "-q", "-F", file.name, "--", *paths)
    if not done.ok:
        raise CommitFailed(
            f"The commit was refused ({done.reason}); the changes are in your working tree, "
            "staged: fix what the hook reports and commit, or /commit again."
        )
    return run(repo, "rev-parse", "HEAD").out.strip()


def _switch(repo: Path, branch: str, who: Provenance, git: Callable[..., Done]) -> Provenance:
    """Go to `branch` (`{session}` filled in) with the working tree's changes; the
    provenance then names the branch left as the target."""
    name = branch.replace("{session}", who.session)
    here = current_branch(repo)
    if here == name:
        return who
    exists = run(repo, "rev-parse", "--verify", "--quiet", f"refs/heads/{name}").ok
    switched = git("switch", *([] if exists else ["-c"]), name)
    if not switched.ok:
        raise CommitFailed(
            f"kiln could not switch to {name} ({switched.reason}); the "
            "changes stay in your working tree: commit them yourself or set [git] branch."
        )
    return Provenance(**{**who.__dict__, "target": who.target or here})


def commit_last_applied(
    repo: Path,
    subject: str,
    who: Provenance,
    *,
    branch: str = "",
    key_vars: frozenset[str] = frozenset(),
) -> str:
    """Commit the newest uncommitted change set `who.session` applied; returns the commit."""
    entry = ledger.last_open(repo, who.session)
    if entry is None or entry.commit:
        raise KilnError("There is no applied change of this session to commit; /apply first.")
    entry.commit = commit_paths(repo, entry.paths, subject, who, branch=branch, key_vars=key_vars)
    ledger.update(repo, entry)
    return entry.commit
