"""Which strategy made a candidate (`CandidatesTried.how`): how every reader shows it, old
stored events with the three booleans still load, and `kiln eval` counts each
strategy's solves per set."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from agent.events import CandidateKind, CandidatesTried
from agent.headless.output import render_text
from agent.local.eval_report import LOOP, TaskRuns, table, totals
from agent.local.trial import TrialResult, _read_events
from agent.present import candidates_line
from agent.store.codec import event_from_dict
from tui.line_render import LineRenderer
from tui.meter_state import MeterState

KEPT = CandidatesTried(9, 1, "changed `a - b` to `a + b` in add (calc.py)", CandidateKind.VARIANT)


def test_the_kind_round_trips_through_json() -> None:
    as_json = json.loads(json.dumps(KEPT.to_dict()))
    assert as_json["how"] == "variant"
    assert not {"rewrites", "by_kiln", "of_rewrite"} & set(as_json)
    assert event_from_dict(as_json) == KEPT


@pytest.mark.parametrize(
    ("flags", "how"),
    [
        ({"rewrites": True, "by_kiln": True, "of_rewrite": True}, CandidateKind.PART_OF_REWRITE),
        ({"rewrites": True, "by_kiln": True, "of_rewrite": False}, CandidateKind.VARIANT),
        ({"rewrites": True, "by_kiln": False, "of_rewrite": False}, CandidateKind.REWRITE),
        ({"rewrites": False}, CandidateKind.SAMPLED_EDIT),
        ({}, CandidateKind.SAMPLED_EDIT),
    ],
)
def test_an_event_stored_with_the_old_booleans_still_loads(
    flags: dict[str, bool], how: CandidateKind
) -> None:
    stored = {"type": "candidates_tried", "tried": 3, "passing": 1, "chosen": "x", **flags}
    assert event_from_dict(stored) == CandidatesTried(3, 1, "x", how)


def test_none_kept_reads_by_whether_the_model_had_an_edit_of_its_own() -> None:
    for how in (CandidateKind.REWRITE, CandidateKind.MODULE):
        assert candidates_line(CandidatesTried(4, 0, "", how)).endswith(
            "none kept, the model goes on."
        )
    sampled = candidates_line(CandidatesTried(4, 0, "", CandidateKind.SAMPLED_EDIT))
    assert sampled.endswith("none beat the model's own edit.")


def test_headless_and_line_mode_show_the_kept_one() -> None:
    assert render_text(KEPT) == f"  {candidates_line(KEPT)}"
    out = io.StringIO()
    LineRenderer(Console(file=out, width=200), MeterState()).show(KEPT)
    assert "kept changed `a - b` to `a + b`" in out.getvalue()


def test_the_acp_client_is_told_too() -> None:
    pytest.importorskip("acp")
    from agent.acp.updates import Translator

    (update,) = Translator("/repo").updates(KEPT)
    assert "kept changed" in update.content.text


def _run(task: str, solved: bool, *events: CandidatesTried) -> TrialResult:
    result = TrialResult(task, solved=solved)
    _read_events("\n".join(json.dumps(e.to_dict()) for e in events), result)
    return result


def test_kiln_eval_counts_each_strategys_solves_per_set() -> None:
    none_kept = CandidatesTried(20, 0, "", CandidateKind.REWRITE)
    module = CandidatesTried(2, 1, "implemented season.py", CandidateKind.MODULE)
    sampled = CandidatesTried(3, 1, "edit_file a.py: x", CandidateKind.SAMPLED_EDIT)
    tune = TaskRuns("tune", "a", [_run("a", True, KEPT), _run("a", True, none_kept)])
    held = TaskRuns("held", "b", [_run("b", True, module), _run("b", False, KEPT)])
    more = TaskRuns("held", "c", [_run("c", True, none_kept, sampled)])
    for t in (tune, held, more):
        for r in t.results:
            r.wall_s = 10.0
    by_split = {t.split: t.solved_by for t in totals([tune, held, more])}
    assert by_split["tune"] == {**dict.fromkeys([*CandidateKind, LOOP], 0), "variant": 1, "loop": 1}
    assert by_split["held"]["module"] == 1 and by_split["held"]["sampled_edit"] == 1
    assert by_split["held"]["variant"] == 0  # kept, but the run was not solved
    assert by_split["all"]["variant"] == 1 and sum(by_split["all"].values()) == 4
    assert "solved by rewrite 0, variant 1" in table([tune, held, more])
    assert "no result(variant) 1" in table([tune])  # the task row names what fixed it
