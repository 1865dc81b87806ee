"""The bubblewrap backend runs the host's binaries, never the image's, so kiln starts no
language server there: one notice, then edits go on without diagnostics."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agent.events import Event, Notice
from agent.lsp.servers import NO_ATTACHING, LanguageServers
from agent.lsp.specs import session_servers
from agent.settings.config import load_settings
from tests.conftest import make_git_repo


async def test_bubblewrap_has_no_servers_and_says_so_once(tmp_path: Path) -> None:
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    from sandbox.bwrap_backend import BwrapSandbox

    repo = make_git_repo(tmp_path / "repo", {"a.py": "x = 1\n", "b.ts": "let y = 2;\n"})
    sandbox = BwrapSandbox(repo, load_settings(repo, env={}).sandbox)
    servers = LanguageServers(sandbox, session_servers({}))
    notices: list[Event] = []
    assert await servers.check_edit(sandbox, "a.py", "x = 1\n", "x = oops\n", notices.append) == ""
    assert (
        await servers.check_edit(sandbox, "b.ts", "", "let y: number = 'z';\n", notices.append)
        == ""
    )
    assert [n.message for n in notices if isinstance(n, Notice)] == [NO_ATTACHING]
