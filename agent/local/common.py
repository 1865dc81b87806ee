"""What every install step shares: progress lines, the error type, subprocesses with logs."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from agent.errors import KilnError
from agent.settings import paths
from sandbox.frozen import frozen


class LocalModelError(KilnError):
    """The local model could not be installed or served; the message says what to do."""


@frozen
class InstallStep:
    """One progress line. `detail` lines are chatter (a build log) a display may overwrite."""

    message: str
    detail: bool = False

    def __str__(self) -> str:
        return self.message


def models_dir() -> Path:
    path = paths.data_dir() / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path


def log_dir() -> Path:
    path = paths.local_state_dir()
    path.mkdir(parents=True, exist_ok=True)
    return path


def pip_command(*args: str) -> list[str]:
    # kiln's own interpreter, so the runtime lands where `kiln local serve` will look for it.
    return [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args]


def run_logged(
    cmd: Sequence[str], log_file: Path, env: dict[str, str] | None = None
) -> Iterator[str]:
    """Run `cmd`, append its output to `log_file`, yield each line; raise on failure.

    The error keeps the last output line, which is where pip and compilers say what broke.
    """
    last = ""
    with log_file.open("a", encoding="utf-8") as log:
        log.write(f"$ {' '.join(cmd)}\n")
        log.flush()
        with subprocess.Popen(
            list(cmd),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            errors="replace",
            env=env,
        ) as proc:
            assert proc.stdout is not None
            try:
                for raw in proc.stdout:
                    log.write(raw)
                    line = raw.strip()
                    if line:
                        last = line
                        yield line
            except BaseException:
                proc.kill()  # interrupted: leave no orphan build behind
                raise
            code = proc.wait()
    if code != 0:
        raise CommandFailed(code, last)


class CommandFailed(Exception):
    def __init__(self, code: int, last_line: str) -> None:
        super().__init__(f"exit {code}: {last_line}")
        self.code = code
        self.last_line = last_line
