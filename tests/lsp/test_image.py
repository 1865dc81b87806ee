"""The image `kiln sandbox bootstrap` builds holds every language server package at its pin
(sandbox/language_servers.py), so a session needs no network to start one."""

from __future__ import annotations

from sandbox.base import Sandbox
from sandbox.language_servers import DEFAULTS, NPM_PACKAGES


async def test_the_image_has_each_server_at_its_pinned_version(sandbox: Sandbox) -> None:
    listed = await sandbox.exec("npm ls --global --depth=0 --parseable --long", timeout=60)
    installed = {line.rsplit(":", 2)[1] for line in listed.output.splitlines() if ":" in line}
    assert set(NPM_PACKAGES) <= installed, listed.output
    found = await sandbox.exec(
        " && ".join(f"command -v {server.command[0]}" for server in DEFAULTS), timeout=30
    )
    assert found.exit_code == 0, found.output
