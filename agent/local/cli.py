"""`kiln local install|serve|status|stop`."""

from __future__ import annotations

import argparse
import sys
import time

from agent.local.catalog import MODELS
from agent.local.install import install_steps, spec_for
from agent.local.weights import is_weights_installed


def main(args: argparse.Namespace) -> int:
    action = args.local_command
    if action == "install":
        return _install(args.model)
    if action == "serve":
        return _serve(args.model)
    if action == "status":
        return _status()
    return _stop()


def _install(name: str) -> int:
    from rich.console import Console

    console = Console(stderr=True, highlight=False)
    started = time.monotonic()
    steps = install_steps(name)
    if not console.is_terminal:
        for step in steps:
            if not step.detail:
                print(step.message, file=sys.stderr, flush=True)
        return 0
    # A spinner with the elapsed time and the newest log line, so a long build looks alive.
    with console.status("") as status:
        for step in steps:
            elapsed = time.monotonic() - started
            if step.detail:
                status.update(f"[dim]{elapsed:5.0f}s[/] {_fit(step.message, console.width - 12)}")
            else:
                console.print(f"[bold]✓[/] {step.message}")
                status.update(f"[dim]{elapsed:5.0f}s[/]")
    console.print(f"done in {time.monotonic() - started:.0f}s")
    return 0


def _fit(text: str, width: int) -> str:
    from rich.markup import escape

    return escape(text if len(text) <= width else "…" + text[-(width - 1) :])


def _serve(name: str | None) -> int:
    from agent import local
    from agent.local.server import ensure_serving

    spec = spec_for(name) if name else local.installed_model()
    if spec is None:
        raise local.LocalModelError(f"No local model is installed; {local.INSTALL_HINT}.")
    state = ensure_serving(spec)
    print(f"serving {state.model} at {state.base_url} (pid {state.pid}, log {state.log})")
    return 0


def _status() -> int:
    from agent.local.server import answers, read_state

    state = read_state()
    if state is None:
        installed = [n for n, s in MODELS.items() if is_weights_installed(s)]
        print(f"not running; installed models: {', '.join(installed) or 'none'}")
        return 1
    uptime = int(time.time() - state.started_at)
    health = "answers" if answers(state) else "does not answer"
    print(
        f"running: pid {state.pid}, port {state.port}, model {state.model}, "
        f"up {uptime // 3600}h{uptime // 60 % 60:02d}m{uptime % 60:02d}s, "
        f"{state.base_url}/models {health}; log {state.log}"
    )
    return 0 if health == "answers" else 1


def _stop() -> int:
    from agent.local.server import read_state, stop_server

    state = read_state()
    if state is None:
        print("the local server is not running")
        return 0
    stop_server(state)
    print(f"stopped the local server (pid {state.pid})")
    return 0
