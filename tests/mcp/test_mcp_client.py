"""The MCP client against real servers: the hand-written one and the `mcp` SDK's (stdio and
streamable HTTP on 127.0.0.1); a server that crashes or hangs is one sentence; config and
trust; the approval gate per mode and per server's `allow`."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from agent import tools
from agent.approval import Decision, Mode, Verdict
from agent.errors import ConfigError
from agent.mcp.config import choose_servers, read_mcp_json
from agent.mcp.tools import McpTools
from agent.settings import trust
from agent.settings.config import McpServer, load_settings
from agent.tools.base import ToolContext
from agent.tools.gate import ApprovalGate, ApprovalStop
from tests.mcp.mcp_fixtures import HANDWRITTEN, SDK_BUILT, calls_logged, write_mcp_json
from tests.scripted import ScriptedPerson


def glossary(log: Path | None = None, **kwargs: Any) -> McpServer:
    env = {"MCP_LOG": str(log)} if log else {}
    return McpServer(command=sys.executable, args=(str(HANDWRITTEN),), env=env, **kwargs)


async def test_a_crashing_server_is_one_sentence_and_the_rest_go_on(tmp_path: Path) -> None:
    servers = {
        "glossary": glossary(),
        "units": McpServer(command=sys.executable, args=(str(SDK_BUILT),)),
    }
    mcp = await McpTools.start(servers, tmp_path, 40)
    try:
        crashed = await mcp.call("mcp__glossary__crash", {})
        assert not crashed.ok
        assert crashed.output.startswith(
            "The MCP server glossary stopped (exit code 3): glossary: asked to crash."
        )
        again = await mcp.call("mcp__glossary__lookup", {"word": "pot"})
        assert not again.ok and "stopped" in again.output
        assert (await mcp.call("mcp__units__kiln_cone", {"cone": "6"})).output == "1222 C"
    finally:
        await mcp.close()


async def test_a_hanging_server_times_out_per_call(tmp_path: Path) -> None:
    mcp = await McpTools.start({"glossary": glossary(tool_timeout_sec=0.5)}, tmp_path, 40)
    try:
        started = time.monotonic()
        hung = await mcp.call("mcp__glossary__hang", {})
        assert time.monotonic() - started < 5
        assert not hung.ok
        assert "did not answer tools/call within 0.5s" in hung.output
    finally:
        await mcp.close()


async def test_a_server_that_does_not_start_is_a_note(tmp_path: Path) -> None:
    servers = {
        "nothere": McpServer(command=str(tmp_path / "no-such-program")),
        "glossary": glossary(),
    }
    mcp = await McpTools.start(servers, tmp_path, 40)
    try:
        assert len(mcp.notes) == 1 and mcp.notes[0].startswith("MCP server nothere did not start")
        assert [s.name for s in mcp.specs] == [
            "mcp__glossary__crash", "mcp__glossary__flood", "mcp__glossary__hang",
            "mcp__glossary__lookup",
        ]  # fmt: skip
    finally:
        await mcp.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_streamable_http_with_the_sdk_server(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(SDK_BUILT), "http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        server = McpServer(url=f"http://127.0.0.1:{port}/mcp")
        mcp = await McpTools.start({"units": server}, tmp_path, 40)
        try:
            assert mcp.notes == []
            assert (await mcp.call("mcp__units__to_celsius", {"fahrenheit": 32})).output == "0.0 C"
        finally:
            await mcp.close()
    finally:
        process.terminate()
        process.wait(10)


def test_the_cap_keeps_the_first_sorted_tools_and_warns(tmp_path: Path) -> None:
    async def started() -> McpTools:
        return await McpTools.start({"glossary": glossary()}, tmp_path, 2)

    import asyncio

    mcp = asyncio.run(started())
    asyncio.run(mcp.close())
    assert [s.name for s in mcp.specs] == ["mcp__glossary__crash", "mcp__glossary__flood"]
    assert (
        "[mcp] max_tools is 2, so 2 are left out (mcp__glossary__hang, mcp__glossary__lookup)"
        in mcp.notes[0]
    )


def test_config_servers_and_one_sentence_per_bad_value(tmp_path: Path) -> None:
    settings = load_settings(
        tmp_path,
        {
            "mcp_servers.docs.command": "docs-server",
            "mcp_servers.docs.args": ["--stdio"],
            "mcp_servers.docs.env": {"TOKEN_FILE": "/x"},
            "mcp_servers.docs.allow": ["search"],
            "mcp_servers.web.url": "http://127.0.0.1:9/mcp",
        },
        env={},
    )
    assert settings.mcp_servers["docs"] == McpServer(
        command="docs-server", args=("--stdio",), env={"TOKEN_FILE": "/x"}, allow=("search",)
    )
    assert settings.mcp_servers["web"].url == "http://127.0.0.1:9/mcp"
    bad = {
        "mcp_servers.x.command": ("", "needs either `command` (a stdio server) or `url`"),
        "mcp_servers.x.url": ("ftp://h", "`url` 'ftp://h' should be an http:// or https:// URL"),
        "mcp_servers.x.tool_timeout_sec": ("soon", "'soon' should be a number"),
        "mcp_servers.a__b.command": ("c", "the name should be letters, digits, - and single _"),
    }
    for key, (value, said) in bad.items():
        extra = {"mcp_servers.x.command": "c"} if key.endswith("timeout_sec") else {}
        with pytest.raises(ConfigError, match=r"^flag: ") as err:
            load_settings(tmp_path, {**extra, key: value}, env={})
        assert said in err.value.message


def test_mcp_json_needs_trust_as_it_is(tmp_path: Path) -> None:
    write_mcp_json(tmp_path)
    settings = load_settings(tmp_path, env={})
    untrusted = choose_servers(tmp_path, settings)
    assert untrusted.servers == {} and untrusted.notes == []  # named by trust.ignored_runs:
    assert "the MCP servers glossary, units in .mcp.json" in str(trust.ignored_runs(tmp_path, {}))
    trust.trust(tmp_path)
    assert sorted(choose_servers(tmp_path, settings).servers) == ["glossary", "units"]
    assert trust.ignored_runs(tmp_path, {}) is None
    (tmp_path / ".mcp.json").write_text((tmp_path / ".mcp.json").read_text() + "\n")
    assert choose_servers(tmp_path, settings).servers == {}  # changed since: not trusted
    assert "glossary, units in .mcp.json" in str(trust.ignored_runs(tmp_path, {}))
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"s": {"type": "sse", "url": "http://h"}}}')
    with pytest.raises(ConfigError, match="is a sse server; kiln speaks stdio and streamable HTTP"):
        read_mcp_json(tmp_path / ".mcp.json")


def test_a_repositorys_kiln_toml_cannot_add_a_server_untrusted(tmp_path: Path) -> None:
    (tmp_path / ".kiln.toml").write_text('[mcp_servers.evil]\ncommand = "rm"\n')
    settings = load_settings(tmp_path, env={})
    assert settings.mcp_servers == {} and "mcp_servers.evil.command" in settings.ignored


def context(mcp: McpTools, mode: Mode, person: ScriptedPerson, tmp_path: Path) -> ToolContext:
    # MCP calls never touch the sandbox; none is started for these.
    return ToolContext(
        sandbox=None,  # type: ignore[arg-type]
        settings=load_settings(tmp_path, env={}),
        gate=ApprovalGate(person, mode),
        test_command="",
        external=mcp,
    )


async def test_every_call_asks_in_ask_and_auto_edit_unless_allowed(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    servers = {"glossary": glossary(log), "open": glossary(allow=("lookup",))}
    mcp = await McpTools.start(servers, tmp_path, 40)
    try:
        for mode in (Mode.ASK, Mode.AUTO_EDIT):
            person = ScriptedPerson(Decision(Verdict.REJECT, "not now"), Decision(Verdict.ALWAYS))
            ctx = context(mcp, mode, person, tmp_path)
            refused = await tools.call(ctx, "mcp__glossary__lookup", {"word": "a"})
            assert not refused.ok and "rejected `call mcp__glossary__lookup" in refused.output
            assert calls_logged(log) == []
            assert (await tools.call(ctx, "mcp__glossary__lookup", {"word": "b"})).ok
            assert (await tools.call(ctx, "mcp__glossary__lookup", {"word": "c"})).ok
            assert (await tools.call(ctx, "mcp__open__lookup", {"word": "d"})).ok  # allowed
            assert [r.path for r in person.asked] == ["mcp__glossary__lookup"] * 2
            log.unlink()
        person = ScriptedPerson()
        full = context(mcp, Mode.FULL_AUTO, person, tmp_path)
        assert (await tools.call(full, "mcp__glossary__lookup", {"word": "e"})).ok
        plan = context(mcp, Mode.PLAN, person, tmp_path)
        assert (
            "plan mode is read-only" in (await tools.call(plan, "mcp__glossary__lookup", {})).output
        )
        with pytest.raises(ApprovalStop):
            await tools.call(context(mcp, Mode.FAIL, person, tmp_path), "mcp__glossary__lookup", {})
        assert person.asked == []
    finally:
        await mcp.close()


async def test_a_server_that_hangs_or_dies_while_starting_is_a_note(tmp_path: Path) -> None:
    servers = {
        "mute": McpServer(
            command=sys.executable,
            args=("-c", "import time; time.sleep(60)"),
            startup_timeout_sec=0.5,
        ),
        "dying": McpServer(
            command=sys.executable, args=("-c", "import sys; sys.exit('no config')")
        ),
        "glossary": glossary(),
    }
    started = time.monotonic()
    mcp = await McpTools.start(servers, tmp_path, 40)
    try:
        assert time.monotonic() - started < 10
        assert sorted(mcp.notes) == [
            "MCP server dying did not start: The MCP server dying stopped (exit code 1): no config.",
            "MCP server mute did not start: The MCP server mute did not answer initialize within 0.5s.",
        ]
        assert {s.name.split("__")[1] for s in mcp.specs} == {"glossary"}
    finally:
        await mcp.close()


async def test_the_tool_list_does_not_depend_on_the_order_servers_come_in(tmp_path: Path) -> None:
    units = McpServer(command=sys.executable, args=(str(SDK_BUILT),))
    forward = await McpTools.start({"glossary": glossary(), "units": units}, tmp_path, 40)
    backward = await McpTools.start({"units": units, "glossary": glossary()}, tmp_path, 40)
    try:
        assert forward.specs == backward.specs
        assert [s.name for s in forward.specs] == sorted(s.name for s in forward.specs)
    finally:
        await forward.close()
        await backward.close()


async def test_an_answer_too_long_to_read_stops_the_server(tmp_path: Path) -> None:
    mcp = await McpTools.start({"glossary": glossary(tool_timeout_sec=20)}, tmp_path, 40)
    try:
        started = time.monotonic()
        flood = await mcp.call("mcp__glossary__flood", {})
        assert time.monotonic() - started < 15  # not the tool's timeout: the server was stopped
        assert not flood.ok and "The MCP server glossary stopped (exit code -9)" in flood.output
    finally:
        await mcp.close()
