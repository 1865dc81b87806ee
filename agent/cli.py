"""Entry point `kiln`. Parses arguments, then imports only the module that does the work.

Handlers are named as "module:function" and imported lazily so `kiln --help` and the
TUI's first frame never pay for the docker SDK, httpx or Textual they do not use.
Each handler takes the parsed namespace and returns an exit code.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from agent import __version__
from agent.errors import KilnError
from agent.settings.numbers import finite_number

Handler = Callable[[argparse.Namespace], int]


def _model_flags(p: argparse.ArgumentParser, repo: bool = True) -> None:
    if repo:
        p.add_argument("--repo", default=".", help="the git repository to work on (default: .)")
    p.add_argument("--base-url", help="OpenAI-compatible or Anthropic base URL (KILN_BASE_URL)")
    p.add_argument("--model", help="model name at that server (KILN_MODEL)")
    p.add_argument("--provider", choices=["openai", "anthropic", "ollama"], help="wire protocol")
    p.add_argument(
        "--effort",
        help="how hard a reasoning model thinks: low, medium, high (or the provider's own "
        "word: minimal, none, xhigh, max) (KILN_EFFORT)",
    )


def _session_flags(p: argparse.ArgumentParser, repo: bool = True) -> None:
    """Flags of every command that starts a session: the model's, and the sandbox's."""
    _model_flags(p, repo)
    p.add_argument(
        "--backend",
        choices=["docker", "bwrap", "auto"],
        help="the sandbox: docker (default; bubblewrap when no engine runs), bwrap, or auto",
    )


# Every command's name; `main` builds the arguments of the one it was given alone.
COMMANDS = frozenset((
    "run", "batch", "chat", "models", "config", "trust", "acp", "mcp", "sessions", "cost",
    "apply", "review", "undo", "map", "eval", "serve-scripted", "sandbox", "local",
))  # fmt: skip


class _OneCommand:
    """The subcommands: only `only` (all of them when it is None). This process parses
    no other, and making all of them costs every command several milliseconds."""

    def __init__(self, subparsers: Any, only: str | None) -> None:
        self.subparsers, self.only = subparsers, only

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.only not in (None, name):
            return _Unbuilt()
        return self.subparsers.add_parser(name, **kwargs)


class _Unbuilt:
    """A command's parser this process will not parse: whatever is added to it is dropped."""

    def __getattr__(self, _name: str) -> Any:
        return lambda *_args, **_kwargs: self


def _build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kiln",
        description="A terminal coding agent that works in a sandbox.",
        epilog="Docs: docs/index.md in kiln's source, a page per subject (docs/headless.md, "
        "docs/sandbox.md, docs/configuration.md...), or the site `mkdocs build` makes of it.",
    )
    _session_flags(parser)
    parser.add_argument("--version", action="version", version=f"kiln {__version__}")
    parser.add_argument("--resume", nargs="?", const="last", metavar="ID", help="reopen a session")
    parser.add_argument("--mode", choices=["plan", "ask", "auto-edit", "full-auto"])
    # The app turns the collector back on after its first frame (see tui/app.py).
    parser.set_defaults(handler="tui.app:main", collect_after_first_frame=True)
    sub = _OneCommand(parser.add_subparsers(dest="command", metavar="COMMAND"), only)

    run = sub.add_parser("run", help="run one task headless and exit")
    _session_flags(run)
    run.add_argument("task", nargs="?", help="what to do, in plain words (- reads it from stdin)")
    run.add_argument("--task-file", metavar="FILE", help="read the task from FILE")
    run.add_argument("--approval", choices=["auto-edit", "full-auto", "fail"], default="auto-edit")
    run.add_argument("--apply", action="store_true", help="write the final diff to the repository")
    run.add_argument("--patch-out", metavar="FILE", help="write the final diff to FILE")
    run.add_argument(
        "--apply-flagged",
        action="store_true",
        help="with --apply: apply even what kiln flags (files that run on your machine or "
        "steer kiln, most of the repository deleted)",
    )
    run.add_argument(
        "--apply-unverified",
        action="store_true",
        help="with --apply: apply a change that finished without evidence that it works "
        "(exit 8, `unverified`: no test that failed before passes now)",
    )
    run.add_argument("--commit", action="store_true", help="commit what --apply wrote (hooks run)")
    run.add_argument(
        "--attempts",
        type=int,
        default=1,
        metavar="N",
        help="N independent attempts in N sandboxes ([agents] max_parallel at once); the one "
        "with evidence, then the smallest diff, is kept and only its diff is applied",
    )
    run.add_argument("--max-steps", type=int)
    run.add_argument("--budget-usd", type=finite_number)
    run.add_argument("--timeout", type=finite_number, help="wall-clock limit in seconds")
    run.add_argument("--output-format", choices=["text", "json", "stream-json"], default="text")
    run.add_argument("--test-command", help="the command that runs the tests")
    run.set_defaults(handler="agent.headless.start:main", exit_at_once=True)

    batch = sub.add_parser("batch", help="run many tasks headless, in parallel, resumably")
    _session_flags(batch, repo=False)  # the model and sandbox of lines that name none
    batch.add_argument("tasks", help="the TASKS file: JSON lines (or YAML), one task each")
    batch.add_argument("--out", required=True, metavar="DIR", help="results, patches, preds.json")
    batch.add_argument("--jobs", type=int, help="tasks at once (local default 1)")
    batch.add_argument(
        "--budget-usd", type=finite_number, help="start no task once the batch spent this"
    )
    batch.add_argument(
        "--retries", type=int, default=2, help="more attempts after a sandbox or model failure"
    )
    batch.add_argument("--max-steps", type=int, help="per task, unless its line says")
    batch.add_argument(
        "--timeout", type=finite_number, help="per task wall clock, unless its line says"
    )
    batch.add_argument(
        "--apply", action="store_true", help="write each solved task's diff to its repo"
    )
    batch.add_argument("--engine", choices=["local", "ray"], default="local")
    batch.add_argument("--address", help="the Ray cluster (default: RAY_ADDRESS, or a local one)")
    batch.add_argument("--output-format", choices=["text", "json"], default="text")
    batch.set_defaults(handler="agent.batch.cli:main")

    chat = sub.add_parser("chat", help="interactive session")
    _session_flags(chat)
    chat.add_argument(
        "--plain", action="store_true", help="line mode instead of the full-screen app"
    )
    chat.add_argument("--resume", nargs="?", const="last", metavar="ID")
    chat.add_argument("--mode", choices=["plan", "ask", "auto-edit", "full-auto"])
    chat.set_defaults(handler="tui.chat:main", collect_after_first_frame=True)

    models = sub.add_parser("models", help="list model profiles and local servers")
    _model_flags(models)
    models.set_defaults(handler="agent.settings.models_cli:main")

    config = sub.add_parser("config", help="show the effective settings")
    config.add_argument("action", choices=["show"])
    _session_flags(config)
    config.set_defaults(handler="agent.config_cli:main")

    trusted = sub.add_parser(
        "trust", help="honour a repository's .kiln.toml and start its .mcp.json servers"
    )
    trusted.add_argument("path", nargs="?", default=".", help="the repository (default: .)")
    trusted.add_argument(
        "--hooks-on-host",
        action="store_true",
        help="run its hooks on your machine, not in a sandbox (until kiln next applies here)",
    )
    trusted.set_defaults(handler="agent.settings.trust:main")

    agent_protocol = sub.add_parser(
        "acp", help="serve the Agent Client Protocol on stdio (Zed, Toad)"
    )
    _session_flags(agent_protocol)
    agent_protocol.add_argument("--mode", choices=["plan", "ask", "auto-edit", "full-auto"])
    agent_protocol.set_defaults(handler="agent.acp.cli:main")

    mcp = sub.add_parser("mcp", help="the MCP servers kiln uses")
    mcp.add_argument("action", choices=["list"])
    mcp.add_argument("--repo", default=".", help="the git repository (default: .)")
    mcp.set_defaults(handler="agent.mcp.cli:main")

    sessions = sub.add_parser("sessions", help="stored sessions")
    sessions.add_argument("action", choices=["list", "show", "export"])
    sessions.add_argument("id", nargs="?")
    sessions.add_argument(
        "--requests", action="store_true", help="show: every model request, whole"
    )
    sessions.set_defaults(handler="agent.store.cli:main")

    cost = sub.add_parser("cost", help="what a stored session cost, per step and per model")
    cost.add_argument("--session", metavar="ID", help="a session id, a prefix or 'last' (default)")
    cost.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    cost.set_defaults(handler="agent.cost.cli:main")

    apply = sub.add_parser("apply", help="write a stored session's changes to its repository")
    apply.add_argument("session", help="a session id (or a unique prefix, or 'last')")
    apply.add_argument(
        "--3way", dest="three_way", action="store_true", help="merge over your own edits"
    )
    apply.add_argument(
        "--yes",
        action="store_true",
        help="apply what kiln flags without asking (files that "
        "run on your machine or steer kiln, most of the repository deleted)",
    )
    apply.set_defaults(handler="agent.vcs.apply_cli:main")

    review = sub.add_parser("review", help="review a commit, a range or your changes")
    _model_flags(review)
    review.add_argument(
        "--backend", choices=["docker", "bwrap", "auto"], help="the sandbox of --run-tests, --fix"
    )
    from agent.review.flags import add_arguments as review_arguments

    review_arguments(review)
    review.set_defaults(handler="agent.cli:review")

    undo = sub.add_parser("undo", help="take back the last change kiln applied (or committed)")
    undo.add_argument("--repo", default=".", help="the git repository (default: .)")
    undo.set_defaults(handler="agent.vcs.undo:main")

    repo_map = sub.add_parser("map", help="print the repo map: the definitions that matter")
    repo_map.add_argument("path", nargs="?", default=".", help="the repository (default: .)")
    repo_map.add_argument("--tokens", type=int, default=1500, help="the budget (default 1500)")
    repo_map.add_argument(
        "--focus", nargs="+", metavar="FILE", help="files (or names) to rank the map towards"
    )
    repo_map.set_defaults(handler="agent.context.map_cli:main")

    evaluate = sub.add_parser("eval", help="run an evaluation set N times; solved per task")
    evaluate.add_argument("dir", help="a folder of tasks, or of splits (e.g. bench/eval)")
    evaluate.add_argument("--runs", type=int, default=1, help="runs per task (default 1)")
    evaluate.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    evaluate.add_argument("--out", metavar="FILE", help="also write the JSON lines to FILE")
    evaluate.add_argument(
        "--timeout", type=finite_number, help="seconds per run (default: kiln run's own wall clock)"
    )
    evaluate.add_argument("--only", metavar="NAME,...", help="only these tasks (folder names)")
    evaluate.add_argument(
        "--exclude-from", metavar="DIR", help="leave out the tasks whose names are tasks in DIR"
    )
    evaluate.add_argument(
        "--sample", type=int, metavar="N", help="a random N tasks of each split (all if fewer)"
    )
    evaluate.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    evaluate.add_argument("--base-url", help="as for kiln run (default: kiln's own choice)")
    evaluate.add_argument("--model", help="as for kiln run")
    evaluate.add_argument("--provider", choices=["openai", "anthropic"])
    evaluate.add_argument("--backend", choices=["docker", "bwrap", "auto"])
    evaluate.set_defaults(handler="agent.local.evaluate:main")

    scripted = sub.add_parser("serve-scripted", help="serve a scripted model on 127.0.0.1")
    scripted.add_argument("script", help="a JSON script of turns")
    scripted.add_argument("--port", type=int, default=0)
    scripted.set_defaults(handler="agent.llm.scripted.cli:main")

    sandbox = sub.add_parser("sandbox", help="the sandbox: doctor, run, build, bootstrap, prune")
    sandbox.set_defaults(handler="sandbox.cli:main")
    sandbox_sub = sandbox.add_subparsers(dest="sandbox_command", metavar="ACTION", required=True)
    sandbox_sub.add_parser("doctor", help="check the engine, the image and a container")
    srun = sandbox_sub.add_parser("run", help="run one command in a fresh sandbox over a copy")
    srun.add_argument("--repo", default=".")
    srun.add_argument("--timeout", type=finite_number, default=120.0)
    srun.add_argument("--backend", choices=["docker", "bwrap", "auto"])
    srun.add_argument("cmd", nargs=argparse.REMAINDER)
    build = sandbox_sub.add_parser("build", help="build the sandbox image from a Dockerfile")
    build.add_argument("--base", help="base image for the default Dockerfile")
    build.add_argument("--repo", default=".")
    build.add_argument("--tag")
    boot = sandbox_sub.add_parser("bootstrap", help="build a base image with no registry")
    boot.add_argument("--tag")
    boot.add_argument("--suite", default="bookworm")
    boot.add_argument(
        "--with", dest="with_", metavar="go,rust", help="more toolchains for the image"
    )
    sprune = sandbox_sub.add_parser("prune", help="remove sandboxes left behind by a crash")
    sprune.add_argument("--all", action="store_true", help="also those of running sessions")

    local = sub.add_parser("local", help="the embedded local model")
    local.set_defaults(handler="agent.local.cli:main")
    local_sub = local.add_subparsers(dest="local_command", metavar="ACTION", required=True)
    install = local_sub.add_parser("install", help="install the runtime and the weights")
    install.add_argument(
        "--model",
        default="qwen2.5-coder-1.5b",
        choices=["qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"],
    )
    serve = local_sub.add_parser("serve", help="start the local server")
    serve.add_argument(
        "--model", default=None, choices=["qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"]
    )
    local_sub.add_parser("status", help="is the local server running?")
    local_sub.add_parser("stop", help="stop the local server")
    return parser


def review(args: argparse.Namespace) -> int:
    """`kiln review`, handed `kiln run`'s runner for `--fix`: one front end never imports
    another."""
    from agent.headless.run import run_headless
    from agent.review.cli import main as review_main

    return review_main(args, run_task=run_headless)


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    only = words[0] if words and words[0] in COMMANDS else None
    args = _build_parser(only).parse_args(argv)
    code = _dispatch(args)
    if argv is None and getattr(args, "exit_at_once", False):
        # The program `kiln run` has written and closed all it keeps (the store commits
        # every row); tearing the interpreter down (a full garbage collection, every
        # module) would only make the person wait a tenth of a second for nothing.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _dispatch(args: argparse.Namespace) -> int:
    module_name, _, func_name = args.handler.partition(":")
    if getattr(args, "collect_after_first_frame", False):
        # Startup allocates a great deal that lives as long as the app; collecting it on
        # the way only delays the first frame (about 20 ms of 300 measured).
        gc.disable()
    try:
        _settle_interrupted_apply(args)
        handler: Handler = getattr(importlib.import_module(module_name), func_name)
        return handler(args)
    except KilnError as exc:
        print(f"kiln: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("kiln: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader left (`kiln sessions list | head`): what it did not read is not
        # wanted. Point stdout at /dev/null so the flush at exit cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a reader gone


def _settle_interrupted_apply(args: argparse.Namespace) -> None:
    """An apply kiln was killed in the middle of is finished or rolled back before any
    command works in its repository; when there is none, this costs a stat or two."""
    from agent.vcs.interrupted import journal_in

    start = getattr(args, "repo", None) or getattr(args, "path", None) or "."
    repo = journal_in(str(start))
    if repo is not None:
        from pathlib import Path

        from agent.vcs.apply_cli import settle_interrupted

        settle_interrupted(Path(repo))


if __name__ == "__main__":
    sys.exit(main())
