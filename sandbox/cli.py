"""`kiln sandbox doctor|run|build|bootstrap|prune`.

Every failure a person can cause ends in one sentence saying what to do (exit code 5).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import shlex
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from sandbox.base import DEFAULT_IMAGE, SandboxConfig, SandboxError

SANDBOX_EXIT = 5


def main(args: argparse.Namespace) -> int:
    actions = {
        "doctor": doctor,
        "run": run,
        "build": build,
        "bootstrap": bootstrap,
        "prune": prune,
    }
    try:
        return actions[args.sandbox_command](args)
    except SandboxError as exc:
        print(f"kiln: {exc}", file=sys.stderr)
        return SANDBOX_EXIT


def repo_config(repo: Path, **overrides: Any) -> SandboxConfig:
    """The `[sandbox]` table of the repository's .kiln.toml, plus KILN_SANDBOX/KILN_IMAGE."""
    values: dict[str, Any] = {}
    kiln_toml = repo / ".kiln.toml"
    if kiln_toml.is_file():
        try:
            table = tomllib.loads(kiln_toml.read_text()).get("sandbox", {})
        except tomllib.TOMLDecodeError as exc:
            raise SandboxError(f"{kiln_toml} is not valid TOML ({exc}); fix it.") from None
        known = {f.name for f in dataclasses.fields(SandboxConfig)} - {"state_dir"}
        values.update({k: v for k, v in table.items() if k in known})
    for var, key in (("KILN_SANDBOX", "backend"), ("KILN_IMAGE", "image")):
        if os.environ.get(var):
            values[key] = os.environ[var]
    values.update({k: v for k, v in overrides.items() if v is not None})
    return SandboxConfig(**values)


# -- run ------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    cmd = list(args.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        raise SandboxError("Give a command after `--`, e.g. `kiln sandbox run -- pytest -q`.")
    repo = Path(args.repo).resolve()
    if not repo.is_dir():
        raise SandboxError(f"{repo} is not a directory; pass --repo PATH of a repository.")
    config = repo_config(repo, backend=args.backend, output_cap_bytes=1024 * 1024)
    shell_cmd = cmd[0] if len(cmd) == 1 else " ".join(_quote(part) for part in cmd)
    return asyncio.run(_run_once(repo, config, shell_cmd, args.timeout))


def _quote(part: str) -> str:
    return shlex.quote(part)


async def _run_once(repo: Path, config: SandboxConfig, cmd: str, timeout: float) -> int:
    from sandbox.factory import create_sandbox

    sandbox = create_sandbox(repo, config)
    try:
        await sandbox.start()
        result = await sandbox.exec(cmd, timeout=timeout)
    finally:
        await sandbox.close()
    sys.stdout.write(result.output)
    sys.stdout.flush()
    if result.timed_out:
        print(f"kiln: the command timed out after {timeout:g} s.", file=sys.stderr)
        return 124
    if result.oom_killed:
        print("kiln: the command ran out of memory (raise `[sandbox] memory`).", file=sys.stderr)
    return result.exit_code


# -- doctor -----------------------------------------------------------------------------
def doctor(args: argparse.Namespace) -> int:
    del args
    import shutil

    from sandbox import engine

    checks: list[tuple[str, bool, str]] = []
    try:
        client = engine.connect(timeout=10)
        checks.append(("Docker engine reachable", True, ""))
    except SandboxError as exc:
        checks.append(("Docker engine reachable", False, str(exc)))
        client = None
    if client is not None:
        try:
            image = engine.image_for(client, Path.cwd(), SandboxConfig())
            checks.append((f"image {image} present", True, ""))
            checks.extend(_container_checks())
        except SandboxError as exc:
            checks.append((f"image {DEFAULT_IMAGE} present", False, str(exc)))
    bwrap = shutil.which("bwrap")
    checks.append(
        (
            "bubblewrap fallback available",
            bwrap is not None,
            "" if bwrap else "Install bubblewrap (`apt-get install bubblewrap`) for a fallback.",
        )
    )
    for name, ok, advice in checks:
        mark = "ok  " if ok else "FAIL"
        print(f"[{mark}] {name}" + (f": {advice}" if advice else ""))
    # Without bubblewrap or a language server kiln still works: neither fails the doctor.
    optional = ("bubblewrap", "language server")
    docker_ok = all(ok for name, ok, _ in checks if not name.startswith(optional))
    return 0 if docker_ok else SANDBOX_EXIT


def _container_checks() -> list[tuple[str, bool, str]]:
    """A container runs python3 and pytest; which language servers its image has."""
    from sandbox.language_servers import DEFAULTS

    name = "a sandbox container runs python3 and pytest"
    look_up = "; ".join(
        f"command -v {shlex.quote(server.command[0])} >/dev/null && echo {server.name}"
        for server in DEFAULTS
    )
    with tempfile.TemporaryDirectory(prefix="kiln-doctor-") as tmp:
        (Path(tmp) / "hello.py").write_text("print('hello')\n")
        try:
            result, servers = asyncio.run(
                _probe(Path(tmp), ["python3 hello.py && python3 -m pytest --version", look_up])
            )
        except SandboxError as exc:
            return [(name, False, str(exc))]
    checks = [(name, True, "")]
    if result.exit_code != 0 or "hello" not in result.output:
        last = result.output.strip().splitlines()[-1:] or ["no output"]
        advice = f"the test command failed ({last[0]}); rebuild with `kiln sandbox bootstrap`."
        checks = [(name, False, advice)]
    present = set(servers.output.split())
    for server in DEFAULTS:
        found = server.name in present
        advice = "" if found else "not in the image; `kiln sandbox bootstrap` installs it"
        label = f"language server for {server.name}: {server.command[0]}"
        checks.append((label, found, advice))
    return checks


async def _probe(repo: Path, commands: list[str]) -> list[Any]:
    from sandbox.docker_backend import DockerSandbox

    sandbox = DockerSandbox(repo, SandboxConfig())
    try:
        await sandbox.start()
        return [await sandbox.exec(command, timeout=60) for command in commands]
    finally:
        await sandbox.close()


# -- images -----------------------------------------------------------------------------
def build(args: argparse.Namespace) -> int:
    from sandbox import engine, images

    repo = Path(args.repo).resolve()
    config = repo_config(repo)
    client = engine.connect(timeout=3600)
    if config.dockerfile and not args.base:
        dockerfile = (repo / config.dockerfile).resolve()
        tag = args.tag or engine.image_for_tag(dockerfile)
        context = dockerfile.parent
    else:
        dockerfile, context = images.DEFAULT_DOCKERFILE, images.DEFAULT_DOCKERFILE.parent
        tag = args.tag or DEFAULT_IMAGE
    buildargs = {"BASE": args.base} if args.base else {}
    images.build_image(client, context=context, dockerfile=dockerfile, tag=tag, buildargs=buildargs)
    print(f"built {tag}")
    return 0


def bootstrap(args: argparse.Namespace) -> int:
    from sandbox import engine, images

    client = engine.connect(timeout=3600)
    extra = tuple(name.strip() for name in (args.with_ or "").split(",") if name.strip())
    tag = images.bootstrap_image(
        client, tag=args.tag or DEFAULT_IMAGE, suite=args.suite, extra=extra
    )
    print(f"imported {tag}")
    return 0


def prune(args: argparse.Namespace) -> int:
    from sandbox import engine_api, setup_images
    from sandbox.prune import prune_leftovers
    from sandbox.quota import human_bytes

    removed = prune_leftovers(everything=getattr(args, "all", False))
    # Setup images are caches: the next session that needs one runs its setup again.
    images, size = setup_images.prune(engine_api.connect())
    print(
        f"removed {removed} leftover sandbox(es) and {images} setup image(s) ({human_bytes(size)})"
    )
    return 0
