"""Small models: the failing tests and the code they point at, up front and after edits."""

from __future__ import annotations

from pathlib import Path

from agent.approval import Mode
from agent.events import Finished
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.prompts.briefing import FIX_CALL, briefing, code_file_in, files_involved
from agent.prompts.system import NUDGE, SMALL_MODEL_PROMPT, small_model_nudge
from agent.session import Session
from agent.settings.config import load_settings
from agent.tools.shell import run_test_command
from sandbox.base import Sandbox
from tests.scripted import ScriptedPerson, tool_context

REPO_FILES = ["calc.py", "pkg/__init__.py", "pkg/models.py", "pkg/util.py", "tests/test_x.py"]
DIGEST = """Tests FAILED: 0 passed, 1 failed, 0 errors
  File "/workspace/tests/test_x.py", line 9, in test_it
  File "/workspace/pkg/util.py", line 3, in helper
  File "/usr/lib/python3.11/unittest/case.py", line 5, in run
AssertionError: 1 != 2"""


def test_files_come_from_the_task_the_tracebacks_and_the_failing_tests_imports() -> None:
    tests = {"tests/test_x.py": "import unittest\nfrom pkg.models import Item\n"}
    found = files_involved("The tests fail; fix calc.py.", DIGEST, REPO_FILES, tests)
    assert found == ["calc.py", "pkg/util.py", "pkg/models.py", "tests/test_x.py"]
    assert code_file_in(DIGEST) == "pkg/util.py"


def test_the_nudge_names_a_real_file_because_small_models_copy_it() -> None:
    assert '{"name": "read_file", "arguments": {"path": "pkg/util.py"}}' in small_model_nudge(
        "pkg/util.py"
    )
    assert '{"name": "list_files", "arguments": {}}' in small_model_nudge()
    assert "list_files" not in NUDGE


async def test_the_briefing_quotes_the_code_under_test_and_ends_with_the_request(
    sandbox: Sandbox,
) -> None:
    digest = await run_test_command(tool_context(sandbox))
    text = await briefing("Make the tests pass.", digest, sandbox)
    assert text.startswith("kiln ran the tests before you started:\n" + digest.text)
    assert "calc.py:\n```\ndef add(a, b):\n    return a - b\n```" in text
    assert "test_calc.py:\n```" not in text  # its failing lines are in the digest already
    assert text.endswith("Make the tests pass.\n\n" + FIX_CALL)


async def test_a_small_model_sees_the_code_up_front_and_again_after_a_failing_edit(
    docker_ready: None, buggy_repo: Path
) -> None:
    def edit(old: str, new: str) -> dict[str, object]:
        arguments = {"path": "calc.py", "old_text": old, "new_text": new}
        return {"tool_calls": [{"name": "edit_file", "arguments": arguments}]}

    finish = {"tool_calls": [{"name": "finish", "arguments": {"summary": "add adds"}}]}
    with ScriptedServer([edit("a - b", "a * b"), edit("a * b", "a + b"), finish]) as server:
        # No candidates here: this is about what the model is shown (test_candidates.py).
        profile = ModelProfile(
            base_url=server.base_url, model="m", small_model=True, max_retries=0, candidates=0
        )
        session = Session(
            load_settings(buggy_repo, env={}),
            buggy_repo,
            ScriptedPerson(),
            Mode.FULL_AUTO,
            client=OpenAICompatClient(profile, backoff_base_s=0.01),
        )
        try:
            events = [event async for event in session.run("Fix add.")]
        finally:
            await session.close()
    assert isinstance(events[-1], Finished) and events[-1].status == "done"
    first = server.chat_requests[0].body["messages"]
    assert first[0]["content"].startswith(SMALL_MODEL_PROMPT)
    assert "calc.py:\n```\ndef add(a, b):\n    return a - b\n```" in first[1]["content"]
    assert first[1]["content"].endswith("Fix add.\n\n" + FIX_CALL)
    after_bad_edit = server.chat_requests[1].body["messages"][-1]["content"]
    assert "Tests FAILED" in after_bad_edit
    assert (
        "as they are now:\n\ncalc.py:\n```\ndef add(a, b):\n    return a * b\n```" in after_bad_edit
    )
    assert after_bad_edit.endswith(FIX_CALL)
