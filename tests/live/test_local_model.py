"""kiln end to end with the real local model and the real sandbox (`pytest -m live`).

Each bundled task is a small repository with one bug and a failing test; `kiln run`
works on a fresh copy, and the task's own tests decide whether it was solved. The
per-task lines and the totals are printed at the end of the session.
"""

from __future__ import annotations

import pytest

from agent import local
from agent.local.bundled import bundled_task, bundled_tasks
from agent.local.trial import run_trial
from tests.live.conftest import RESULTS

pytestmark = [pytest.mark.live, pytest.mark.timeout(1800)]

TASKS = [t.name for t in bundled_tasks()]


@pytest.fixture(scope="module")
def local_model(docker_ready: None) -> str:
    if not local.is_installed():
        pytest.fail("the local model is not installed: run `kiln local install` first")
    spec = local.installed_model()
    assert spec is not None
    local.default_profile()  # serve it now, so the first task's time is its own
    return spec.name


@pytest.mark.parametrize("name", TASKS)
def test_kiln_fixes_a_bundled_bug(local_model: str, name: str) -> None:
    result = run_trial(bundled_task(name), timeout_s=600)
    RESULTS.append(result)
    print(result.line())
    # A run may fail to fix the bug (a 1.5B model is weak), but it must end cleanly:
    # kiln's own verdict, no traceback, and nothing claimed that the tests contradict.
    assert result.status != "no result", f"kiln ended without a verdict: {result.stderr_tail}"
    assert "Traceback" not in result.stderr_tail, result.stderr_tail
    if result.status == "done":
        assert result.solved, "kiln said done but the task's tests still fail"
    # The usage kiln reports is the server's own count (read back from its log), not an
    # estimate: it matches what the server logged for the requests of this run.
    logged = result.server_cache
    assert (result.input_tokens, result.cached_tokens) == (
        logged.prompt_tokens,
        logged.cached_tokens,
    ), "kiln's token counts differ from the server log (did another client use the server?)"


def test_the_local_model_solves_at_least_one_task() -> None:
    # Measured with Qwen2.5-Coder 1.5B (README, "The local model"): 1 to 3 of the 5 tasks per
    # run, the same task solved in one run and missed in the next. At least one is what the
    # setup reliably does; none means something broke.
    attempted = [r for r in RESULTS if r.status != "no result"]
    if len(attempted) < len(TASKS):
        pytest.skip("runs only after every task was attempted in this session")
    solved = sum(r.solved for r in attempted)
    assert solved >= 1, f"solved {solved}/{len(attempted)}"
