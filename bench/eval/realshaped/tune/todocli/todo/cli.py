"""todo add TITLE [--due DATE] | todo done ID | todo list [--all]"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from pathlib import Path

from todo import store


def format_item(item: store.Item) -> str:
    mark = "x" if item.done else " "
    due = f"  (due {item.due.isoformat()})" if item.due else ""
    return f"{item.id:>3} [{mark}] {item.title}{due}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="todo")
    parser.add_argument("--file", type=Path, default=Path(os.environ.get("TODO_FILE", "~/.todo.json")).expanduser())
    sub = parser.add_subparsers(dest="command", required=True)
    add = sub.add_parser("add", help="add an item")
    add.add_argument("title")
    add.add_argument("--due", type=date.fromisoformat, help="YYYY-MM-DD")
    done = sub.add_parser("done", help="mark an item done")
    done.add_argument("id", type=int)
    show = sub.add_parser("list", help="show open items")
    show.add_argument("--all", action="store_true", help="include finished items")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    items = store.load(args.file)
    if args.command == "add":
        item = store.add(items, args.title, args.due)
        store.save(args.file, items)
        print(f"added {item.id}")
    elif args.command == "done":
        for item in items:
            if item.id == args.id:
                item.done = True
                store.save(args.file, items)
                print(f"done {item.id}")
                break
        else:
            print(f"no item {args.id}", file=sys.stderr)
            return 1
    else:
        shown = [i for i in items if args.all or not i.done]
        for item in sorted(shown, key=lambda i: i.id):
            print(format_item(item))
    return 0


if __name__ == "__main__":
    sys.exit(main())
