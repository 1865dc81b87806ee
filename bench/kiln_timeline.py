"""`kiln` as the console script runs it, with a timeline of what its sandbox did.

Run: python bench/kiln_timeline.py TREE TIMELINE_JSON kiln-arguments...
TREE is the kiln source tree to run (this checkout, or another one to compare against).
Records, relative to this process's first line: every Sandbox call, every Engine API
request (container create, start, ...), the command server's handshake, every request
sent to the server, and the detached removal; the session's own start-up beside them
(Session.start, its stable prefix, the model server's window, the test runner check, the
loop's dependencies); then the moment the process exits; and the
CPU time the container used (its cgroup's, read as the sandbox closes). Written to
TIMELINE_JSON as {"spans": [[start, end, thread, what], ...], "container_cpu_s": s};
bench/bench_timeline.py runs it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

BEGAN = time.perf_counter()
sys.path.insert(0, sys.argv[1])
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # for bench.timed_sandbox

import sandbox.factory  # noqa: E402
from agent import cli  # noqa: E402
from bench.timed_sandbox import TimedSandbox  # noqa: E402
from sandbox import engine_api, exec_channel, reaper  # noqa: E402

T = TypeVar("T")
timeline_path = sys.argv[2]
spans: list[tuple[float, float, str, str]] = []
container_cpu_s: list[float] = []


def span(what: str, started: float) -> None:
    thread = "main" if threading.current_thread() is threading.main_thread() else "thread"
    spans.append((started - BEGAN, time.perf_counter() - BEGAN, thread, what))


def traced(what: Callable[..., str], call: Callable[..., T]) -> Callable[..., T]:
    def wrapper(*args: Any, **kwargs: Any) -> T:
        started = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            span(what(*args, **kwargs), started)

    return wrapper


def api_path(_engine: Any, method: str, path: str, *_a: Any, **_k: Any) -> str:
    # Container and exec ids are long and differ every run; the endpoint's shape is what counts.
    parts = [p if len(p) < 40 else "ID" for p in path.split("?")[0].split("/")]
    return f"engine {method} {'/'.join(parts)}"


engine_api.Engine.request = traced(api_path, engine_api.Engine.request)  # type: ignore[method-assign]
engine_api.Engine.hijack = traced(  # type: ignore[method-assign]
    lambda _e, path, *_a: "engine attach " + path.split("/")[1], engine_api.Engine.hijack
)
_connect = exec_channel.ExecChannel.connect.__func__  # type: ignore[attr-defined]
exec_channel.ExecChannel.connect = classmethod(  # type: ignore[method-assign,assignment]
    traced(lambda *_a, **_k: "server handshake", _connect)
)
reaper.reap_detached = traced(lambda *_a: "removal handed off", reaper.reap_detached)
_run = exec_channel.ExecChannel.run


async def run_traced(self: Any, argv: list[str], *args: Any, **kwargs: Any) -> Any:
    started = time.perf_counter()
    try:
        return await _run(self, argv, *args, **kwargs)
    finally:
        command = argv[-1] if argv[:1] == ["bash"] else " ".join(argv)
        span("server: " + " ".join(command.split())[:70], started)


exec_channel.ExecChannel.run = run_traced  # type: ignore[method-assign]


class TracedSandbox(TimedSandbox):
    async def _timed(self, name: str, work: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        try:
            return await work()
        finally:
            span(f"Sandbox.{name}", started)

    async def close(self) -> None:
        container = getattr(self.inner, "container_id", None)
        usage = Path(f"/sys/fs/cgroup/cpuacct/docker/{container}/cpuacct.usage")  # cgroup v1
        if container and usage.exists():
            container_cpu_s.append(int(usage.read_text()) / 1e9)
        await super().close()


# The session's own start-up, side by side with the sandbox's: wrapped when kiln imports
# them (importing them here would move their import cost out of the run's own order).
SESSION_PARTS = {
    "agent.session.startup": {
        "stable_extra": "session: stable prefix (rules, skills, repo map)",
        "declared_window": "session: the model server's window",
        "start_mcp": "session: MCP servers",
        "loop_deps": "session: loop dependencies",
    },
    "agent.session.core": {"Session.start": "Session.start"},
    "agent.session.baseline": {"TestCommand.runnable": "session: test runner check"},
}


def traced_async(what: str, call: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    async def wrapper(*args: Any, **kwargs: Any) -> T:
        started = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            span(what, started)

    return wrapper


class WrapOnImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name not in SESSION_PARTS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            load(module)
            for dotted, what in SESSION_PARTS[name].items():
                owner, _, attr = dotted.rpartition(".")
                holder = getattr(module, owner) if owner else module
                setattr(holder, attr, traced_async(what, getattr(holder, attr)))

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


sys.meta_path.insert(0, WrapOnImport())
_create = sandbox.factory.create_sandbox
sandbox.factory.create_sandbox = lambda *a, **k: TracedSandbox(_create(*a, **k))  # type: ignore[assignment]


def write() -> None:
    now = time.perf_counter()
    spans.append((now - BEGAN, now - BEGAN, "main", "exit"))
    report = {"spans": sorted(spans), "container_cpu_s": sum(container_cpu_s)}
    Path(timeline_path).write_text(json.dumps(report))


_exit = os._exit


def exit_after_writing(code: int) -> None:  # `kiln run` ends with os._exit: no atexit
    write()
    _exit(code)


os._exit = exit_after_writing  # type: ignore[assignment]
sys.argv = ["kiln", *sys.argv[3:]]
code = cli.main()
write()
sys.exit(code)
