"""A Docker sandbox without a network must have none, on the real engine: loopback alone, or
it never runs a command."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sandbox import container_spec
from sandbox.base import SandboxError
from sandbox.common import WorkspaceSandbox

MakeSandbox = Callable[..., WorkspaceSandbox]


def with_host_network(spec: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """An engine that ignores `--network none`: the container shares the host's interfaces
    (nothing is sent anywhere; no network is created)."""

    def spec_on_host_network(**kwargs: Any) -> dict[str, Any]:
        made = spec(**kwargs)
        made.pop("NetworkDisabled", None)
        made["HostConfig"]["NetworkMode"] = "host"
        return made

    return spec_on_host_network


@pytest.mark.docker
@pytest.mark.parametrize("backend", ["docker", "docker-plain"])
async def test_a_container_with_more_than_loopback_is_refused(
    repo: Path, make_sandbox: MakeSandbox, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """The command server names the interfaces it sees as it starts; without it, a command
    looks. Either way a container with any interface but loopback never runs a command."""
    if sorted(p.name for p in Path("/sys/class/net").iterdir()) == ["lo"]:
        pytest.fail("this host has loopback alone, so its network cannot show the check")
    monkeypatch.setattr(
        container_spec, "container_spec", with_host_network(container_spec.container_spec)
    )
    sandbox = make_sandbox(repo, backend)
    with pytest.raises(SandboxError, match="network interfaces besides loopback"):
        await sandbox.start()
