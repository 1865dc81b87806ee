"""The nightly job: summarise the day's expenses, write the report, drop old reports."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

REPORT_NAME = re.compile(r"^report-(\d{4}-\d{2}-\d{2})\.csv$")


def summarize(rows: Iterable[dict[str, str]]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for row in rows:
        totals[row["category"].strip().lower()] += Decimal(row["amount"])
    return dict(sorted(totals.items()))


def export_report(summary: dict[str, Decimal], out_dir: Path, today: date, dry_run: bool = False) -> Path:
    path = out_dir / f"report-{today.isoformat()}.csv"
    if not dry_run:
        out_dir.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["category", "total"])
        for category, total in summary.items():
            writer.writerow([category, f"{total:.2f}"])
    return path


def prune_reports(out_dir: Path, keep_days: int, today: date) -> list[Path]:
    """Delete reports dated more than `keep_days` days before `today`."""
    if not out_dir.is_dir():
        return []
    cutoff = today - timedelta(days=keep_days)
    deleted = []
    for path in sorted(out_dir.iterdir()):
        match = REPORT_NAME.match(path.name)
        if match and date.fromisoformat(match.group(1)) < cutoff:
            path.unlink()
            deleted.append(path)
    return deleted


def run(rows: Iterable[dict[str, str]], out_dir: Path, today: date, keep_days: int, dry_run: bool = False) -> list[str]:
    """Do the night's work; return one line per action, for the log."""
    actions = []
    path = export_report(summarize(rows), out_dir, today, dry_run=dry_run)
    actions.append(f"{'would write' if dry_run else 'wrote'} {path}")
    for old in prune_reports(out_dir, keep_days, today):
        actions.append(f"deleted {old}")
    return actions
