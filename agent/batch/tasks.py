"""The TASKS file of `kiln batch`: JSON lines (or YAML), one task each, checked before anything runs.

A line holds `id`, `repo` (a path, or a git URL plus `rev`), `task`, and optionally `tests`,
`setup`, `image`, `budget_usd`, `max_steps`, `timeout` and `model` (`{base_url, model,
provider}`). Every mistake is reported with its line number, all of them at once, so a
batch of hundreds never fails on line 412 after an hour of work.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from agent.errors import UsageError
from sandbox.frozen import frozen

# Ids name files (patches/ID.patch): letters, digits and . _ - only (SWE-bench ids fit).
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
URL_PATTERN = re.compile(r"^([a-z][a-z0-9+.-]*://|git@)")
MAX_ATTEMPTS = 16  # as `kiln run --attempts` takes
MODEL_KEYS = {"base_url", "model", "provider"}
PROVIDERS = {"openai", "anthropic", "ollama"}


@frozen
class TaskSpec:
    """One line of TASKS, checked. Plain data: it crosses to Ray workers as it is."""

    id: str
    repo: str  # an absolute path, or a git URL
    task: str
    line: int
    rev: str = ""
    tests: str = ""
    setup: tuple[str, ...] = ()
    image: str = ""
    budget_usd: float | None = None
    max_steps: int | None = None
    timeout: float | None = None
    attempts: int = 1  # independent attempts, the one with evidence kept (kiln run --attempts)
    model: dict[str, str] | None = None

    @property
    def is_url(self) -> bool:
        return bool(URL_PATTERN.match(self.repo))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def load_tasks(path: Path) -> list[TaskSpec]:
    """Every task of the file, or a UsageError naming each bad line (exit code 2)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(
            f"{path} does not exist; give a TASKS file (JSON lines or YAML)."
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path} cannot be read ({exc}); give a UTF-8 TASKS file.") from None
    rows = _yaml_rows(text, path) if path.suffix in (".yaml", ".yml") else _jsonl_rows(text)
    problems: list[str] = []
    tasks: list[TaskSpec] = []
    seen: dict[str, int] = {}
    for line, row in rows:
        if isinstance(row, str):  # the row could not be parsed: the reason
            problems.append(f"line {line}: {row}")
            continue
        try:
            spec = _spec(row, line, path.parent)
        except ValueError as exc:
            problems.append(f"line {line}: {exc}")
            continue
        if spec.id in seen:
            problems.append(
                f"line {line}: the id {spec.id!r} is already used on line {seen[spec.id]}"
            )
            continue
        seen[spec.id] = line
        tasks.append(spec)
    if problems:
        shown = "; ".join(problems[:10]) + (
            f"; and {len(problems) - 10} more" if len(problems) > 10 else ""
        )
        raise UsageError(f"{path} has bad lines ({shown}); fix them, then run again.")
    if not tasks:
        raise UsageError(f"{path} holds no tasks; write one JSON object per line.")
    return tasks


def _jsonl_rows(text: str) -> list[tuple[int, Any]]:
    rows: list[tuple[int, Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            rows.append((number, json.loads(raw)))
        except json.JSONDecodeError as exc:
            rows.append((number, f"not valid JSON ({exc.msg} at column {exc.colno})"))
    return rows


def _yaml_rows(text: str, path: Path) -> list[tuple[int, Any]]:
    """A YAML list of mappings; each item's line number is where it starts."""
    import yaml  # only for YAML files: JSON lines need none of it

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise UsageError(f"{path} is not valid YAML ({exc}); fix it.") from None
    if root is None:
        return []
    if not isinstance(root, yaml.SequenceNode):
        raise UsageError(f"{path} should be a YAML list of tasks (each item a mapping).")
    loader = yaml.SafeLoader("")
    return [(node.start_mark.line + 1, loader.construct_document(node)) for node in root.value]


_KNOWN = {
    "id", "repo", "rev", "task", "tests", "setup", "image", "budget_usd", "max_steps",
    "timeout", "model", "attempts",
}  # fmt: skip


def _spec(row: Any, line: int, base: Path) -> TaskSpec:
    if not isinstance(row, dict):
        raise ValueError("a task is an object with id, repo and task")
    unknown = sorted(set(row) - _KNOWN)
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_KNOWN))})")
    for key in ("id", "repo", "task"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise ValueError(f"{key!r} is missing or not text")
    if not ID_PATTERN.match(row["id"]):
        raise ValueError(f"the id {row['id']!r} may hold only letters, digits, '.', '_' and '-'")
    repo = row["repo"]
    if not URL_PATTERN.match(repo):
        repo = str((base / Path(repo).expanduser()).resolve())  # relative to the TASKS file
    return TaskSpec(
        id=row["id"],
        repo=repo,
        task=row["task"],
        line=line,
        rev=_rev(row),
        tests=_text(row, "tests"),
        setup=_setup(row.get("setup")),
        image=_text(row, "image"),
        budget_usd=_number(row, "budget_usd", float),
        max_steps=_number(row, "max_steps", int),
        timeout=_number(row, "timeout", float),
        model=_model(row.get("model")),
        attempts=_attempts(row),
    )


def _attempts(row: dict[str, Any]) -> int:
    """`kiln run --attempts N` for this task: 1 to 16, 1 when not given."""
    attempts = _number(row, "attempts", int) or 1
    if attempts > MAX_ATTEMPTS:
        raise ValueError(f"'attempts' takes 1 to {MAX_ATTEMPTS}")
    return int(attempts)


def _text(row: dict[str, Any], key: str) -> str:
    value = row.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"{key!r} should be text")
    return value


def _rev(row: dict[str, Any]) -> str:
    """A branch, tag or commit; one starting with '-' would reach git as an option."""
    rev = _text(row, "rev").strip()
    if rev.startswith("-"):
        raise ValueError(f"the rev {rev!r} starts with '-'; name a branch, tag or commit")
    return rev


def _setup(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("'setup' should be a command or a list of commands")


def _number(row: dict[str, Any], key: str, kind: type[int] | type[float]) -> Any:
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key!r} should be a number above 0")
    if not math.isfinite(value) or value <= 0:  # JSON lines may say NaN or Infinity
        raise ValueError(f"{key!r} should be a finite number above 0")
    if kind is int and value != int(value):
        raise ValueError(f"{key!r} should be a whole number")
    return kind(value)


def _model(value: Any) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not value:
        raise ValueError("'model' should be an object with base_url, model and provider")
    unknown = sorted(set(value) - MODEL_KEYS)
    if unknown:
        raise ValueError(
            f"'model' has an unknown key {unknown[0]!r} (known: base_url, model, provider)"
        )
    if not all(isinstance(v, str) for v in value.values()):
        raise ValueError("the values of 'model' should be text")
    if value.get("provider") and value["provider"] not in PROVIDERS:
        raise ValueError("'model.provider' should be openai, anthropic or ollama")
    return dict(value)
