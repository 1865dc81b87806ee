"""The command layer on its own: what every front end draws for each slash command."""

from __future__ import annotations

from pathlib import Path

from agent.approval import Mode
from agent.commands import NOT_READY, Commands, Say, ShowDiff, completions, parse
from agent.events import Applied, ModeChanged
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.session import Session
from agent.settings.config import load_settings
from tests.scripted import FIX_SCRIPT, ScriptedPerson


async def _outputs(commands: Commands, line: str) -> list[object]:
    return [output async for output in commands.run(line)]


async def test_without_a_session_every_command_answers(tmp_path: Path) -> None:
    commands = Commands(load_settings(tmp_path, env={}), Mode.ASK, ["Esc interrupts"])
    assert await _outputs(commands, "/mode plan") == [ModeChanged("plan"), Say("Mode: plan.")]
    assert commands.mode is Mode.PLAN
    [said] = await _outputs(commands, "/mode sideways")
    assert isinstance(said, Say) and "not a mode" in said.text
    for line in ("/diff", "/apply", "/undo"):
        assert await _outputs(commands, line) == [Say(NOT_READY, "error")]
    [cost] = await _outputs(commands, "/cost")
    assert isinstance(cost, Say) and "cache-hit ratio 0%" in cost.text
    [unknown] = await _outputs(commands, "/frobnicate")
    assert isinstance(unknown, Say) and "There is no /frobnicate" in unknown.text
    [help_text] = await _outputs(commands, "/help")
    assert isinstance(help_text, Say) and "/apply" in help_text.text
    assert help_text.text.endswith("Esc interrupts")
    assert await _outputs(commands, "not a command") == []
    assert parse("//etc") is None and [c.name for c in completions("/th")] == ["theme"]


async def test_diff_apply_and_undo_on_a_real_session(docker_ready: None, buggy_repo: Path) -> None:
    person = ScriptedPerson()  # approves
    with ScriptedServer(FIX_SCRIPT) as server:
        profile = ModelProfile(base_url=server.base_url, model="scripted", max_retries=0)
        session = Session(
            load_settings(buggy_repo, env={}),
            buggy_repo,
            person,
            Mode.AUTO_EDIT,
            client=OpenAICompatClient(profile),
        )
        commands = Commands(session.settings, Mode.AUTO_EDIT)
        commands.session = session
        try:
            await session.start()
            assert await _outputs(commands, "/diff") == [Say("The sandbox has no changes.")]
            async for _event in session.run("fix add"):
                pass
            [diff] = await _outputs(commands, "/diff")
            assert isinstance(diff, ShowDiff) and "+    return a + b" in diff.diff
            assert diff.title == "Changes in the sandbox (1 files)"
            applying = await _outputs(commands, "/apply")
            kinds = [type(output).__name__ for output in applying]
            assert kinds == ["ApprovalRequested", "ApprovalResolved", "Applied", "Say"]
            assert applying[2] == Applied(("calc.py",), approved=True)
            assert applying[3] == Say("Applied to your working tree: calc.py.", "success")
            assert [r.action.value for r in person.asked] == ["apply"]
            assert (buggy_repo / "calc.py").read_text().endswith("a + b\n")
            # /undo takes the applied change back out of the working tree first...
            [undone] = await _outputs(commands, "/undo")
            assert undone.text.startswith("Undone: kiln's changes to calc.py")
            assert (buggy_repo / "calc.py").read_text().endswith("a - b\n")
            # ...then, with nothing applied left, the last step in the sandbox.
            [undone] = await _outputs(commands, "/undo")
            assert undone == Say("Undone: start")
            assert await _outputs(commands, "/apply") == [
                Say("The sandbox has no changes to apply.")
            ]
        finally:
            await session.close()


def test_changes_to_kiln_or_ci_config_are_flagged() -> None:
    from agent.present import flag_config

    paths = ["calc.py", ".kiln.toml", ".github/workflows/ci.yml", "docs/ci.md"]
    flagged = flag_config("apply the changes", paths)
    assert flagged.endswith(
        "(touches kiln's or CI's configuration: .kiln.toml, .github/workflows/ci.yml)"
    )
    assert flag_config("edit calc.py", ["calc.py"]) == "edit calc.py"


async def test_an_edit_of_kilns_config_asks_with_a_flag(
    docker_ready: None, buggy_repo: Path
) -> None:
    from tests.scripted import run_scripted

    person = ScriptedPerson()
    write = {"tool_calls": [{"name": "write_file", "arguments": {
        "path": ".kiln.toml", "content": "[sandbox]\nnetwork = true\n"}}]}  # fmt: skip
    await run_scripted(buggy_repo, [write, {"text": "done"}], mode=Mode.ASK, person=person)
    [asked] = [r for r in person.asked if r.action.value == "edit"]
    assert "touches kiln's or CI's configuration: .kiln.toml" in asked.summary
