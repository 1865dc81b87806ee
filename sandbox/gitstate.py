"""Baseline, diff and checkpoints as git objects in kiln's own git dir, run inside the sandbox.

kiln keeps its bookkeeping in a private git dir mounted at /kiln/git (on the host it lives in
the sandbox's state dir), with /workspace as its work tree and the repository's object
store (mounted read-only) as an alternate. So:
- the person's repository (and the workspace's `.git`) never gets a kiln ref or object;
- the baseline is the workspace as it started, uncommitted and untracked files included;
- a checkpoint is a commit of the whole workspace (every non-ignored file, whatever wrote
  it), so shell side effects are captured, and it survives the container being killed.

Each function returns a bash script; the backends run it as the sandbox user.
"""

from __future__ import annotations

import shutil
from pathlib import Path

KILN_GIT = "/kiln/git"
# The repository's own object store, mounted read-only: the baseline's blobs stay readable
# even if a command deletes /workspace/.git.
KILN_OBJECTS = "/kiln/objects"
WORKSPACE = "/workspace"
# Commands' whole outputs, read-only inside: the model pages a cut output from there.
OUTPUTS = "/kiln/outputs"

# Stat fields that differ between the host and an overlay/copy (inode, device, ctime) must
# not force git to rehash every file; size + mtime + mode are what we trust.
_GIT = (
    "git -c core.checkStat=minimal -c core.trustctime=false -c core.fsmonitor=false"
    " -c core.autocrlf=false -c core.quotepath=off -c safe.directory='*'"
    " -c gc.auto=0 -c advice.detachedHead=false"
    # A ~/.gitconfig a command wrote must not change the names the diff's headers carry.
    " -c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.relative=false"
)

GIT_ENV = {
    "GIT_DIR": KILN_GIT,
    "GIT_WORK_TREE": WORKSPACE,
    "GIT_AUTHOR_NAME": "kiln",
    "GIT_AUTHOR_EMAIL": "kiln@localhost",
    "GIT_COMMITTER_NAME": "kiln",
    "GIT_COMMITTER_EMAIL": "kiln@localhost",
    "GIT_CONFIG_NOSYSTEM": "1",
}

# Files this big stay out of diffs, checkpoints and the apply: a command that writes a
# gigabyte must not make every later step hash it, store it or hold it in memory. Each add
# leaves them out by an exact (literal) pathspec, so git never reads them, whether kiln
# tracked them before or not; a file that was small at an earlier checkpoint gets back its
# baseline entry (or none), so what is applied never holds it. The repository's files and
# its own ignore rules are untouched.
BIG_FILE_KB = 50 * 1024
_BIG = '"$GIT_DIR/kiln-big"'
_PATHSPEC = '"$GIT_DIR/kiln-pathspec"'
_FIND_BIG = (
    f"find . -path ./.git -prune -o -type f -size +{BIG_FILE_KB}k -printf '%P\\0' > {_BIG}"
    f" 2>/dev/null || true; {{ printf '.\\0'; while IFS= read -r -d '' p; do"
    f" printf ':(exclude,literal)%s\\0' \"$p\"; done < {_BIG}; }} > {_PATHSPEC}"
)
_ADD_SOME = f"add -A --pathspec-from-file={_PATHSPEC} --pathspec-file-nul"
# A big file's entry goes back to the baseline's, from the tree: nothing is hashed.
_BIG_TO_BASELINE = (
    f"if [ -s {_BIG} ]; then {_GIT} update-index -z --force-remove --stdin < {_BIG} && "
    f"xargs -0 -r {_GIT} --literal-pathspecs ls-tree -z --full-tree refs/kiln/baseline -- "
    f"< {_BIG} | grep -z '^[0-7]* blob ' | {_GIT} update-index -z --index-info; fi"
)
# A copied index may be unusable (split index, other version): then start from an empty one.
_ADD = f'{{ {_GIT} add -A . 2>/dev/null || {{ rm -f "$GIT_DIR/index" && {_GIT} add -A . ; }} ; }}'
_ADD_ALL_BUT_BIG = f'{{ {_GIT} {_ADD_SOME} 2>/dev/null || {{ rm -f "$GIT_DIR/index" && {_GIT} {_ADD_SOME} ; }} ; }}'
# The baseline is the person's repository as it is; only what commands write is weighed.
# A snapshot adds the same way when no file is too big for a diff.
_ADD_BASELINE = f"cd {WORKSPACE} && {_ADD}"
_ADD_ALL = f"cd {WORKSPACE} && {{ {_FIND_BIG}; }} && {_ADD_ALL_BUT_BIG} && {_BIG_TO_BASELINE}"


def repo_objects(repo: Path) -> Path | None:
    objects = repo / ".git" / "objects"
    return objects if objects.is_dir() else None


def init_kiln_git(path: Path, repo: Path) -> None:
    """Create kiln's git dir on the host, seeded with the repo's index so the baseline is fast.

    Written directly rather than with `git init`: the layout is fixed and tiny, and two git
    processes would add their start-up to every session's.
    """
    for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    (path / "HEAD").write_text("ref: refs/heads/main\n")
    (path / "config").write_text(
        "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
    )
    repo_git = repo / ".git"
    if repo_objects(repo) is not None:
        (path / "objects" / "info" / "alternates").write_text(f"{KILN_OBJECTS}\n")
        if (repo_git / "index").is_file():
            shutil.copyfile(repo_git / "index", path / "index")


def baseline_script() -> str:
    # Both refs in one update-ref, and mkdir only where the command server has not made
    # HOME already: every process here is a few ms of the session's start.
    both = "printf 'update refs/kiln/baseline %s\\nupdate refs/kiln/head %s\\n' $c $c"
    return (
        f'{{ [ -d "$HOME" ] || mkdir -p "$HOME"; }} && {_ADD_BASELINE} && t=$({_GIT} write-tree) && '
        f"c=$({_GIT} commit-tree -m baseline $t) && {{ {both} | {_GIT} update-ref --stdin; }} && "
        "echo $c"
    )


def snapshot_script(*, any_big: bool = True) -> str:
    """One pass for what the loop asks after every step: prints the workspace's tree id,
    a newline, then (read_snapshot) one diff against the baseline, its raw records before
    the binary patch. One `git add -A` and one diff instead of one per question.
    `any_big=False`: kiln has found no file too big for a diff in the workspace
    (WorkspaceSandbox._may_hold_big_files), so no `find` looks for one and nothing is
    left out of the add."""
    add = _ADD_ALL if any_big else _ADD_BASELINE
    return (
        f"{add} && {_GIT} write-tree && {_GIT} diff --cached --raw -z -p --binary -M "
        "--no-color --no-ext-diff --no-textconv refs/kiln/baseline"
    )


def read_snapshot(out: bytes) -> tuple[str, list[bytes], bytes]:
    """snapshot_script's output: the tree id, the changed paths (sorted; both names of a
    renamed file, as `--name-only --no-renames` would list them), the binary patch.

    After the tree's line come the raw records (`:modes ids STATUS`, NUL, the path, NUL,
    and for a rename or copy the new path, NUL), one more NUL, then the patch; nothing at
    all when nothing changed."""
    tree, _, rest = out.partition(b"\n")
    paths: set[bytes] = set()
    at = 0
    while rest.startswith(b":", at):
        end = rest.index(b"\0", at)
        status = rest[at:end].rsplit(b" ", 1)[-1]  # M, A, D, T, or R/C and a score
        for _ in range(2 if status[:1] in (b"R", b"C") else 1):
            start, end = end + 1, rest.index(b"\0", end + 1)
            paths.add(rest[start:end])
        at = end + 1
    if rest.startswith(b"\0", at):
        at += 1
    return tree.decode().strip(), sorted(paths), rest[at:]


def commit_tree_script() -> str:
    """Checkpoint a tree a snapshot has just written ($KILN_TREE), on top of refs/kiln/head."""
    return (
        f'c=$({_GIT} commit-tree -p refs/kiln/head -m "$KILN_LABEL" "$KILN_TREE") && '
        f"{_GIT} update-ref refs/kiln/head $c && echo $c"
    )


def checkpoint_script() -> str:
    """Commit the whole workspace; the label comes in $KILN_LABEL so it needs no quoting."""
    return f"{_ADD_ALL} && KILN_TREE=$({_GIT} write-tree) && {commit_tree_script()}"


def restore_script() -> str:
    """Bring the workspace back to the commit in $KILN_REF (files added since are removed).

    The index first has to describe the workspace as it is now, so that `read-tree --reset -u`
    (what `git reset --hard` does) rewrites only what differs and deletes what is new.
    """
    return (
        f'{_GIT} cat-file -e "$KILN_REF^{{commit}}" 2>/dev/null || '
        '{ echo "no such checkpoint: $KILN_REF" >&2; exit 3; }; '
        f'{_ADD_ALL} && {_GIT} read-tree --reset -u "$KILN_REF" && '
        f'{_GIT} update-ref refs/kiln/head "$KILN_REF"'
    )
