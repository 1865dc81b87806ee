"""Must hold: every request kiln makes for a task (rewrites, sampled rewrites, the loop's
requests, candidates after a failing fix) carries the person's task word for word, as the
store keeps it, also when the window fills and kiln summarises; the documents the
repository holds for the task (an instructions file in `.docs/`) go with the rewrite
requests too; and where a prompt must be short, the code is cut, never the task."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.events import CandidateKind, CandidatesTried, Compacted, Finished
from agent.llm.base import Message
from agent.llm.scripted.server import ScriptedServer
from agent.prompts.briefing import brief, with_task
from agent.prompts.compaction import SUMMARY_PROMPT
from agent.prompts.documents import documents, named_documents, readme_section
from agent.prompts.rewrite import SYSTEM as REWRITE_SYSTEM
from agent.store.db import Store
from agent.tools.shell import run_test_command
from sandbox.base import Sandbox
from tests.conftest import make_git_repo
from tests.scripted import small_model_session, tool_context

# The rules are only in the instructions file: the task points at them without saying them.
RULES = (
    "A parcel costs 3 coins for its first kilogram and 2 coins for each kilogram after "
    "that. A parcel that weighs nothing costs nothing."
)
PARCELS = {
    ".docs/instructions.md": f"# Postage\n\n{RULES}\n",
    "postage.py": "def postage(kilograms):\n    return 3 * kilograms\n",
    "postage_test.py": (
        "import unittest\n\nfrom postage import postage\n\n\n"
        "class PostageTest(unittest.TestCase):\n"
        "    def test_nothing(self):\n        self.assertEqual(postage(0), 0)\n\n"
        "    def test_one(self):\n        self.assertEqual(postage(1), 3)\n\n"
        "    def test_three(self):\n        self.assertEqual(postage(3), 7)\n"
    ),
}
TASK = "Heavy parcels cost too much: postage should charge what the instructions say."


def block(code: str) -> dict[str, Any]:
    return {"text": f"```python\n{code}```\n"}


def edit(old: str, new: str) -> dict[str, Any]:
    arguments = {"path": "postage.py", "old_text": old, "new_text": new}
    return {"tool_calls": [{"name": "edit_file", "arguments": arguments}]}


FIX = ("return 3 * kilograms", "return 2 * kilograms + 1 if kilograms else 0")
WRONG = "return 3 * kilograms if kilograms < 9 else 0"  # as wrong as before
SCRIPT = [
    block("def postage(kilograms):\n    return 2 * kilograms\n"),  # the greedy rewrite
    *[block("def postage(kilograms):\n    return 3 + kilograms\n")] * 3,  # sampled rewrites
    edit("return 3 * kilograms", WRONG),  # the loop's own fix: fails as before
    edit("return 3 * kilograms", "return 4 * kilograms"),  # candidates: worse
    edit("return 3 * kilograms", "return kilograms"),
    edit(WRONG, "return 2 * kilograms + 1 if kilograms else 0"),  # the loop again: passes
    {"tool_calls": [{"name": "finish", "arguments": {"summary": "postage follows the rules"}}]},
]


async def test_every_stored_request_of_a_small_model_run_holds_the_task(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", PARCELS)
    with ScriptedServer(SCRIPT) as server:
        async with small_model_session(repo, server, candidates=2) as session:
            events = [e async for e in session.run(TASK)]
        sent = len(server.chat_requests)
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.status == "done"
    kinds = [e for e in events if isinstance(e, CandidatesTried)]
    assert [k.how for k in kinds] == [CandidateKind.REWRITE, CandidateKind.SAMPLED_EDIT]

    exchanges = Store().exchanges(session.session_id)
    assert len(exchanges) == sent == len(SCRIPT)  # the whole script, every request stored
    texts = ["\n".join(m["content"] or "" for m in x["messages"]) for x in exchanges]
    missing = [n for n, text in enumerate(texts, 1) if TASK not in text]
    assert missing == [], f"requests without the task: {missing}"

    rewrites = [x for x in exchanges if x["messages"][0]["content"] == REWRITE_SYSTEM]
    loop = [x for x in exchanges if x["tools"]]
    assert (len(rewrites), len(loop)) == (4, 5)  # 3 loop turns and 2 candidates, with tools
    for rewrite in rewrites:
        asked = rewrite["messages"][-1]["content"]
        assert RULES in asked and ".docs/instructions.md:" in asked
        # The task and its documents come before the one function asked for, so every
        # rewrite shares them as its prefix.
        assert asked.index(TASK) < asked.index("The bug may be in `postage`")
    shared = {r["messages"][-1]["content"].split("The bug may be in")[0] for r in rewrites}
    assert len(shared) == 1
    assert RULES in texts[len(rewrites)]  # the loop's first message quotes the rules too


async def test_a_long_task_is_never_cut_the_code_is(sandbox: Sandbox) -> None:
    digest = await run_test_command(tool_context(sandbox))
    short = await brief("Fix add.", digest, sandbox)
    assert "calc.py:\n```\ndef add(a, b):" in short.text
    task = "Fix add. " + "The person explains at length what add means to them. " * 400
    long = await brief(task, digest, sandbox)
    assert task in long.text and task in long.context and long.task == task
    assert "calc.py:\n```" not in long.text  # no room left for the code: it is left out
    assert "AssertionError" in long.text  # the failing assertion is still shown


def test_the_readme_section_the_task_names_is_quoted_alone() -> None:
    readme = (
        "# Tool\n\nIntro.\n\n## Install\n\nRun it.\n\n## Config files\n\nComments start "
        "with a semicolon.\n\n### Keys\n\nLower case.\n\n## License\n\nMIT.\n"
    )
    section = readme_section(readme, "Follow the README's Config files section.")
    assert section == (
        "## Config files\n\nComments start with a semicolon.\n\n### Keys\n\nLower case.\n\n"
    )
    assert readme_section(readme, "See the README.") == readme  # no section named: all of it


async def test_documents_come_from_the_task_and_the_usual_places() -> None:
    files = {
        "docs/spec.md": "The spec.",
        ".docs/instructions.md": "Do the thing.",
        "README.md": "# R\n\n## Usage\n\nCall it.\n\n## Other\n\nNo.\n",
        "notes.py": "x = 1",
    }

    async def read(path: str) -> str:
        return files.get(path, "")

    task = "As docs/spec.md and the README's Usage part say; notes.py too."
    assert named_documents(task, list(files)) == [
        "docs/spec.md",
        ".docs/instructions.md",
        "README.md",
    ]
    quoted = await documents(task, list(files), read)
    assert "docs/spec.md:\n```\nThe spec.\n```" in quoted
    assert ".docs/instructions.md:\n```\nDo the thing.\n```" in quoted
    assert "## Usage\n\nCall it." in quoted and "No." not in quoted and "x = 1" not in quoted
    # A task that pastes the instructions in gets them once.
    assert ".docs/instructions.md" not in await documents("Do the thing.", list(files), read)


def test_a_request_without_the_task_gets_it_after_the_system_prompt() -> None:
    summary = [Message("system", "Summarise."), Message("user", "user: read_file a.py")]
    carried = with_task(summary, "Fix the dates.")
    assert carried[0] == summary[0]
    assert carried[1].content == "The task:\nFix the dates.\n\nuser: read_file a.py"
    holding = [Message("system", "s"), Message("user", "x Fix the dates. y")]
    assert with_task(holding, "Fix the dates.") is holding  # already there: unchanged
    assert with_task(summary, "") is summary  # no task (a review): unchanged


async def test_a_run_whose_window_fills_keeps_the_task_in_summaries_and_turns(
    docker_ready: None, tmp_path: Path
) -> None:
    filler = "# a long module the model reads, to fill the window\n" + "x = 1\n" * 600
    files = {**PARCELS, **{f"big{n}.py": filler for n in range(5)}}
    repo = make_git_repo(tmp_path / "repo", files)
    # Longer than the part of an old message a summary shows: the summary request has to
    # be given the task, it cannot count on quoting it.
    task = TASK + " Some background on the parcels and why they matter." * 40
    reads = [
        {"tool_calls": [{"name": "read_file", "arguments": {"path": f"big{n}.py"}}]}
        for n in range(5)
    ]
    done = {"tool_calls": [{"name": "finish", "arguments": {"summary": "read"}}]}
    # Summaries are served from the script too and take turns of it: the fix and finish
    # come four times, so one of each reaches the loop whichever turns the summaries took.
    script = {"context_window": 6000, "turns": [*reads, *[edit(*FIX), done] * 4]}
    with ScriptedServer(script) as server:
        async with small_model_session(repo, server, candidates=0) as session:
            events = [e async for e in session.run(task)]
    assert isinstance(events[-1], Finished) and events[-1].status == "done"
    assert any(isinstance(e, Compacted) and e.tier == 2 for e in events)
    exchanges = Store().exchanges(session.session_id)
    summaries = [x for x in exchanges if x["messages"][0]["content"] == SUMMARY_PROMPT]
    assert summaries  # kiln's own request, which shows the newest steps only
    texts = ["\n".join(m["content"] or "" for m in x["messages"]) for x in exchanges]
    assert [n for n, text in enumerate(texts, 1) if task not in text] == []
