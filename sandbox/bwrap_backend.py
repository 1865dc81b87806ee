"""The bubblewrap backend, for machines without Docker: same protocol, weaker limits.

Each command runs in fresh namespaces (no network, own pids, no capabilities) over a copy of
the repository at /workspace; the host's /usr and /etc are visible read-only, the home
directories are not. There are no cgroup limits here (memory, pids, CPU): a fork bomb or a
memory hog is contained only by the host's own limits, which is why Docker is the default.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import resource
import shlex
import shutil
import signal
from pathlib import Path
from typing import Any

from sandbox import gitstate, setup, workspace
from sandbox.base import SandboxConfig, SandboxError, Sink
from sandbox.common import RunOutcome, WorkspaceSandbox, safe_relpath
from sandbox.config import sandbox_env

_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")


class BwrapSandbox(WorkspaceSandbox):
    backend = "bwrap"

    def __init__(self, repo: Path, config: SandboxConfig, *, session_id: str | None = None) -> None:
        super().__init__(repo, config)
        self.session_id = session_id or workspace.new_session_id()
        self.mode = "copy"
        self.ignored_hidden = True
        self.recoveries = 0
        self._bwrap = shutil.which("bwrap")

    async def start(self) -> None:
        if self.baseline is not None:  # started already
            return
        if self._bwrap is None:
            raise SandboxError(
                "bubblewrap is not installed; install it (`apt-get install bubblewrap`) or "
                "start Docker and use `--backend docker`."
            )
        if not self.repo.is_dir():
            raise SandboxError(f"{self.repo} is not a directory; pass the repository's path.")
        self.waiting()  # no engine: the copy below is the wait
        self.layout = await asyncio.to_thread(
            workspace.make_layout, self.config.state_dir, self.session_id, self.repo
        )
        await asyncio.to_thread(workspace.prepare_copy, self.repo, self.layout)
        probe = await self._run(["true"], lambda _: None, cwd=gitstate.WORKSPACE)
        if probe.exit_code != 0:
            raise SandboxError(
                "bubblewrap cannot create a sandbox here (user namespaces may be disabled); "
                "enable them (sysctl kernel.unprivileged_userns_clone=1) or use Docker."
            )
        await self._take_baseline()
        if setup.plan_for(self.repo, self.config) is not None:
            self.notes.append(
                "The repository's sandbox setup needs the Docker backend; this bubblewrap "
                "session runs without it, so installed dependencies may be missing."
            )

    async def close(self) -> None:
        self._stop_background_snapshot()
        if self.layout is not None:
            await asyncio.to_thread(workspace.remove_layout, self.layout)
            self.layout = None

    def _bwrap_argv(self, argv: list[str], cwd: str, env: dict[str, str] | None) -> list[str]:
        layout = self._need_layout()
        assert self._bwrap is not None
        args = [self._bwrap, "--die-with-parent", "--new-session", "--unshare-all"]
        args += ["--cap-drop", "ALL", "--clearenv"]
        if self.config.network:
            args.append("--share-net")
        for path in _SYSTEM_DIRS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        args += [
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            str(self.disk_limit),
            "--tmpfs",
            "/tmp",
        ]
        args += ["--bind", str(layout.copy), gitstate.WORKSPACE]
        args += ["--bind", str(layout.kiln_git), gitstate.KILN_GIT]
        args += ["--ro-bind", str(layout.outputs), gitstate.OUTPUTS]
        objects = gitstate.repo_objects(self.repo)
        if objects is not None:
            args += ["--ro-bind", str(objects), gitstate.KILN_OBJECTS]
        for key, value in {**sandbox_env(self.config), **(env or {})}.items():
            args += ["--setenv", key, value]
        # HOME lives on the per-command /tmp, so create it before the command runs.
        args += ["--chdir", cwd, "--", "bash", "-c", 'mkdir -p "$HOME" && exec "$@"', "kiln"]
        return args + argv

    async def _run(
        self,
        argv: list[str],
        sink: Sink,
        *,
        cwd: str,
        env: dict[str, str] | None = None,
        deadline_s: float | None = None,
        err_sink: Sink | None = None,
        stdin_data: bytes | None = None,
        sweep: bool = False,  # nothing to sweep: all of a command ends with its pid namespace
    ) -> RunOutcome:
        proc = await asyncio.create_subprocess_exec(
            *self._bwrap_argv(argv, cwd, env),
            stdin=asyncio.subprocess.PIPE if stdin_data is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE if err_sink else asyncio.subprocess.STDOUT,
            start_new_session=True,  # so a deadline can kill bwrap and everything under it
            preexec_fn=functools.partial(_limit_file_size, self.disk_limit),
        )
        if stdin_data is not None:
            assert proc.stdin is not None
            proc.stdin.write(stdin_data)
            await proc.stdin.drain()
            proc.stdin.close()

        async def pump(stream: asyncio.StreamReader | None, to: Sink) -> None:
            while stream is not None and (chunk := await stream.read(65536)):
                to(chunk)

        pumps = [pump(proc.stdout, sink)]
        if err_sink:
            pumps.append(pump(proc.stderr, err_sink))
        running = asyncio.gather(*pumps, proc.wait())
        # Read its outcome whatever happens, or asyncio reports it as never retrieved.
        running.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            await asyncio.wait_for(running, timeout=deadline_s)
        except TimeoutError:
            await _kill(proc, pump)
            return RunOutcome(proc.returncode or -9, deadline_hit=True)
        except asyncio.CancelledError:
            # Esc, or the session closing: the command must not outlive the request.
            await _kill(proc, pump)
            raise
        return RunOutcome(proc.returncode if proc.returncode is not None else -1)

    async def _write_file(self, path: str, data: bytes) -> None:
        rel = safe_relpath(path)
        target = shlex.quote(f"{gitstate.WORKSPACE}/{rel}")
        # Written from inside, so a symlink in the workspace can never lead to a host file.
        outcome = await self._run(
            ["bash", "-c", f'mkdir -p "$(dirname {target})" && cat > {target}'],
            lambda _: None,
            cwd=gitstate.WORKSPACE,
            stdin_data=data,
        )
        if outcome.exit_code != 0:
            raise SandboxError(f"Writing {rel} in the sandbox failed; check the path ({rel}).")


def _limit_file_size(limit: int) -> None:
    """In the child before bwrap starts: no file it writes grows past the disk limit."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


async def _kill(proc: asyncio.subprocess.Process, pump: Any) -> None:
    """End bwrap and everything under it, and reap it now (not from a closed loop later).
    Its pipes are read to the end: the process counts as gone only once they close."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    await asyncio.gather(pump(proc.stdout, _discard), pump(proc.stderr, _discard), proc.wait())


def _discard(_chunk: bytes) -> None:
    pass
