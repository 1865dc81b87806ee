"""The judge of `kiln eval` and `.ci/demo` runs a task's tests on a model's result: in a
sandbox, never on the host (a canary the tests write on the host must not appear)."""

from __future__ import annotations

from pathlib import Path

from agent.local.trial import _tests_pass
from tests.conftest import make_git_repo

WRITES_CANARY = (
    "import contextlib, unittest\n"
    "with contextlib.suppress(OSError):\n"
    "    open({canary!r}, 'w').write('escaped')\n\n"
    "class T(unittest.TestCase):\n"
    "    def test_it(self):\n"
    "        self.assertTrue({passes})\n"
)


def test_the_judge_runs_a_models_result_in_the_sandbox(docker_ready: None, tmp_path: Path) -> None:
    canary = str(tmp_path / "canary")
    repo = make_git_repo(
        tmp_path / "repo", {"test_it.py": WRITES_CANARY.format(canary=canary, passes=True)}
    )
    assert _tests_pass(repo, "python3 -m unittest -q")
    assert not Path(canary).exists()
    (repo / "test_it.py").write_text(WRITES_CANARY.format(canary=canary, passes=False))
    assert not _tests_pass(repo, "python3 -m unittest -q")
    assert not Path(canary).exists()
