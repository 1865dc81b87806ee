"""Must hold: starting a job is a `run` of its command for the approval gate and the
`[permissions]` rules (a deny rule refuses it in every mode, a person's "no" in ask mode
starts nothing), on the real Docker sandbox; reading and stopping a job through `run`'s
arguments; the coding group keeps its ten tools."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent import tools
from agent.approval import Action, Decision, Mode, Verdict
from agent.events import ActionDenied, Event, JobStarted
from agent.tools.gate import ApprovalGate
from sandbox.base import SandboxConfig
from sandbox.docker_backend import DockerSandbox
from tests.conftest import make_git_repo, require_docker
from tests.scripted import tool_context
from tests.tools.test_gate_and_syntax import RecordingApprover
from tests.tools.test_permission_rules import rules

SLEEPER = "exec sleep 300"


@pytest.fixture
async def sandbox(tmp_path: Path) -> AsyncIterator[DockerSandbox]:
    require_docker()
    repo = make_git_repo(tmp_path / "repo", {"a.txt": "a\n"})
    box = DockerSandbox(repo, SandboxConfig(state_dir=tmp_path / "state"))
    await box.start()
    yield box
    await box.close()


def test_the_coding_group_still_has_ten_tools() -> None:
    assert len(tools.TOOLS) == 10 and "job" not in tools.TOOLS
    properties = tools.TOOLS["run"].spec.parameters["properties"]
    assert {"background", "job", "stop"} <= set(properties)


async def test_a_deny_rule_for_the_command_refuses_its_job_in_full_auto(
    sandbox: DockerSandbox,
) -> None:
    ctx = tool_context(sandbox, Mode.FULL_AUTO)
    ctx.gate = ApprovalGate(RecordingApprover(), Mode.FULL_AUTO, rules(deny=["run: exec sleep*"]))
    seen: list[Event] = []
    ctx.emit = seen.append
    refused = await tools.call(ctx, "run", {"command": SLEEPER, "background": True})
    assert not refused.ok and sandbox.services() == []
    assert [type(e) for e in seen] == [ActionDenied]


async def test_in_ask_mode_the_person_is_asked_and_a_no_starts_nothing(
    sandbox: DockerSandbox,
) -> None:
    person = RecordingApprover(Decision(Verdict.REJECT), Decision(Verdict.APPROVE))
    ctx = tool_context(sandbox, Mode.ASK, person)
    seen: list[Event] = []
    ctx.emit = seen.append
    refused = await tools.call(ctx, "run", {"command": SLEEPER, "background": True})
    assert not refused.ok and sandbox.services() == []
    started = await tools.call(ctx, "run", {"command": SLEEPER, "background": True})
    assert started.ok and started.output.startswith("Job 1 started")
    assert [r.action for r in person.asked] == [Action.COMMAND, Action.COMMAND]
    assert all(SLEEPER in r.summary for r in person.asked)
    assert [e for e in seen if isinstance(e, JobStarted)] == [
        JobStarted("1", SLEEPER, "/kiln/services/job-1.log")
    ]

    # Reading and stopping ask nothing: the job is the model's own.
    read = await tools.call(ctx, "run", {"job": 1})  # a number is read as the id too
    assert read.ok and read.output.startswith("[job 1 running for")
    stopped = await tools.call(ctx, "run", {"job": "1", "stop": True})
    assert stopped.ok and stopped.output.startswith("[job 1 stopped now after")
    missing = await tools.call(ctx, "run", {"job": "7"})
    assert not missing.ok and missing.output.startswith("There is no job '7' (jobs: 1)")
    assert len(person.asked) == 2
