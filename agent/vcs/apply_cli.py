"""`kiln apply SESSION [--3way]`: write a stored session's changes to its repository later
(after an `--apply` that was refused, or a session that ended without applying)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from agent.errors import UsageError
from agent.store.db import Store
from agent.vcs.apply import apply_to_host


def main(args: argparse.Namespace) -> int:
    store = Store()
    try:
        row = store.find(args.session)
        if row is None:
            raise UsageError(
                f"No single stored session matches {args.session!r}; see `kiln sessions list`."
            )
        _, diff = store.state(row.id)
    finally:
        store.close()
    if not diff.strip():
        print(f"Session {row.id} has no changes to apply.")
        return 0
    written = asyncio.run(apply_to_host(Path(row.repo), diff, three_way=args.three_way))
    print(f"Applied to {row.repo}: {', '.join(written)}.")
    return 0
