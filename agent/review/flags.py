"""`kiln review`'s flags, apart from the review: building the parser of every `kiln`
command must not import what a review runs (asyncio, the reviewer)."""

from __future__ import annotations

import argparse

from agent.settings.numbers import finite_number

FORMATS = ("text", "markdown", "json", "sarif", "github")


def add_arguments(review: argparse.ArgumentParser) -> None:
    review.add_argument(
        "rev", nargs="?", help="a revision or a range A..B (default: your changes, else HEAD)"
    )
    review.add_argument("--staged", action="store_true", help="review the index")
    review.add_argument("--uncommitted", action="store_true", help="review the working tree")
    review.add_argument("--base", metavar="BRANCH", help="review HEAD since it left BRANCH")
    review.add_argument("--instructions", metavar="TEXT", default="", help="what to focus on")
    review.add_argument("--min-confidence", type=finite_number, default=0.5, metavar="X",
                        help="drop findings under this confidence (0-1, default 0.5)")  # fmt: skip
    review.add_argument("--no-verify-findings", action="store_true",
                        help="skip the second request that checks each finding")  # fmt: skip
    review.add_argument("--output-format", choices=FORMATS, default="text")
    review.add_argument("--fail-on", metavar="P0|P1|P2|P3",
                        help="exit 1 when a finding is at or above this priority")  # fmt: skip
    review.add_argument("--run-tests", action="store_true",
                        help="run the tests at the reviewed tree in the sandbox")  # fmt: skip
    review.add_argument("--fix", action="store_true",
                        help="then give the findings to the agent as its task")  # fmt: skip
    review.add_argument(
        "--budget-usd", type=finite_number, help="stop reviewing more parts past this"
    )
    review.add_argument("--test-command", help="the command that runs the tests")
