"""What is reviewed: a revision, a range, the index or the working tree, as one diff, and
the tree its new side is read from (the model's read-only tools look there).

`kiln review` with no target reviews the uncommitted changes when the tree is dirty, else
HEAD. A merge is reviewed against its first parent (what it brings in); a repository's
first commit against the empty tree.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import git

from agent.errors import UsageError

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree, in every repository
DIFF_FLAGS = ("--no-color", "--no-ext-diff", "-M", "-U3")


@dataclass
class Target:
    label: str  # what the person asked for: "HEAD", "a1b2c3d..HEAD", "--uncommitted"
    revision: str  # the new side: a full commit id, or "WORKTREE" / "INDEX"
    base: str  # the old side: a commit id or the empty tree
    diff: str
    title: str = ""  # the commit's subject, for a single commit
    notes: list[str] = field(default_factory=list)
    head: str = ""  # the commit whose tree the new side is (working-tree targets: HEAD)

    @property
    def is_commit(self) -> bool:
        return self.revision not in ("WORKTREE", "INDEX")


def open_repo(path: Path) -> git.Repo:
    try:
        return git.Repo(path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise UsageError(f"{path} is not a git repository; run kiln review inside one.") from None


def resolve(
    repo: git.Repo,
    rev: str | None = None,
    *,
    staged: bool = False,
    uncommitted: bool = False,
    base_branch: str | None = None,
) -> Target:
    """The change to review, as the flags (or their defaults) name it."""
    chosen = sum(bool(x) for x in (rev, staged, uncommitted, base_branch))
    if chosen > 1:
        raise UsageError(
            "Name one target: a revision, A..B, --staged, --uncommitted or --base BRANCH."
        )
    if not chosen:
        uncommitted = not _has_commits(repo) or repo.is_dirty(untracked_files=True)
        rev = None if uncommitted else "HEAD"
    head = _commit_id(repo, "HEAD") if _has_commits(repo) else ""
    if staged:
        return Target(
            "--staged",
            "INDEX",
            head or EMPTY_TREE,
            _git(repo, "diff", "--cached", head or EMPTY_TREE),
            head=head,
        )
    if uncommitted:
        diff = _git(repo, "diff", head or EMPTY_TREE) + _untracked_diff(repo)
        return Target("--uncommitted", "WORKTREE", head or EMPTY_TREE, diff, head=head)
    if base_branch:
        tip = _commit_id(repo, base_branch)
        merge_base = _git(repo, "merge-base", tip, "HEAD").strip()
        if not merge_base:
            raise UsageError(f"{base_branch} and HEAD share no history; name a range A..B instead.")
        diff = _git(repo, "diff", merge_base, head)
        return Target(f"--base {base_branch}", head, merge_base, diff, head=head)
    assert rev is not None
    if ".." in rev:
        return _range(repo, rev)
    return _single(repo, rev)


def _single(repo: git.Repo, rev: str) -> Target:
    commit = repo.commit(_commit_id(repo, rev))
    notes: list[str] = []
    if not commit.parents:
        base = EMPTY_TREE
        notes.append("The repository's first commit: every file is new.")
    else:
        base = commit.parents[0].hexsha
        if len(commit.parents) > 1:
            notes.append("A merge commit: reviewed as the change it brings to its first parent.")
    diff = _git(repo, "diff", base, commit.hexsha)
    title = str(commit.summary)
    return Target(rev, commit.hexsha, base, diff, title=title, notes=notes, head=commit.hexsha)


def _range(repo: git.Repo, rev: str) -> Target:
    symmetric = "..." in rev
    left, _, right = rev.partition("..." if symmetric else "..")
    new = _commit_id(repo, right or "HEAD")
    old = _commit_id(repo, left or "HEAD")
    if symmetric:
        old = _git(repo, "merge-base", old, new).strip() or old
    return Target(rev, new, old, _git(repo, "diff", old, new), head=new)


def _has_commits(repo: git.Repo) -> bool:
    try:
        repo.head.commit  # noqa: B018 - raises ValueError in a repository with no commits
    except ValueError:
        return False
    return True


def _commit_id(repo: git.Repo, rev: str) -> str:
    try:
        return str(repo.git.rev_parse("--verify", "--quiet", f"{rev}^{{commit}}"))
    except git.GitCommandError:
        raise UsageError(
            f"{rev!r} is not a commit in this repository; name a revision such as HEAD, "
            "HEAD~2 or a commit id."
        ) from None


def _git(repo: git.Repo, *args: str) -> str:
    command, rest = args[0], args[1:]
    flags = DIFF_FLAGS if command == "diff" else ()
    return str(repo.git.execute(["git", command, *flags, *rest], strip_newline_in_stdout=False))


def _untracked_diff(repo: git.Repo) -> str:
    """New files git does not know yet, as `git diff` would show them once added."""
    parts = []
    for path in repo.untracked_files:
        done = subprocess.run(
            ["git", "diff", *DIFF_FLAGS, "--no-index", "--", "/dev/null", path],
            cwd=repo.working_tree_dir, capture_output=True, text=True, errors="replace",
        )  # fmt: skip
        parts.append(done.stdout)
    return "".join(parts)


@contextlib.contextmanager
def checkout(repo: git.Repo, target: Target) -> Iterator[Path]:
    """A directory holding the new side: the working tree itself when that is what is
    reviewed (or HEAD of a clean tree), else a temporary worktree removed afterwards."""
    root = Path(str(repo.working_tree_dir))
    same = target.revision == _head_or_empty(repo) and not repo.is_dirty(untracked_files=False)
    if not target.is_commit or same:
        yield root
        return
    where = Path(tempfile.mkdtemp(prefix="kiln-review-")) / "tree"
    repo.git.worktree("add", "--detach", "--quiet", str(where), target.revision)
    try:
        yield where
    finally:
        with contextlib.suppress(git.GitCommandError):
            repo.git.worktree("remove", "--force", str(where))
        shutil.rmtree(where.parent, ignore_errors=True)


def _head_or_empty(repo: git.Repo) -> str:
    return repo.head.commit.hexsha if _has_commits(repo) else ""
