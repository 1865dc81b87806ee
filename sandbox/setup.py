"""The setup phase: a repository's dependencies installed once, into an image of its own.

`[sandbox] setup` commands (or, when there are none, the ones `propose` reads off the
dependency files) run as root in a container of the base image over a throwaway copy of
the repository at /workspace, offline unless the person's own config allows the network,
under the session's limits: memory, pids, CPUs, no file past the disk limit, and all it
writes (its container's layer and the copy's growth) stopped past the disk limit too.
What they install outside /workspace (a venv at /opt/kiln/venv, /node_modules, Go's module
cache) is committed as an image named after the hashes of the dependency files, the
commands and the base image: the next session with the same inputs starts from it at once.
The agent's sessions then run on that image as always: offline, as the repository's owner.
Older setup images are removed past a cap (sandbox/setup_images.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shlex
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sandbox import setup_images, workspace
from sandbox.base import SandboxConfig, SandboxError
from sandbox.config import SAFE_PATH, sandbox_env
from sandbox.docker_exec import pump_frames
from sandbox.engine_api import Engine, EngineError
from sandbox.frozen import frozen
from sandbox.quota import human_bytes, scan
from sandbox.sizes import parse_bytes

VENV = "/opt/kiln/venv"
# Where setup puts what it installs, on PATH (and in the environment) in both phases.
SETUP_ENV = {
    "PATH": f"{VENV}/bin:/node_modules/.bin:{SAFE_PATH}",
    "VIRTUAL_ENV": VENV,
    "GOMODCACHE": "/opt/kiln/go/mod",
    "GOFLAGS": "-mod=mod",
    "npm_config_cache": "/opt/kiln/npm-cache",
}
IMAGE_REPO = setup_images.IMAGE_REPO
LOG_TAIL_LINES = 12
# How often what setup wrote is measured: at least this often, never spending more than
# a tenth of the time measuring (the engine walks the container's layer to size it).
_DISK_INTERVAL_S = 0.5
_DISK_SHARE = 0.1

# Files whose content decides what setup installs: a change to any of them is a new image.
_DEPENDENCY_FILES = (
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "package.json",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "go.mod",
    "go.sum",
    "Cargo.toml",
    "Cargo.lock",
)
_REQUIREMENTS = re.compile(r"^requirements([-_.][\w.-]*)?\.txt$")
_PACKAGES = ("*.whl", "*.tar.gz", "*.zip")  # wheels and sdists shipped in the repository
_TEST_EXTRAS = ("test", "tests", "testing", "dev")


@frozen
class SetupPlan:
    """The setup commands, whether kiln proposed them, whether they get the network."""

    commands: tuple[str, ...]
    proposed: bool  # kiln read them off the dependency files; none were configured
    network: bool
    timeout_s: float = 1800.0

    def script(self, owner: tuple[int, int]) -> str:
        # The throwaway copy goes back to its owner whatever happens, so kiln can delete it.
        steps = "\n".join(f"echo '$ '{shlex.quote(c)}\n{c}" for c in self.commands)
        return f"trap 'chown -R {owner[0]}:{owner[1]} /workspace' EXIT\nset -e\n{steps}"


class SetupFailed(SandboxError):
    """The setup commands failed; the message carries the log's last lines."""


def plan_for(repo: Path, config: SandboxConfig) -> SetupPlan | None:
    """The setup this repository's sessions need, or None."""
    if config.setup:
        return SetupPlan(tuple(config.setup), False, config.setup_network, config.setup_timeout_s)
    if not config.setup_auto:
        return None
    proposed = propose(repo, network=config.setup_network)
    if not proposed:
        return None
    return SetupPlan(tuple(proposed), True, config.setup_network, config.setup_timeout_s)


def propose(repo: Path, *, network: bool = False) -> list[str]:
    """Setup commands read off the dependency files: a venv with the package and its test
    dependencies, `npm ci`, `go mod download`. Empty when nothing needs installing."""
    commands: list[str] = []
    pip = _pip_install(repo, network)
    if pip:
        commands += [f"python3 -m venv --system-site-packages {VENV}", *pip]
    package_json = _read_json(repo / "package.json")
    if package_json and (package_json.get("dependencies") or package_json.get("devDependencies")):
        locked = (repo / "package-lock.json").is_file() or (repo / "npm-shrinkwrap.json").is_file()
        npm = "npm ci" if locked else "npm install"
        offline = "" if network else " --offline"
        commands.append(f"{npm}{offline} --no-audit --no-fund && mv node_modules /node_modules")
    go_mod = repo / "go.mod"
    if go_mod.is_file() and not (repo / "vendor").is_dir() and "require" in _text(go_mod):
        commands.append("go mod download" if network else "GOPROXY=off go mod download")
    return commands


def _pip_install(repo: Path, network: bool) -> list[str]:
    options = "" if network else " --no-index"
    for folder in _package_dirs(repo):
        options += f" --find-links {shlex.quote(folder)}"
    commands = []
    project = _python_project(repo)
    if project is not None:
        target = "." + (f"[{project}]" if project else "")
        commands.append(f"pip install{options} --no-build-isolation -e {shlex.quote(target)}")
    for requirements in sorted(repo.iterdir()) if repo.is_dir() else []:
        if _REQUIREMENTS.match(requirements.name) and _has_requirements(requirements):
            commands.append(f"pip install{options} -r {shlex.quote(requirements.name)}")
    return commands


def _python_project(repo: Path) -> str | None:
    """None: not an installable project with dependencies; "" or the test extra's name."""
    pyproject = repo / "pyproject.toml"
    if pyproject.is_file():
        try:
            project = tomllib.loads(_text(pyproject)).get("project", {})
        except tomllib.TOMLDecodeError:
            return None
        extras = project.get("optional-dependencies", {}) if isinstance(project, dict) else {}
        extra = next((name for name in _TEST_EXTRAS if extras.get(name)), "")
        if project and (project.get("dependencies") or extra):
            return extra
        return None
    return "" if (repo / "setup.py").is_file() else None


def _has_requirements(path: Path) -> bool:
    return any(
        line.strip() and not line.lstrip().startswith("#") for line in _text(path).splitlines()
    )


def _package_dirs(repo: Path) -> list[str]:
    """Folders (two levels deep at most) holding wheels or sdists, relative to the root."""
    found = set()
    for pattern in _PACKAGES:
        for depth in ("", "*/", "*/*/"):
            for path in repo.glob(depth + pattern):
                if ".git" not in path.parts and "node_modules" not in path.parts:
                    found.add(str(path.parent.relative_to(repo)) or ".")
    return sorted(found)


def cache_tag(repo: Path, plan: SetupPlan, base_image_id: str) -> str:
    """The image name for this repository's setup: same inputs, same image."""
    digest = hashlib.sha256()
    digest.update(base_image_id.encode())
    digest.update(json.dumps([plan.commands, plan.network]).encode())
    inputs = [repo / name for name in _DEPENDENCY_FILES]
    inputs += [p for p in sorted(repo.iterdir()) if _REQUIREMENTS.match(p.name)]
    for folder in _package_dirs(repo):
        for pattern in _PACKAGES:
            inputs += sorted((repo / folder).glob(pattern))
    for path in inputs:
        if path.is_file():
            digest.update(str(path.relative_to(repo)).encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return f"{IMAGE_REPO}:{digest.hexdigest()[:16]}"


Progress = Callable[[str], None]


def setup_image(
    engine: Engine,
    repo: Path,
    base: str,
    plan: SetupPlan,
    config: SandboxConfig,
    progress: Progress,
    cancelled: threading.Event,
) -> tuple[str, bool]:
    """(the setup image for this repository, whether it was built now)."""
    tag = cache_tag(repo, plan, engine.image_id(base))
    if engine.image_exists(tag):
        return tag, False
    state = workspace.make_layout(config.state_dir, f"setup-{workspace.new_session_id()}", repo)
    try:
        copy = workspace.prepare_copy(repo, state)
        log_path = state.root / "setup.log"
        code, tail = _run(
            engine, repo, base, tag, plan, config, copy, log_path, progress, cancelled
        )
        if cancelled.is_set():
            raise SetupFailed("The sandbox setup was interrupted; the next session runs it again.")
        if code != 0:
            kept = _failed_log_path(tag)
            with contextlib.suppress(OSError):
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_bytes(log_path.read_bytes())
            last = " | ".join(tail[-LOG_TAIL_LINES:]) or "no output"
            raise SetupFailed(
                f"The sandbox setup failed (exit {code}; log {kept}); fix `[sandbox] setup` "
                f"or the dependency files and start again. The log ends: {last}"
            )
        return tag, True
    finally:
        workspace.remove_layout(state)


def session_image(
    engine: Engine,
    repo: Path,
    base: str,
    config: SandboxConfig,
    notes: list[str],
    progress: Progress,
    cancel: threading.Event,
) -> tuple[str, dict[str, str]]:
    """The image a session starts from, with the repository's setup done (cached, built
    now, or, for a proposed setup that fails offline, the base image with a note), and
    the environment its setup needs (SETUP_ENV; none without a setup)."""
    plan = plan_for(repo, config)
    if plan is None:
        return base, {}
    began = time.monotonic()
    failed_before = failed_log(engine, repo, plan, base)
    if plan.proposed and failed_before is not None:
        notes.append(
            f"The proposed sandbox setup failed before (log {failed_before}); sessions run "
            "without it. Set `[sandbox] setup` (or `setup_auto = false`) to decide."
        )
        return base, {}
    try:
        image, built = setup_image(engine, repo, base, plan, config, progress, cancel)
    except SetupFailed as exc:
        if not plan.proposed or cancel.is_set():
            raise
        notes.append(f"{exc} Sessions run without the proposed setup.")
        return base, {}
    took = time.monotonic() - began
    what = f"ran in {took:.1f} s" if built else f"was cached ({took:.2f} s)"
    notes.append(f"Sandbox setup {what}: the session starts from {image}.")
    return image, SETUP_ENV


def failed_log(engine: Engine, repo: Path, plan: SetupPlan, base: str) -> Path | None:
    """The log of this very setup's earlier failure, if it failed with these inputs."""
    path = _failed_log_path(cache_tag(repo, plan, engine.image_id(base)))
    return path if path.is_file() else None


def _failed_log_path(tag: str) -> Path:
    return workspace.state_root() / f"setup-failed-{tag.partition(':')[2]}.log"


def _run(
    engine: Engine,
    repo: Path,
    base: str,
    tag: str,
    plan: SetupPlan,
    config: SandboxConfig,
    copy: Path,
    log_path: Path,
    progress: Progress,
    cancelled: threading.Event,
) -> tuple[int, list[str]]:
    env = {**sandbox_env(config), **SETUP_ENV, "HOME": "/root"}
    memory, disk = parse_bytes(config.memory), parse_bytes(config.disk_limit)
    host: dict[str, Any] = {
        "Init": True,
        "CapDrop": ["ALL"],
        "CapAdd": ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID"],  # root may install files
        "SecurityOpt": ["no-new-privileges"],
        # The session's limits hold for setup too (its disk limit also by _watch below).
        "PidsLimit": config.pids_limit,
        "Memory": memory,
        "MemorySwap": memory,
        "NanoCpus": int(config.cpus * 1e9),
        "Ulimits": [{"Name": "fsize", "Soft": disk, "Hard": disk}],
        "Mounts": [{"Target": "/workspace", "Source": str(copy), "Type": "bind"}],
        "LogConfig": {"Type": "none", "Config": {}},
    }
    body: dict[str, Any] = {
        "Image": base,
        "Cmd": ["bash", "-c", plan.script(workspace.repo_owner(repo))],
        "User": "0:0",
        "WorkingDir": "/workspace",
        "Env": [f"{k}={v}" for k, v in env.items()],
        "Labels": {"kiln.sandbox": "1", "kiln.setup": "1", "kiln.repo": str(repo)},
        "AttachStdout": True,
        "AttachStderr": True,
        "HostConfig": host,
    }
    if not plan.network:
        host["NetworkMode"] = "none"
        body["NetworkDisabled"] = True
    name = f"kiln-setup-{workspace.new_session_id()}"
    container = engine.create_container(name, body)
    lines = _LineLog(log_path, progress)
    done = threading.Event()
    over: list[int] = []  # what it had written, once past the disk limit
    try:
        stream = engine.attach(container, stdin=False)
        engine.start(container)
        watcher = threading.Thread(
            target=_watch,
            args=(cancelled, done, engine, container, (copy, scan(copy).used, disk, over)),
            daemon=True,
        )
        watcher.start()
        finished_in_time = pump_frames(
            stream, lines.feed, lines.feed, time.monotonic() + plan.timeout_s
        )
        lines.close()
        if over:
            raise _disk_failure(over[0], config.disk_limit)
        if not finished_in_time:
            lines.tail.append(f"[stopped after {plan.timeout_s:.0f} s: setup_timeout_s]")
            return 124, lines.tail
        code = int(engine.wait(container).get("StatusCode", 1))
        if over:
            raise _disk_failure(over[0], config.disk_limit)
        if code == 137 and engine.inspect_container(container)["State"].get("OOMKilled"):
            lines.tail.append(f"[out of memory: setup may use {config.memory}, [sandbox] memory]")
        if code == 0:
            labels = {"kiln.setup": "1", "kiln.repo": str(repo)}
            engine.commit(container, IMAGE_REPO, tag.partition(":")[2], {"Labels": labels})
            with contextlib.suppress(EngineError):
                setup_images.trim(engine, str(repo), tag)
        return code, lines.tail
    except EngineError as exc:
        if over:
            raise _disk_failure(over[0], config.disk_limit) from None
        if cancelled.is_set():
            return 130, lines.tail
        raise SetupFailed(
            f"The Docker engine could not run the sandbox setup ({exc.message}); "
            "run `kiln sandbox doctor`."
        ) from None
    finally:
        done.set()
        with contextlib.suppress(EngineError):  # the watch may be removing it already
            engine.remove_container(container)


def _disk_failure(used: int, limit: str) -> SetupFailed:
    return SetupFailed(
        f"The sandbox setup wrote {human_bytes(used)}, past the disk limit of {limit} "
        "([sandbox] disk_limit), so kiln stopped it; make the setup install less, or raise "
        "`[sandbox] disk_limit` in your own config."
    )


def _watch(
    cancelled: threading.Event,
    done: threading.Event,
    engine: Engine,
    container: str,
    disk: tuple[Path, int, int, list[int]],
) -> None:
    """Stop setup when kiln is cancelled or once it has written past the disk limit: what
    its container's own layer holds plus what the copy of the repository grew by.
    Removing the container ends the stream being read: that is how setup is stopped."""
    copy, copy_before, limit, over = disk
    interval, next_look = _DISK_INTERVAL_S, time.monotonic() + _DISK_INTERVAL_S
    while not done.is_set():
        if cancelled.wait(0.2):
            break
        if time.monotonic() < next_look:
            continue
        began = time.monotonic()
        try:
            layer = int(engine.inspect_container(container, size=True).get("SizeRw") or 0)
        except EngineError:
            return  # it is gone already
        used = layer + max(0, scan(copy).used - copy_before)
        interval = max(_DISK_INTERVAL_S, (time.monotonic() - began) / _DISK_SHARE)
        next_look = time.monotonic() + interval
        if used > limit:
            over.append(used)
            break
    else:
        return
    with contextlib.suppress(EngineError):
        engine.remove_container(container)


class _LineLog:
    """The whole output to a file; each new line to `progress`; the last lines kept."""

    def __init__(self, path: Path, progress: Progress) -> None:
        self._file = path.open("wb")
        self._progress = progress
        self._partial = b""
        self.tail: list[str] = []

    def feed(self, chunk: bytes) -> None:
        self._file.write(chunk)
        *complete, self._partial = (self._partial + chunk).split(b"\n")
        for raw in complete:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                self.tail = [*self.tail[-(LOG_TAIL_LINES - 1) :], line[:300]]
                self._progress(line[:300])

    def close(self) -> None:
        if self._partial.strip():
            self.feed(b"\n")
        self._file.close()


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(_text(path))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
