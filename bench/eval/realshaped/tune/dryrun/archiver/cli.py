"""archiver EXPENSES.csv --out DIR [--keep-days N] [--today YYYY-MM-DD] [--dry-run]"""

from __future__ import annotations

import argparse
import csv
import sys
from datetime import date
from pathlib import Path

from archiver.jobs import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="archiver")
    parser.add_argument("expenses", type=Path, help="CSV with date,category,amount columns")
    parser.add_argument("--out", type=Path, required=True, help="folder for the reports")
    parser.add_argument("--keep-days", type=int, default=30)
    parser.add_argument("--today", type=date.fromisoformat, default=None)
    parser.add_argument("--dry-run", action="store_true", help="show what would be done, change nothing")
    args = parser.parse_args(argv)
    with args.expenses.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for line in run(rows, args.out, args.today or date.today(), args.keep_days, dry_run=args.dry_run):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
