"""DIR of `kiln batch`: results.jsonl, patches/ID.patch and preds.json, written by the driver alone.

results.jsonl is the truth a rerun resumes from. A finished task is one line, appended and
fsynced after its patch is on disk, so a run killed at any moment (kill -9 included) has
lost no finished task and holds none twice. A line torn by a kill in mid-write is cut off
at the next start: it was not a finished result. preds.json is derived from it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path
from typing import Any

from agent.errors import UsageError
from agent.vcs.patches import diff_bytes, diff_from_bytes

RESULTS = "results.jsonl"
PREDS = "preds.json"
PATCHES = "patches"


class ResultsDir:
    """One batch's output folder, held by one driver at a time (a lock file says which)."""

    def __init__(self, root: Path) -> None:
        self.root = root.expanduser().resolve()
        self.patches = self.root / PATCHES
        self.results_path = self.root / RESULTS
        try:
            self.patches.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(
                f"--out {root} cannot be made ({exc.strerror}); give a writable folder."
            ) from None
        self._lock = open(self.root / ".lock", "a")  # noqa: SIM115 (held for the whole run)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            raise UsageError(
                f"Another kiln batch is writing {self.root}; wait for it, or give another --out."
            ) from None
        self.records: dict[str, dict[str, Any]] = self._read()
        self._out = open(self.results_path, "a", encoding="utf-8")  # noqa: SIM115

    def _read(self) -> dict[str, dict[str, Any]]:
        """The finished tasks, by id; a torn last line (a kill in mid-write) is cut off."""
        if not self.results_path.exists():
            return {}
        data = self.results_path.read_bytes()
        records: dict[str, dict[str, Any]] = {}
        good = 0
        for line in data.splitlines(keepends=True):
            try:
                record = json.loads(line) if line.endswith(b"\n") else None
            except json.JSONDecodeError:
                record = None
            if not isinstance(record, dict) or "id" not in record:
                break
            records.setdefault(str(record["id"]), record)
            good += len(line)
        if good < len(data):
            with open(self.results_path, "r+b") as torn:
                torn.truncate(good)
                os.fsync(torn.fileno())
        return records

    def finished(self, task_id: str) -> bool:
        return task_id in self.records

    def patch_path(self, task_id: str) -> Path:
        return self.patches / f"{task_id}.patch"

    def record(self, record: dict[str, Any], patch: str) -> None:
        """The patch first (atomically), then the line: a line always has its patch."""
        task_id = str(record["id"])
        if task_id in self.records:  # a result for it is already kept: never a second line
            return
        target = self.patch_path(task_id)
        _write_atomic(target, diff_bytes(patch))
        record = {**record, "patch": str(target.relative_to(self.root))}
        self._out.write(json.dumps(record) + "\n")
        self._out.flush()
        os.fsync(self._out.fileno())
        self.records[task_id] = record

    def write_preds(self) -> None:
        """preds.json in the SWE-bench predictions format, one entry per finished task."""
        preds: dict[str, dict[str, str]] = {}
        for task_id, record in self.records.items():
            patch = self.patch_path(task_id)
            preds[task_id] = {
                "instance_id": task_id,
                "model_name_or_path": record.get("model") or "kiln",
                "model_patch": diff_from_bytes(patch.read_bytes()) if patch.exists() else "",
            }
        _write_atomic(self.root / PREDS, (json.dumps(preds, indent=1) + "\n").encode())

    def close(self) -> None:
        self._out.close()
        with contextlib.suppress(OSError):
            fcntl.flock(self._lock, fcntl.LOCK_UN)
        self._lock.close()


def _write_atomic(target: Path, data: bytes) -> None:
    temporary = target.with_name(f".{target.name}.tmp")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, target)
