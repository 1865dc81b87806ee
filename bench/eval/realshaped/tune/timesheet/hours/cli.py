"""hours report FILE --from DATE --to DATE"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from hours.entries import read_entries
from hours.report import weekly_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hours")
    sub = parser.add_subparsers(dest="command", required=True)
    report = sub.add_parser("report", help="table of hours per project and day")
    report.add_argument("file", type=Path)
    report.add_argument("--from", dest="start", type=date.fromisoformat, required=True, help="first day to include")
    report.add_argument("--to", dest="end", type=date.fromisoformat, required=True, help="last day to include")
    args = parser.parse_args(argv)
    entries = read_entries(args.file.read_text(encoding="utf-8"))
    print(weekly_table(entries, args.start, args.end))
    return 0


if __name__ == "__main__":
    sys.exit(main())
