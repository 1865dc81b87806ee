"""How kiln shapes requests nobody here wrote: `bench/eval/shaping/requests.jsonl`, labelled
change or question by a writer who saw neither kiln's prompts nor its code. Prints the
confusion matrix of `agent.prompts.shape.shape_of` against the labels, by kind, and every
request it shapes wrongly. The target: no change request shaped as a question.

    .venv/bin/python bench/bench_shaping.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.prompts.shape import shape_of  # noqa: E402

SET = ROOT / "bench" / "eval" / "shaping" / "requests.jsonl"


def main() -> int:
    rows = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line]
    matrix: Counter[tuple[str, str]] = Counter()
    by_kind: Counter[tuple[str, bool]] = Counter()
    wrong = []
    for row in rows:
        got = shape_of(row["text"]).value
        matrix[(row["label"], got)] += 1
        by_kind[(row["kind"], got == row["label"])] += 1
        if got != row["label"]:
            wrong.append((row["label"], got, row["text"]))
    print(f"{len(rows)} requests; rows: the label, columns: kiln's shape")
    print(f"{'':>10} {'change':>8} {'question':>9}")
    for label in ("change", "question"):
        print(f"{label:>10} {matrix[(label, 'change')]:>8} {matrix[(label, 'question')]:>9}")
    for kind in sorted({k for k, _ in by_kind}):
        right, all_ = by_kind[(kind, True)], by_kind[(kind, True)] + by_kind[(kind, False)]
        print(f"  {kind:<11} {right}/{all_} right")
    for label, got, text in wrong:
        print(f"- labelled {label}, shaped {got}: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
