"""Must hold: a reader that leaves early (`kiln sessions list | head`) ends kiln quietly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import make_git_repo


def test_a_closed_pipe_is_no_traceback(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "config", "show", "--repo", str(repo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before kiln writes a line
    stderr = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr
