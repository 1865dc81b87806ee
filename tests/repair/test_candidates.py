"""Must hold: when a fix fails, kiln samples other fixes from the same request, applies
each to the workspace as it was before the failing edit, lets the tests judge, and keeps
the best; a candidate that edits the tests is never chosen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent import events as ev
from agent.approval import Mode
from agent.events import CandidateKind, CandidatesTried, Finished
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.session import Session
from agent.settings.config import load_settings
from tests.scripted import ScriptedPerson


def edit(path: str, old: str, new: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "edit_file", "arguments": {
        "path": path, "old_text": old, "new_text": new}}]}  # fmt: skip


CHEAT = edit("test_calc.py", "add(2, 3), 5", "add(2, 3), -1")  # passes, by changing the test
SCRIPT = [
    edit("calc.py", "return a - b", "return a * b"),  # the model's own fix: fails
    CHEAT,  # candidate 1: edits the tests, never chosen
    edit("calc.py", "return a - b", "return a / b"),  # candidate 2: fails
    edit("calc.py", "return a - b", "return a + b"),  # candidate 3: passes
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "add adds"}}]},
]


async def _run(repo: Path, script: list[dict[str, Any]], mode: Mode) -> tuple[list[Any], Session]:
    with ScriptedServer(script) as server:
        profile = ModelProfile(base_url=server.base_url, model="m", candidates=3, max_retries=0)
        session = Session(
            load_settings(repo, env={}), repo, ScriptedPerson(), mode,
            client=OpenAICompatClient(profile),
        )  # fmt: skip
        try:
            events = [e async for e in session.run("fix add")]
            diff = await session.diff()
        finally:
            await session.close()
        temperatures = [r.body.get("temperature") for r in server.chat_requests]
    return [events, diff, temperatures], session


async def test_the_tests_pick_a_passing_candidate_over_a_failing_fix(
    docker_ready: None, buggy_repo: Path
) -> None:
    (events, diff, temperatures), _ = await _run(buggy_repo, SCRIPT, Mode.FULL_AUTO)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.tried == 2 and tried.passing == 1  # the test edit was not even tried
    assert tried.chosen == "edit_file calc.py: return a + b"
    assert tried.how is CandidateKind.SAMPLED_EDIT
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.status == "done"
    assert "+    return a + b" in diff and "test_calc.py" not in diff
    assert [e.failed for e in events if isinstance(e, ev.TestsRan)][-1] == 0
    # Candidates were sampled hotter than the model's own requests.
    assert temperatures[1:4] == [0.8, 0.8, 0.8] and temperatures[0] is None


async def test_no_better_candidate_keeps_the_models_own_edit(
    docker_ready: None, buggy_repo: Path
) -> None:
    worse = [SCRIPT[0], SCRIPT[2], SCRIPT[2], SCRIPT[2], edit("calc.py", "a * b", "a + b"),
             SCRIPT[-1]]  # fmt: skip
    (events, diff, _), _ = await _run(buggy_repo, worse, Mode.FULL_AUTO)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.passing == 0 and tried.chosen == ""
    # The model's own edit stood, so its next edit (written against it) applied.
    assert "+    return a + b" in diff and events[-1].status == "done"


async def test_in_ask_mode_no_candidates_are_tried(docker_ready: None, buggy_repo: Path) -> None:
    script = [SCRIPT[0], edit("calc.py", "a * b", "a + b"), SCRIPT[-1]]
    (events, _, _), _ = await _run(buggy_repo, script, Mode.ASK)
    assert not [e for e in events if isinstance(e, CandidatesTried)]


async def test_edits_that_do_not_apply_twice_turn_into_candidates(
    docker_ready: None, buggy_repo: Path
) -> None:
    wrong = edit("calc.py", "return a - b  # not in the file", "return a + b")
    script = [wrong, wrong, edit("calc.py", "return a - b", "return a + b"), SCRIPT[-1]]
    (events, diff, _), _ = await _run(buggy_repo, script, Mode.FULL_AUTO)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.passing == 1 and tried.chosen.endswith("return a + b")
    assert "+    return a + b" in diff and events[-1].status == "done"
