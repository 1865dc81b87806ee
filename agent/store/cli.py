"""`kiln sessions list | show ID [--requests] | export ID`: the stored sessions, for people
and scripts. `--requests` prints every model request whole: each message as it was sent,
the tool schemas' names, and the reply."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any

from agent.errors import UsageError
from agent.present import cost_text, escape_controls
from agent.store.db import SessionRow, Store


def _say(text: object = "", *, one_line: bool = False) -> None:
    """Print what a session stored: its task, the model's words, a tool's output are not
    kiln's own, and a control character in them would reach the terminal."""
    print(escape_controls(str(text), one_line=one_line))


def _when(ts: float) -> str:
    return datetime.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


def main(args: argparse.Namespace) -> int:
    store = Store()
    try:
        if args.action == "list":
            return _list(store)
        if not args.id:
            raise UsageError(f"`kiln sessions {args.action}` needs a session id (or 'last').")
        row = store.find(args.id)
        if row is None:
            raise UsageError(
                f"No single stored session matches {args.id!r}; see `kiln sessions list`."
            )
        if args.action == "export":
            return _export(store, row)
        if getattr(args, "requests", False):
            return _show_requests(store, row)
        return _show(store, row)
    finally:
        store.close()


def _list(store: Store) -> int:
    rows = store.sessions()
    if not rows:
        _say("No sessions stored yet.")
        return 0
    width = max(len("status"), *(len(row.outcome) for row in rows))
    _say(
        f"{'id':<12}  {'updated':<16}  {'status':<{width}}  {'steps':>5}  {'tokens':>8}  "
        f"{'repository':<{REPO_WIDTH}}  task"
    )
    for row in rows:
        _say(
            f"{row.id:<12}  {_when(row.updated):<16}  {row.outcome:<{width}}  "
            f"{row.steps:>5}  {row.tokens:>8}  {_short_repo(row.repo):<{REPO_WIDTH}}  "
            f"{row.title[:60]}",
            one_line=True,
        )
    return 0


REPO_WIDTH = 28


def _short_repo(repo: str) -> str:
    """The repository as the person would type it (~ for home), its end kept when long:
    the folder's name tells repositories apart, its parents seldom do."""
    home = str(Path.home())
    if repo == home or repo.startswith(home + "/"):
        repo = "~" + repo[len(home) :]
    return repo if len(repo) <= REPO_WIDTH else "…" + repo[-(REPO_WIDTH - 1) :]


def _show(store: Store, row: SessionRow) -> int:
    _say(f"session   {row.id}")
    _say(f"repo      {row.repo}")
    _say(f"model     {row.model}   mode {row.mode}")
    _say(f"task      {row.title}")
    _say(f"status    {row.outcome} ({row.stop_reason or '-'}), {row.steps} steps")
    _say(f"usage     {row.tokens} tokens, {cost_text(row.cost_usd, 0)}")
    requests = store.requests(row.id)
    if requests:
        cached = sum(r["cached"] for r in requests)
        prompt = sum(r["uncached"] + r["cached"] + r["cache_write"] for r in requests)
        ttfts = [r["ttft_s"] for r in requests if r["ttft_s"] is not None]
        line = (
            f"requests  {len(requests)}, {cached / prompt:.0%} of prompt tokens cached"
            if prompt
            else f"requests  {len(requests)}"
        )
        if ttfts:
            line += f", median time to first token {sorted(ttfts)[len(ttfts) // 2]:.2f}s"
        _say(line)
    _say()
    for event in store.events(row.id):
        kind = event["type"]
        if kind == "tool_call_started":
            _say(f"  → {event['name']} {json.dumps(event['arguments'])[:100]}")
        elif kind == "tool_call_finished" and not event["ok"]:
            _say(
                f"    ✗ {event['output'].strip().splitlines()[0][:100] if event['output'].strip() else ''}"
            )
        elif kind == "assistant_message":
            _say(f"  model: {event['text'].strip()[:200]}")
        elif kind == "tests_ran":
            _say(
                f"  tests: {event['passed']} passed, {event['failed']} failed, {event['errors']} errors"
            )
        elif kind == "subagent_started":
            _say(f"  agent {event['name']} ({event['agent_id']}) started: {event['task'][:160]}")
        elif kind == "subagent_finished":
            said = " ".join(str(event["summary"]).split())[:160]
            _say(f"  agent {event['name']} ({event['agent_id']}) {event['status']}: {said}")
        elif kind == "finished":
            _say(f"  finished: {event['status']} ({event['stop_reason']}) {event['summary'][:200]}")
    return 0


def _show_requests(store: Store, row: SessionRow) -> int:
    """Exactly what the model saw at each request, and what it answered."""
    _say(f"session {row.id}  {row.title[:60]}", one_line=True)
    for number, (request, exchange) in enumerate(
        zip(store.requests(row.id), store.exchanges(row.id), strict=True), 1
    ):
        cost = cost_text(request["cost_usd"] if request["model"] else None, 0)
        _say(
            f"\n=== request {number} · step {request['step'] or '-'} · {request['role'] or 'main'}"
            f" · {request['model'] or '(model not recorded)'} · {request['uncached']} uncached,"
            f" {request['cached']} cached, {request['cache_write']} cache-write in,"
            f" {request['output']} out · {cost}"
        )
        if exchange["messages"] is None:
            _say("(stored before kiln kept each request's messages)")
            continue
        tools = exchange["tools"] or []
        _say(f"--- tools ({len(tools)}): {', '.join(t['name'] for t in tools) or '(none)'}")
        for index, message in enumerate(exchange["messages"], 1):
            _print_message(f"{index} {message['role']}", message)
        if exchange["reply"] is not None:
            _print_message("reply", exchange["reply"])
    return 0


def _print_message(head: str, message: dict[str, Any]) -> None:
    extra = f" (result of {message['tool_call_id']})" if message.get("tool_call_id") else ""
    _say(f"--- [{head}]{extra}")
    if message.get("content"):
        _say(message["content"])
    for call in message.get("tool_calls") or []:
        _say(f"→ {call['name']} {json.dumps(call['arguments'])} (id {call['id']})")


def _export(store: Store, row: SessionRow) -> int:
    """JSON lines: every stored event, then every model request."""
    for event in store.events(row.id):
        sys.stdout.write(json.dumps(event) + "\n")
    for request in store.requests(row.id):
        sys.stdout.write(json.dumps({"type": "request", **request}) + "\n")
    return 0
