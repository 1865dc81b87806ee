"""notes search WORDS... [--dir DIR]"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from notes.index import load_folder, words
from notes.snippet import snippet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="notes")
    sub = parser.add_subparsers(dest="command", required=True)
    search = sub.add_parser("search")
    search.add_argument("query", nargs="+")
    search.add_argument("--dir", type=Path, default=Path.home() / "notes")
    args = parser.parse_args(argv)
    index = load_folder(args.dir)
    query = " ".join(args.query)
    hits = index.search(query)
    for name in hits:
        print(f"{name}: {snippet(index.text(name), words(query))}")
    if not hits:
        print("no matches", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
