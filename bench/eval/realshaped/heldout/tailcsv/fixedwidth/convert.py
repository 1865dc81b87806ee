"""fixedwidth2csv STATEMENT.txt [-o OUT.csv]"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

from fixedwidth.layout import STATEMENT, Field, RecordError


def read_records(text: str, layout: tuple[Field, ...] = STATEMENT) -> list[dict]:
    """One dict per record line. Blank lines are skipped; line numbers in errors are 1-based."""
    records = []
    lines = text.split("\n")[:-1]  # the last element is what follows the final newline
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if len(line) < layout[-1].start:
            raise RecordError(number, f"record is too short ({len(line)} characters)")
        records.append({field.name: field.read(line, number) for field in layout})
    return records


def to_csv(records: list[dict], layout: tuple[Field, ...] = STATEMENT) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([field.name for field in layout])
    for record in records:
        writer.writerow([_cell(record[field.name]) for field in layout])
    return out.getvalue()


def _cell(value) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fixedwidth2csv")
    parser.add_argument("statement", type=Path)
    parser.add_argument("-o", "--out", type=Path)
    args = parser.parse_args(argv)
    try:
        records = read_records(args.statement.read_text(encoding="latin-1"))
    except RecordError as exc:
        print(f"{args.statement}: {exc}", file=sys.stderr)
        return 1
    text = to_csv(records)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
