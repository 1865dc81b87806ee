"""SARIF 2.1.0 for code scanning: one rule per category, one result per finding, its
fingerprint as a partial fingerprint so GitHub keeps one alert across runs."""

from __future__ import annotations

import json
from typing import Any

from agent.review.findings import CATEGORIES
from agent.review.reviewer import ReviewResult

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {0: "error", 1: "error", 2: "warning", 3: "note"}
# GitHub orders alerts by this (0.0-10.0); priority 0 is the most severe.
SECURITY_SEVERITY = {0: "9.0", 1: "7.0", 2: "4.0", 3: "1.0"}


def as_sarif(result: ReviewResult, version: str = "0.1.0") -> str:
    rules = [
        {
            "id": f"kiln/{category}",
            "name": category.capitalize(),
            "shortDescription": {"text": f"kiln review: {category}"},
        }
        for category in CATEGORIES
    ]
    results: list[dict[str, Any]] = []
    for finding in result.findings:
        message = finding.title + (f": {finding.body}" if finding.body else "")
        entry: dict[str, Any] = {
            "ruleId": f"kiln/{finding.category}",
            "ruleIndex": CATEGORIES.index(finding.category),
            "level": LEVELS[finding.priority],
            "message": {"text": message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": finding.path, "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": finding.line, "endLine": finding.end_line},
                    }
                }
            ],
            "partialFingerprints": {"kilnFindingId/v1": finding.id},
            "properties": {
                "priority": finding.priority,
                "confidence": finding.confidence,
                "security-severity": SECURITY_SEVERITY[finding.priority],
            },
        }
        if finding.suggestion:
            entry["properties"]["suggestion"] = finding.suggestion
        results.append(entry)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "kiln",
                "version": version,
                "rules": rules,
            }
        },
        "results": results,
        "properties": {"revision": result.target.revision, "verdict": result.verdict},
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2)
