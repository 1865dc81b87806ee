"""`kiln sessions list | show ID | export ID`: the stored sessions, for people and scripts."""

from __future__ import annotations

import argparse
import datetime
import json
import sys

from agent.errors import UsageError
from agent.store.db import SessionRow, Store


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
        return _show(store, row) if args.action == "show" else _export(store, row)
    finally:
        store.close()


def _list(store: Store) -> int:
    rows = store.sessions()
    if not rows:
        print("No sessions stored yet.")
        return 0
    print(f"{'id':<12}  {'updated':<16}  {'status':<9}  {'steps':>5}  {'tokens':>8}  task")
    for row in rows:
        print(
            f"{row.id:<12}  {_when(row.updated):<16}  {row.status or 'open':<9}  "
            f"{row.steps:>5}  {row.tokens:>8}  {row.title[:60]}"
        )
    return 0


def _show(store: Store, row: SessionRow) -> int:
    print(f"session   {row.id}")
    print(f"repo      {row.repo}")
    print(f"model     {row.model}   mode {row.mode}")
    print(f"task      {row.title}")
    print(f"status    {row.status or 'open'} ({row.stop_reason or '-'}), {row.steps} steps")
    print(f"usage     {row.tokens} tokens, ${row.cost_usd:.4f}")
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
        print(line)
    print()
    for event in store.events(row.id):
        kind = event["type"]
        if kind == "tool_call_started":
            print(f"  → {event['name']} {json.dumps(event['arguments'])[:100]}")
        elif kind == "tool_call_finished" and not event["ok"]:
            print(
                f"    ✗ {event['output'].strip().splitlines()[0][:100] if event['output'].strip() else ''}"
            )
        elif kind == "assistant_message":
            print(f"  model: {event['text'].strip()[:200]}")
        elif kind == "tests_ran":
            print(
                f"  tests: {event['passed']} passed, {event['failed']} failed, {event['errors']} errors"
            )
        elif kind == "finished":
            print(
                f"  finished: {event['status']} ({event['stop_reason']}) {event['summary'][:200]}"
            )
    return 0


def _export(store: Store, row: SessionRow) -> int:
    """JSON lines: every stored event, then every model request."""
    for event in store.events(row.id):
        sys.stdout.write(json.dumps(event) + "\n")
    for request in store.requests(row.id):
        sys.stdout.write(json.dumps({"type": "request", **request}) + "\n")
    return 0
