"""Edits the model made inside a git submodule. kiln applies none of them: the diff it
applies is the superproject's, where a submodule is one commit id, so they would be
dropped without a word. `kiln run` names each one and keeps its diff as a patch beside
kiln's ledger (`.git/kiln/patches/`) for the person to apply in the submodule."""

from __future__ import annotations

import shlex
import subprocess
from typing import TYPE_CHECKING

from agent.store.rescue import keep_patch
from agent.vcs.patches import diff_from_bytes

if TYPE_CHECKING:
    from agent.session import Session

# Each submodule's changes since the commit the superproject records, new files included,
# written into the submodule's own git directory (never into the workspace's diff).
_SCRIPT = (
    "cd {path} 2>/dev/null && g='git -c safe.directory=*' && $g add -A -N . >/dev/null 2>&1; "
    'd=$($g rev-parse --absolute-git-dir) && $g diff --binary {commit} > "$d/kiln-changes.patch"'
    ' && [ -s "$d/kiln-changes.patch" ] && echo "$d/kiln-changes.patch"'
)


def gitlinks(session: Session) -> list[tuple[str, str]]:
    """The repository's submodules as (path, recorded commit); none without `.gitmodules`."""
    if not (session.repo / ".gitmodules").exists():
        return []
    listed = subprocess.run(
        ["git", "ls-files", "-s", "-z"], cwd=session.repo, capture_output=True
    ).stdout.decode("utf-8", "surrogateescape")
    links = []
    for record in listed.split("\0"):
        mode, _, rest = record.partition(" ")
        if mode == "160000":
            commit, _, name = rest.partition("\t")
            links.append((name, commit.split()[0]))
    return links


async def submodule_changes(session: Session) -> list[dict[str, str]]:
    """Each submodule the model changed, with the patch kiln kept of it, said once as a
    Notice; [] when there is none (or no sandbox to look in)."""
    sandbox = session.sandbox
    found: list[dict[str, str]] = []
    if sandbox is None:
        return found
    for path, commit in gitlinks(session):
        script = _SCRIPT.format(path=shlex.quote(f"/workspace/{path}"), commit=commit)
        done = await sandbox.exec(script, timeout=60)
        where = done.output.strip()
        if done.exit_code != 0 or not where.startswith("/workspace/"):
            continue
        patch = diff_from_bytes(await sandbox.read_file(where))
        kept = keep_patch(session.repo, f"{session.session_id}-{path.replace('/', '-')}", patch)
        found.append({"path": path, "patch": str(kept) if kept else ""})
        session.notice(
            f"kiln does not apply changes inside submodules: the edits in {path} are not in "
            f"your working tree; their diff is in {kept} (`git -C {path} apply {kept}`)."
        )
    return found
