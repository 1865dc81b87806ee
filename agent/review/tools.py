"""The tools of a review: the read-only ones of the coding loop, and the three a review
reports through (report_finding per finding, finish_review once per chunk, and
verify_finding in the second, short request that checks one finding)."""

from __future__ import annotations

from agent.llm.base import ToolSpec
from agent.review.findings import CATEGORIES, VERDICTS
from agent.tools import READ_ONLY, TOOLS
from agent.tools.base import spec_only

# update_plan and finish belong to the coding loop; a review ends with finish_review.
READING = sorted(READ_ONLY - {"update_plan", "finish"})

REPORT_FINDING = spec_only(
    "report_finding",
    "Report one problem the change introduces. Call once per finding, before finish_review.",
    {
        "path": {"type": "string", "description": "the file, relative to the repository root"},
        "line": {"type": "integer", "description": "first new-side line, as the diff numbers it"},
        "end_line": {"type": "integer", "description": "last new-side line (default: line)"},
        "priority": {
            "type": "integer", "minimum": 0, "maximum": 3,
            "description": "0 must fix before merge, 1 should fix, 2 could fix, 3 nit",
        },
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "category": {"type": "string", "enum": list(CATEGORIES)},
        "title": {"type": "string", "description": "the problem in a few words"},
        "body": {"type": "string", "description": "why it is wrong, in one short paragraph"},
        "suggestion": {"type": "string", "description": "the corrected code, if short"},
    },
    ["path", "line", "priority", "confidence", "category", "title", "body"],
).spec  # fmt: skip

FINISH_REVIEW = spec_only(
    "finish_review",
    "End the review of this part of the change, after every finding is reported.",
    {
        "verdict": {"type": "string", "enum": list(VERDICTS),
                    "description": "correct: nothing blocks merging; incorrect: something does"},
        "summary": {"type": "string", "description": "one or two sentences on the change"},
    },
    ["verdict", "summary"],
).spec  # fmt: skip

VERIFY_FINDING = spec_only(
    "verify_finding",
    "Say whether the reported problem is real in the code shown.",
    {
        # A word, not a boolean: small models were seen to write false beside a reason
        # that said the problem was real.
        "real": {"type": "string", "enum": ["yes", "no"],
                 "description": "yes: the problem is real; no: a false alarm"},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "reason": {"type": "string", "description": "one sentence"},
    },
    ["real", "confidence"],
).spec  # fmt: skip


def review_specs() -> list[ToolSpec]:
    return [*(TOOLS[name].spec for name in READING), REPORT_FINDING, FINISH_REVIEW]


def report_specs() -> list[ToolSpec]:
    """For a small model: the files come with the change, so it only reports."""
    return [REPORT_FINDING, FINISH_REVIEW]
