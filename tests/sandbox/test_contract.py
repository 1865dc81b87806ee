"""The Sandbox protocol, run against every backend: files, exec, diff, checkpoints."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from agent.vcs.apply import apply_to_host
from sandbox.base import Sandbox, SandboxError
from sandbox.common import WorkspaceSandbox
from tests.sandbox.conftest import backend_params, tree_hash

MakeSandbox = Callable[..., WorkspaceSandbox]
pytestmark = pytest.mark.parametrize("backend", backend_params())


async def test_protocol_files_and_exec(repo: Path, make_sandbox: MakeSandbox, backend: str) -> None:
    sandbox = make_sandbox(repo, backend)
    assert isinstance(sandbox, Sandbox)
    waits: list[None] = []
    sandbox.waiting = lambda: waits.append(None)
    await sandbox.start()
    assert len(waits) == 1  # the start said when it was left waiting, once
    # The baseline includes the person's uncommitted edit and untracked file: no diff yet.
    assert await sandbox.diff() == ""
    assert await sandbox.read_file("README.md") == b"# demo, edited but not committed\n"
    await sandbox.write_file("pkg/deep/new.bin", b"\x00\xffbinary")
    assert await sandbox.read_file("/workspace/pkg/deep/new.bin") == b"\x00\xffbinary"
    with pytest.raises(FileNotFoundError):
        await sandbox.read_file("missing.txt")
    for bad in ("../outside", "/etc/passwd", "a/../../b"):
        with pytest.raises(SandboxError):
            await sandbox.write_file(bad, b"x")
    result = await sandbox.exec("pwd; echo err >&2; exit 3", cwd="pkg")
    assert result.exit_code == 3 and not result.ok
    assert result.output == "/workspace/pkg\nerr\n"
    prompt = await sandbox.exec("read -r line; echo got:$line; git log -1 --format=%s | cat")
    assert prompt.output == "got:\ninitial\n"  # stdin is closed, git has no pager
    home = await sandbox.exec("cd && touch .kiln-test && pwd")  # HOME is there, writable
    assert home.ok and home.output == "/tmp/kiln-home\n"


async def test_output_is_capped_head_and_tail(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    sandbox = make_sandbox(repo, backend, output_cap_bytes=1000)
    await sandbox.start()
    result = await sandbox.exec("echo FIRST; seq 1 100000; echo LAST")
    assert result.truncated and result.total_bytes > 500_000
    assert result.output.startswith("FIRST\n1\n2\n") and result.output.endswith("100000\nLAST\n")
    assert "bytes omitted" in result.output and len(result.output) < 1200
    assert result.full_output_path is not None
    assert Path(result.full_output_path).read_text().count("\n") == 100002
    small = await sandbox.exec("echo small")
    assert not small.truncated and small.full_output_path is None


async def test_diff_is_binary_safe_and_applies_to_the_host(
    repo: Path, make_sandbox: MakeSandbox, backend: str, tmp_path: Path
) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(repo, twin, symlinks=True)
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    await sandbox.exec(
        "echo '    return a - b' >> src/app.py"  # modified
        " && git mv -k README.md DOCS.md 2>/dev/null || mv README.md DOCS.md"  # renamed
    )
    await sandbox.exec(
        "rm notes.txt"  # deleted (untracked at start, so part of the baseline)
        " && chmod +x run.sh"  # mode change
        " && printf '\\x00\\x01\\x02' > data.bin"  # binary change
        " && head -c 3000 /dev/urandom > new.bin"  # new binary
        " && ln -s src/app.py link"  # new symlink
    )
    changed = await sandbox.changed_files()
    expected = {"src/app.py", "README.md", "DOCS.md", "notes.txt", "run.sh", "data.bin"}
    assert expected | {"new.bin", "link"} == set(changed)
    diff = await sandbox.diff()
    assert "rename from README.md" in diff and "GIT binary patch" in diff
    assert "old mode 100644\nnew mode 100755" in diff and "deleted file mode" in diff
    written = await apply_to_host(twin, diff)
    assert set(written) == set(changed)
    for name in ("src/app.py", "DOCS.md", "data.bin", "new.bin", "run.sh"):
        assert (twin / name).read_bytes() == await sandbox.read_file(name)
    assert not (twin / "notes.txt").exists() and not (twin / "README.md").exists()
    assert (twin / "run.sh").stat().st_mode & 0o111 and (twin / "link").is_symlink()


async def test_checkpoint_and_restore_cover_shell_side_effects(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    before = tree_hash(repo)
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    await sandbox.exec("echo v1 > src/app.py; mkdir -p gen && echo one > gen/out.txt")
    first = await sandbox.checkpoint("after v1")
    await sandbox.exec("echo v2 > src/app.py; rm -rf gen tests; echo junk > junk.txt")
    second = await sandbox.checkpoint("after v2")
    assert first != second
    await sandbox.exec("rm -rf ./* && echo chaos > chaos.txt")

    await sandbox.restore(first)
    state = await sandbox.exec("cat src/app.py gen/out.txt; ls; test -e junk.txt || echo nojunk")
    assert state.output.split() == [
        "v1",
        "one",
        "README.md",
        "data.bin",
        "gen",
        "notes.txt",
        "run.sh",
        "src",
        "tests",
        "nojunk",
    ]
    await sandbox.restore(second)
    assert (await sandbox.exec("cat src/app.py junk.txt; ls")).output.split() == [
        "v2",
        "junk",
        "README.md",
        "data.bin",
        "junk.txt",
        "notes.txt",
        "run.sh",
        "src",
    ]
    assert sandbox.baseline is not None
    await sandbox.restore(sandbox.baseline)
    assert await sandbox.diff() == ""
    with pytest.raises(SandboxError):
        await sandbox.restore("0" * 40)
    assert tree_hash(repo) == before


async def test_host_repo_untouched_and_git_works_inside(
    repo: Path, make_sandbox: MakeSandbox, backend: str
) -> None:
    before = tree_hash(repo)
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    result = await sandbox.exec(
        "git status --short && git add -A && git -c user.name=m -c user.email=m@e commit -qm x"
        " && git log --oneline | wc -l && rm -rf /workspace/* && echo x > /etc/kiln-test 2>&1"
    )
    assert " M README.md" in result.output and "?? notes.txt" in result.output
    assert tree_hash(repo) == before
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True, check=True
    )
    assert status.stdout.split("\n")[0] == " M README.md"


def _running(pattern: str) -> int:
    """Processes on this machine whose command line is `pattern` (sandboxes' included)."""
    found = subprocess.run(["pgrep", "-fx", pattern], capture_output=True, text=True)
    return len(found.stdout.split())


async def test_a_cancelled_command_stops_with_everything_it_started(
    repo: Path, make_sandbox: Callable[..., WorkspaceSandbox], backend: str
) -> None:
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    sleep = f"sleep {3000 + os.getpid() % 1000}"
    task = asyncio.create_task(sandbox.exec(f"{sleep} & {sleep}; echo never > never.txt"))
    for _ in range(100):
        if _running(sleep) == 2:
            break
        await asyncio.sleep(0.05)
    assert _running(sleep) == 2
    task.cancel()  # Esc: the request's task is cancelled, and the command with it
    await asyncio.gather(task, return_exceptions=True)
    for _ in range(100):
        if _running(sleep) == 0:
            break
        await asyncio.sleep(0.05)
    assert _running(sleep) == 0
    assert "never.txt" not in (await sandbox.exec("ls")).output


async def test_a_huge_new_file_stays_out_of_diffs_and_checkpoints(
    repo: Path, make_sandbox: Callable[..., WorkspaceSandbox], backend: str
) -> None:
    sandbox = make_sandbox(repo, backend)
    await sandbox.start()
    await sandbox.exec("head -c 60M /dev/zero > huge.bin && echo small > small.txt")
    diff = await sandbox.diff()
    assert "small.txt" in diff and "huge.bin" not in diff
    assert "huge.bin" not in await sandbox.changed_files()
    assert await sandbox.checkpoint("after the huge file")
    assert (await sandbox.exec("test -s huge.bin")).ok  # left in the workspace, not deleted
