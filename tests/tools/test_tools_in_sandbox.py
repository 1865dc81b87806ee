"""The nine tools against a real Docker sandbox over a real git repository."""

from __future__ import annotations

from pathlib import Path

from agent import tools
from agent.approval import Decision, Mode, Verdict
from agent.tools.control import finish_summary
from agent.tools.shell import first_runnable
from agent.tools.testdigest import runnable_check
from sandbox.base import Sandbox
from tests.scripted import ScriptedPerson, tool_context


async def test_read_file_numbers_lines_and_ranges(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    whole = await tools.call(ctx, "read_file", {"path": "calc.py"})
    assert whole.ok and whole.output.splitlines()[1] == "    2\t    return a - b"
    part = await tools.call(
        ctx, "read_file", {"path": "test_calc.py", "start_line": 7, "end_line": 8}
    )
    assert part.output.splitlines()[0].startswith("    7\t")
    assert len(part.output.splitlines()) == 2


async def test_read_file_refuses_binary_missing_and_escaping(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    await sandbox.write_file("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00binary")
    binary = await tools.call(ctx, "read_file", {"path": "logo.png"})
    assert not binary.ok and "binary" in binary.output
    missing = await tools.call(ctx, "read_file", {"path": "nope.py"})
    assert not missing.ok and "does not exist" in missing.output
    escape = await tools.call(ctx, "read_file", {"path": "../../etc/passwd"})
    assert not escape.ok and "outside the repository" in escape.output


async def test_list_files_respects_gitignore(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    await sandbox.write_file("build/out.txt", b"artefact")
    await sandbox.write_file("src/new_module.py", b"x = 1\n")
    listed = await tools.call(ctx, "list_files", {})
    names = listed.output.splitlines()
    assert {"calc.py", "test_calc.py", "src/new_module.py"} <= set(names)
    assert "build/out.txt" not in names
    only_py = await tools.call(ctx, "list_files", {"pattern": "*.py"})
    assert ".gitignore" not in only_py.output and "calc.py" in only_py.output
    under = await tools.call(ctx, "list_files", {"path": "src"})
    assert under.output.strip() == "src/new_module.py"


async def test_search_with_regex_path_and_glob(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    found = await tools.call(ctx, "search", {"pattern": r"def \w+\(a, b\)"})
    assert found.ok and "calc.py:1:def add(a, b):" in found.output
    glob = await tools.call(ctx, "search", {"pattern": "add", "glob": "test_*.py"})
    assert glob.output and all(
        line.startswith("test_calc.py:") for line in glob.output.splitlines()
    )
    nothing = await tools.call(ctx, "search", {"pattern": "zebra[0-9]+"})
    assert nothing.ok and "No matches" in nothing.output


async def test_edit_file_writes_through_the_sandbox_only(
    sandbox: Sandbox, buggy_repo: Path
) -> None:
    ctx = tool_context(sandbox)
    result = await tools.call(
        ctx, "edit_file", {"path": "calc.py", "old_text": "a - b", "new_text": "a + b"}
    )
    assert result.ok and result.edited
    assert (await sandbox.read_file("calc.py")).decode().endswith("return a + b\n")
    assert (buggy_repo / "calc.py").read_text().endswith("return a - b\n")  # host untouched
    assert "calc.py" in await sandbox.changed_files()


async def test_edit_reports_a_syntax_error_it_introduced(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    result = await tools.call(
        ctx,
        "edit_file",
        {"path": "calc.py", "old_text": "def add(a, b):", "new_text": "def add(a, b:"},
    )
    assert result.ok and "no longer parses as python" in result.output and "line 1" in result.output


async def test_write_file_creates_and_reports(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    created = await tools.call(ctx, "write_file", {"path": "pkg/util.py", "content": "X = 1\n"})
    assert created.ok and "Created pkg/util.py" in created.output
    assert await sandbox.read_file("pkg/util.py") == b"X = 1\n"
    same = await tools.call(ctx, "write_file", {"path": "pkg/util.py", "content": "X = 1\n"})
    assert same.ok and not same.edited


async def test_run_and_run_tests(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    ran = await tools.call(ctx, "run", {"command": "echo hello && exit 3"})
    assert (
        not ran.ok
        and ran.exit_code == 3
        and "hello" in ran.output
        and "[exit code 3]" in ran.output
    )
    slow = await tools.call(ctx, "run", {"command": "sleep 5", "timeout_s": 1})
    assert "timed out" in slow.output
    tests = await tools.call(ctx, "run_tests", {})
    assert not tests.ok and tests.tests is not None
    assert tests.tests.failed == 1 and "AssertionError: -1 != 5" in tests.output


async def test_update_plan_and_finish(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox)
    plan = await tools.call(
        ctx,
        "update_plan",
        {"steps": [{"title": "a", "status": "done"}, {"title": "b", "status": "pending"}]},
    )
    assert plan.ok and plan.plan is not None and len(plan.plan) == 2
    bad = await tools.call(ctx, "update_plan", {"steps": [{"title": "a", "status": "started"}]})
    assert not bad.ok and "in_progress" in bad.output
    assert finish_summary({"summary": "all good"}) == "all good"
    unknown = await tools.call(ctx, "delete_repo", {})
    assert not unknown.ok and "no tool named" in unknown.output


async def test_plan_mode_refuses_edits_and_ask_mode_rejection_reaches_the_model(
    sandbox: Sandbox,
) -> None:
    plan = tool_context(sandbox, Mode.PLAN)
    refused = await tools.call(plan, "write_file", {"path": "x.py", "content": "1\n"})
    assert not refused.ok and "plan mode" in refused.output
    looked = await tools.call(plan, "run", {"command": "git status"})
    assert looked.exit_code == 0  # safe commands still run in plan mode
    person = ScriptedPerson(Decision(Verdict.REJECT, "keep the API stable"))
    ask = tool_context(sandbox, Mode.ASK, person)
    rejected = await tools.call(
        ask, "edit_file", {"path": "calc.py", "old_text": "a - b", "new_text": "b + a"}
    )
    assert not rejected.ok and "keep the API stable" in rejected.output
    assert person.asked[0].diff.startswith("--- a/calc.py")
    assert (await sandbox.read_file("calc.py")).decode().endswith("a - b\n")


async def test_an_edit_aimed_at_the_wrong_file_names_the_right_one(sandbox: Sandbox) -> None:
    ctx = tool_context(sandbox, mode=Mode.FULL_AUTO)
    await sandbox.write_file("app.py", b"from calc import add\n\nprint(add(1, 2))\n")
    wrong = await tools.call(
        ctx, "edit_file",
        {"path": "app.py", "old_text": "    return a - b", "new_text": "    return a + b"},
    )  # fmt: skip
    assert not wrong.ok
    assert "`old_text` is not in app.py, but it is in calc.py" in wrong.output


async def test_the_first_runnable_test_command_in_the_sandbox(sandbox: Sandbox) -> None:
    # A standard-library runner needs only its interpreter; any other module is looked for
    # (the default image has pytest); a missing interpreter or module gives way to the next.
    assert runnable_check("python3 -m unittest discover -v").startswith("command -v python3 ")
    assert "find_spec" in runnable_check("python3 -m pytest -q")
    commands = [
        "python9 -m unittest",
        "python3 -m no_such_runner",
        "go test ./...",
        "python3 -m pytest -q",
        "python3 -m unittest",
    ]
    assert await first_runnable(sandbox, commands) == 3
    assert await first_runnable(sandbox, [*commands[:3], commands[4]]) == 3
    assert await first_runnable(sandbox, commands[:3]) == -1
