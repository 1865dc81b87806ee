"""snapback SOURCE DEST [--list]"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from snapback.backup import backup


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="snapback")
    parser.add_argument("source", type=Path)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--list", action="store_true", help="only list what would be copied")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        parser.error(f"{args.source} is not a folder")
    changed = backup(args.source, args.dest, dry_run=args.list)
    if args.list:
        for rel in changed:
            print(rel)
    else:
        print(f"copied {len(changed)} file{'s' if len(changed) != 1 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
