"""Exercism's exercise layout, read as the tasks `kiln eval` and `bench/compare_agents.py` run.

An exercise folder holds `.docs/instructions.md` (maybe with `introduction.md` and
`instructions.append.md`), a stub such as `NAME.py`, its tests `NAME_test.py`, and `.meta/`
with the reference solution. The repository the agent sees is the folder without `.meta/`
and without the write-ups of solutions (`.approaches/`, `.articles/`); `.docs/` stays, so
the instructions are in the repository too. The prompt is what Aider's benchmark harness
sends (its `benchmark/benchmark.py` and `prompts.py`): the introduction, the instructions
and their addendum as they are, then the line naming the files to change. The verdict is
the exercise's test files, restored, run by pytest.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent.local.bundled import BundledTask, is_test_path

# Everything in an exercise that shows a solution: never copied into the agent's repository.
SOLUTION_FOLDERS = (".meta", ".approaches", ".articles")
DOCS = ("introduction.md", "instructions.md", "instructions.append.md")  # in Aider's order
# Aider's `instructions_addendum`, word for word, so both agents get the same prompt.
ADDENDUM = (
    "\n####\n\n"
    "Use the above instructions to modify the supplied files: {file_list}\n"
    "Don't change the names of existing functions or classes, as they may be referenced "
    "from other code like unit tests, etc.\n"
    "Only use standard libraries, don't suggest installing any packages.\n"
)


def is_exercise(folder: Path) -> bool:
    return (folder / ".docs" / "instructions.md").is_file() and any(folder.glob("*_test.py"))


def exercises_in(directory: Path) -> list[BundledTask]:
    """The exercises in `directory`: each sub-folder laid out as Exercism's, by name."""
    return [exercise(d) for d in sorted(directory.iterdir()) if d.is_dir() and is_exercise(d)]


def exercise(folder: Path) -> BundledTask:
    tests = sorted(p.name for p in folder.glob("*_test.py"))
    stubs = _solution_files(folder)
    return BundledTask(
        name=folder.name,
        title=f"Exercism exercise {folder.name}",
        prompt=instructions(folder) + ADDENDUM.format(file_list=" ".join(stubs)),
        test_command="python3 -m pytest -q " + " ".join(tests),
        source=folder,
        left_out=SOLUTION_FOLDERS,
        files=tuple(stubs),
    )


def instructions(folder: Path) -> str:
    texts = [(folder / ".docs" / name) for name in DOCS]
    return "".join(_ending_a_line(p.read_text(encoding="utf-8")) for p in texts if p.is_file())


def _ending_a_line(text: str) -> str:
    # Aider joins the documents as they are; a missing last newline would glue two headings.
    return text if text.endswith("\n") else text + "\n"


def _solution_files(folder: Path) -> list[str]:
    """The files the person is to change: the exercise's own list in `.meta/config.json`
    (read here, never copied), else its Python files that are not tests."""
    listed = _config_solution_files(folder)
    if listed:
        return listed
    return sorted(p.name for p in folder.glob("*.py") if not is_test_path(p.name))


def _config_solution_files(folder: Path) -> list[str]:
    config = folder / ".meta" / "config.json"
    try:
        files = json.loads(config.read_text(encoding="utf-8")).get("files", {})
    except (OSError, ValueError, AttributeError):
        return []
    solution = files.get("solution", []) if isinstance(files, dict) else []
    return [
        str(name)
        for name in solution
        if not str(name).startswith((".meta/", ".docs/"))
        and not is_test_path(str(name))
        and (folder / str(name)).is_file()
    ]
