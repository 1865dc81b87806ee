"""`kiln cost [--session ID|last] [--json]`: what a stored session's requests cost."""

from __future__ import annotations

import argparse
import json

from agent.cost.report import per_model, per_request, summed, text_report
from agent.errors import UsageError
from agent.present import escape_controls
from agent.store.db import Store


def main(args: argparse.Namespace) -> int:
    store = Store()
    try:
        wanted = args.session or "last"
        row = store.find(wanted)
        if row is None:
            raise UsageError(
                f"No single stored session matches {wanted!r}; see `kiln sessions list`."
            )
        lines = per_request(store.requests(row.id))
    finally:
        store.close()
    if args.json:
        total = summed(lines, role="all")
        print(
            json.dumps(
                {
                    "session_id": row.id,
                    "requests": [line.to_dict() for line in lines],
                    "models": [line.to_dict() for line in per_model(lines)],
                    "total": total.to_dict(),
                }
            )
        )
        return 0
    # The task and the models' names are stored as given: their control characters shown.
    print(escape_controls(f"session {row.id}  {row.title[:60]}", one_line=True))
    if not lines:
        print("No model requests stored for this session.")
        return 0
    for text in text_report(lines):
        print(escape_controls(text, one_line=True))
    return 0
