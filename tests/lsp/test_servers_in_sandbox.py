"""The language servers in a real Docker sandbox: pyright and typescript-language-server
from the image, a push-only server of the tests' own, a missing one. One sandbox (and
one set of warm servers) for the module."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from agent import tools
from agent.events import Event, Notice
from agent.lsp.servers import MAX_RESTARTS, LanguageServers
from agent.lsp.specs import session_servers
from agent.settings.config import LspServer, load_settings
from sandbox.base import Sandbox
from sandbox.factory import create_sandbox
from tests.conftest import make_git_repo, require_docker
from tests.sandbox.conftest import PROCESS_LINES, until
from tests.scripted import tool_context

pytestmark = [pytest.mark.docker, pytest.mark.asyncio(loop_scope="module")]

CALC = (
    "def total(values, start):\n"
    "    return sum(values) + start\n"
    "\n"
    "\n"
    "def check(x):\n"
    "    x == 2  # a warning pyright gives before any edit: the expression is unused\n"
    "    return x\n"
)
MAIN = "from calc import total\n\nprint(total([1, 2], 0))\n"
LIB = "export function twice(n: number): number {\n  return n * 2;\n}\n"
USE = "import { twice } from './lib';\n\nconsole.log(twice(2));\n"
OTHER = "def total():\n    return 0\n"
PUSH = (Path(__file__).with_name("push_server.py")).read_text()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def box(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Sandbox]:
    require_docker()
    repo = make_git_repo(
        tmp_path_factory.mktemp("lsp") / "repo",
        {
            "calc.py": CALC,
            "main.py": MAIN,
            "lib.ts": LIB,
            "use.ts": USE,
            "push_server.py": PUSH,
            # A namesake of calc.total, used elsewhere: the repo map cannot tell them apart.
            "other.py": OTHER,
            "use_other.py": "from other import total\n\ntotal()\n",
        },
    )
    sandbox = create_sandbox(repo, load_settings(repo, env={}).sandbox)
    await sandbox.start()
    try:
        yield sandbox
    finally:
        await sandbox.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def servers(box: Sandbox) -> AsyncIterator[LanguageServers]:
    configured = {
        "fixmes": LspServer(command=("python3", "push_server.py"), extensions=(".fix",)),
        "ghost": LspServer(command=("kiln-no-such-server", "--stdio"), extensions=(".zz",)),
    }
    started = LanguageServers(box, session_servers(configured))
    yield started
    await started.close()


async def edit(
    servers: LanguageServers, path: str, before: str | None, after: str
) -> tuple[str, list[Event]]:
    """Write `after` as the edit tools do, then ask the servers what it introduced."""
    notices: list[Event] = []
    await servers.sandbox.write_file(path, after.encode())
    said = await servers.check_edit(servers.sandbox, path, before, after, notices.append)
    # An edit made while its server starts is checked in the background: said once it ends.
    said = said or (await servers.settled()).partition("\n")[2]
    await servers.sandbox.write_file(path, (before or "").encode())  # the next test's start
    return said, notices


async def test_a_python_edit_hears_its_own_errors_and_its_importers_not_the_old_warning(
    servers: LanguageServers,
) -> None:
    broken = CALC.replace("def total(values, start):", "\n\ndef total(values):").replace(
        "sum(values) + start", "sum(valuse)"
    )
    said, notices = await edit(servers, "calc.py", CALC, broken)
    assert notices == []
    assert '"valuse" is not defined' in said and "reportUndefinedVariable" in said
    assert "main.py:3:" in said and "Expected 1 positional argument" in said
    assert said.splitlines()[0].startswith("pyright-langserver reports")
    assert "not accessed" not in said and "is unused" not in said  # there before, lines moved
    # The warning is pyright's to give: a new file holding it hears of it.
    fresh, _ = await edit(servers, "fresh.py", None, CALC)
    assert "Expression value is unused" in fresh and "warning" in fresh


async def test_a_typescript_type_error_is_told_and_moved_lines_are_not(
    servers: LanguageServers,
) -> None:
    said, notices = await edit(servers, "lib.ts", LIB, LIB + "const count: number = 'three';\n")
    assert notices == []
    assert "lib.ts:4:7: error: Type 'string' is not assignable to type 'number'. [2322]" in said
    moved, _ = await edit(servers, "lib.ts", LIB, "\n\n" + LIB)
    assert moved == ""
    widened, _ = await edit(
        servers, "lib.ts", LIB, LIB.replace("(n: number)", "(n: number, m: number)")
    )
    assert "use.ts:3:13: error: Expected 2 arguments, but got 1." in widened


async def test_commands_and_their_stray_sweep_leave_the_servers_running(
    servers: LanguageServers,
) -> None:
    await edit(servers, "calc.py", CALC, CALC + "\n")  # started, if no test before did
    result = await servers.sandbox.exec("sleep 0.1; echo done", timeout=30)
    assert result.output.strip() == "done" and not result.notes
    listed = await servers.sandbox.exec("ps -eo args | grep -c '[p]yright-langserver'", timeout=30)
    assert int(listed.output.strip() or 0) >= 1
    said, notices = await edit(servers, "calc.py", CALC, CALC + "oops\n")
    assert '"oops" is not defined' in said and notices == []


async def test_a_server_that_only_publishes_is_waited_for(servers: LanguageServers) -> None:
    said, notices = await edit(servers, "notes.fix", "fine\n", "fine\nFIXME later\n")
    assert notices == []
    assert said.splitlines()[1:] == ["notes.fix:2:1: error: FIXME left in [fixme]"]
    unchanged, _ = await edit(servers, "notes.fix", "FIXME a\n", "\nFIXME a\n")
    assert unchanged == ""


async def test_a_missing_server_costs_one_notice_and_edits_go_on(servers: LanguageServers) -> None:
    first, notices = await edit(servers, "a.zz", None, "x\n")
    second, more = await edit(servers, "b.zz", None, "y\n")
    assert first == second == ""
    assert [type(n) for n in notices] == [Notice] and more == []
    assert (
        "ghost language server (kiln-no-such-server) is not in the sandbox image"
        in notices[0].message
    )  # type: ignore[attr-defined]


async def test_a_slow_server_costs_one_notice_and_is_asked_again_later(box: Sandbox) -> None:
    configured = {"fixmes": LspServer(command=("python3", "push_server.py"), extensions=(".fix",))}
    servers = LanguageServers(box, session_servers(configured), timeout_s=0.5)
    try:
        await edit(servers, "slow.fix", None, "warm\n")  # started, and its first file seen
        said, notices = await edit(servers, "slow.fix", "warm\n", "SLOW FIXME\n")
        assert said == "" and len(notices) == 1
        assert "gave no answer within 0.5 s of an edit" in notices[0].message  # type: ignore[attr-defined]
        await asyncio.sleep(1.5)  # it answers at last
        said, more = await edit(servers, "slow.fix", "SLOW FIXME\n", "FIXME a\nFIXME b\n")
        assert more == [] and said.splitlines()[1:] == [
            "slow.fix:2:1: error: FIXME left in [fixme]"
        ]
    finally:
        await servers.close()


async def test_find_symbol_says_where_a_definition_is_used_and_not_its_namesakes(
    servers: LanguageServers,
) -> None:
    # A read starts no server: before any edit of its language, no word from one.
    cold = LanguageServers(servers.sandbox, session_servers({}))
    context = dataclasses.replace(tool_context(servers.sandbox), language_servers=cold)
    assert "used at" not in (await tools.call(context, "find_symbol", {"name": "total"})).output
    assert cold.running() == {}
    await edit(servers, "calc.py", CALC, CALC + "\n")  # an edit has started it
    context = dataclasses.replace(tool_context(servers.sandbox), language_servers=servers)
    found = await tools.call(context, "find_symbol", {"name": "total"})
    calc, other = found.output.split("\n\n")[:2]
    assert (
        calc.startswith("calc.py:1-2 function total") and "[used at: main.py:1, main.py:3]" in calc
    )
    assert (
        other.startswith("other.py:1-2 function total")
        and "[used at: use_other.py:1, use_other.py:3]" in other
    )


async def test_imports_resolve_against_what_the_sandbox_has_installed(
    servers: LanguageServers,
) -> None:
    """pytest is in the image (not necessarily on the host running kiln): pyright, running
    in the sandbox, resolves it there; a module installed nowhere is told."""
    said, _ = await edit(
        servers, "calc.py", CALC, "import pytest\nimport kiln_nowhere_mod\n" + CALC
    )
    assert 'Import "kiln_nowhere_mod" could not be resolved' in said
    assert "pytest" not in said


async def test_a_container_gone_before_the_start_costs_one_notice_not_the_edit(
    sandbox: Sandbox,
) -> None:
    engine, container = sandbox.client, sandbox.container_id  # type: ignore[attr-defined]
    await asyncio.to_thread(engine.remove_container, container)
    servers = LanguageServers(sandbox, session_servers({}))
    notices: list[Event] = []
    said = await servers.check_edit(sandbox, "calc.py", "x = 1\n", "x = y\n", notices.append)
    assert said == "" and await servers.settled() == "" and len(notices) == 1
    assert "stopped (the sandbox's container is gone)" in notices[0].message  # type: ignore[attr-defined]


async def test_a_cold_server_starts_once_the_steps_own_checks_are_done(box: Sandbox) -> None:
    """The tests after an edit are what the run waits for: a server's start does not take
    the sandbox's CPUs from them, it begins once the step lets go (`holding()`)."""
    configured = {"fixmes": LspServer(command=("python3", "push_server.py"), extensions=(".fix",))}
    servers = LanguageServers(box, session_servers(configured))
    notices: list[Event] = []
    try:
        with servers.holding():
            await box.write_file("held.fix", b"FIXME held\n")
            said = await servers.check_edit(box, "held.fix", None, "FIXME held\n", notices.append)
            await asyncio.sleep(1.0)  # long enough for the push server to start and answer
            assert said == "" and servers.running() == {}  # not started while held
        assert "held.fix:1:1: error: FIXME left in [fixme]" in await servers.settled()
        assert set(servers.running()) == {"fixmes"} and notices == []
    finally:
        await servers.close()
        await box.write_file("held.fix", b"")


async def test_closing_the_servers_ends_a_start_still_under_way(box: Sandbox) -> None:
    """A server that has not answered `initialize` yet (this one never reads its input)
    is killed when the session lets go of its servers, not left to run on."""
    configured = {"mute": LspServer(command=("sleep", "309"), extensions=(".mute",))}
    servers = LanguageServers(box, session_servers(configured))
    said = await servers.check_edit(box, "a.mute", None, "x\n", [].append)
    assert said == ""  # cold: checked in the background
    count = f"{PROCESS_LINES} | grep -c '^sleep 30''9 ' || true"  # split: not itself

    async def running(expected: str) -> bool:
        return (await box.exec(count)).output.strip() == expected

    await until(lambda: running("1"), 5)
    await servers.close()
    await until(lambda: running("0"), 5)


async def test_a_crashed_server_starts_again_at_the_next_edit_a_few_times(box: Sandbox) -> None:
    configured = {"fixmes": LspServer(command=("python3", "push_server.py"), extensions=(".fix",))}
    servers = LanguageServers(box, session_servers(configured))
    told: list[Event] = []
    try:
        await edit(servers, "crash.fix", None, "warm\n")
        for _ in range(MAX_RESTARTS):
            said, notices = await edit(servers, "crash.fix", "warm\n", "CRASH\n")
            back, more = await edit(servers, "crash.fix", "warm\n", "FIXME back\n")
            assert said == "" and back.splitlines()[1:] == [
                "crash.fix:1:1: error: FIXME left in [fixme]"
            ]
            told += notices + more
        _, crashed = await edit(servers, "crash.fix", "warm\n", "CRASH\n")  # once too often
        gone, last = await edit(servers, "crash.fix", "warm\n", "FIXME still\n")
        assert gone == "" and servers.running() == {}  # let go: not started again
        told += crashed + last
    finally:
        await servers.close()
        await box.write_file("crash.fix", b"")
    messages = [n.message for n in told if isinstance(n, Notice)]
    assert len(messages) == 2, messages
    assert "stopped (crashed on purpose); kiln starts it again" in messages[0]
    assert "stopped (crashed on purpose); edits go on without" in messages[1]
