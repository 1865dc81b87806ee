"""How kiln shapes requests nobody here wrote, labelled change or question by writers who
saw neither kiln's prompts nor its code: `requests.jsonl` (77; the rules were tuned on it),
then `heldout.jsonl` (103), `heldout2.jsonl` (87), `heldout3.jsonl` (92),
`heldout4.jsonl` (95), `heldout5.jsonl` (100) and `heldout6.jsonl` (100), each written by a writer of its own and measured once the rules
before it were written (each was then looked at to make the rules more general, and so is
tuning data now); `heldout7.jsonl` (100) was written after the rules were last changed and is
the clean measurement. Prints the confusion matrix of `agent.prompts.shape.shape_of` against the labels,
by kind, and every request it shapes wrongly; for a set whose rows say `keeps_behaviour`
(a change that must not change what the code does), the matrix of
`agent.prompts.shape.keeps_behaviour` on its change requests too. The target: no change
request shaped as a question.

    .venv/bin/python bench/bench_shaping.py [--set heldout|heldout2|heldout3|heldout4|heldout5|heldout6|heldout7]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.prompts.shape import keeps_behaviour, shape_of  # noqa: E402

SETS = ROOT / "bench" / "eval" / "shaping"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set",
        default="requests",
        choices=[
            "requests",
            "heldout",
            "heldout2",
            "heldout3",
            "heldout4",
            "heldout5",
            "heldout6",
            "heldout7",
        ],
    )
    args = parser.parse_args()
    path = SETS / f"{args.set}.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    _shapes(rows)
    if all("keeps_behaviour" in row for row in rows):
        _keeping([row for row in rows if row["label"] == "change"])
    return 0


def _shapes(rows: list[dict[str, object]]) -> None:
    matrix: Counter[tuple[object, str]] = Counter()
    by_kind: Counter[tuple[object, bool]] = Counter()
    wrong = []
    for row in rows:
        got = shape_of(str(row["text"])).value
        matrix[(row["label"], got)] += 1
        by_kind[(row["kind"], got == row["label"])] += 1
        if got != row["label"]:
            wrong.append((row["label"], got, row["text"]))
    print(f"{len(rows)} requests; rows: the label, columns: kiln's shape")
    print(f"{'':>10} {'change':>8} {'question':>9}")
    for label in ("change", "question"):
        print(f"{label:>10} {matrix[(label, 'change')]:>8} {matrix[(label, 'question')]:>9}")
    for kind in sorted({str(k) for k, _ in by_kind}):
        right, all_ = by_kind[(kind, True)], by_kind[(kind, True)] + by_kind[(kind, False)]
        print(f"  {kind:<11} {right}/{all_} right")
    for label, got, text in wrong:
        print(f"- labelled {label}, shaped {got}: {text}")


def _keeping(changes: list[dict[str, object]]) -> None:
    matrix: Counter[tuple[bool, bool]] = Counter()
    wrong = []
    for row in changes:
        want, got = bool(row["keeps_behaviour"]), keeps_behaviour(str(row["text"]))
        matrix[(want, got)] += 1
        if want != got:
            wrong.append((want, row["text"]))
    print(f"\n{len(changes)} change requests; rows: keeps behaviour by the label, columns: kiln's")
    print(f"{'':>10} {'keeps':>6} {'changes':>8}")
    for want, name in ((True, "keeps"), (False, "changes")):
        print(f"{name:>10} {matrix[(want, True)]:>6} {matrix[(want, False)]:>8}")
    for want, text in wrong:
        print(f"- labelled {'keeps' if want else 'changes'} behaviour: {text}")


if __name__ == "__main__":
    raise SystemExit(main())
