"""Two candidate modules that pass different tests, crossed one definition at a time.

Whole-module samples of a small model often get different parts of a task right: one
passes the tests of `encode`, another those of `decode`. When a candidate passes a test
the best one fails, each of its functions and methods is put in place of the best's own
of the same name, one at a time, and the tests judge: a cross that passes more becomes
the best and the crossing goes on from it. No model time is spent, only test runs.
"""

from __future__ import annotations

import ast


def definitions(source: str) -> dict[str, tuple[int, int]]:
    """The module's functions and its classes' methods, by qualified name (`f`,
    `Class.method`), as 1-based (first, last) line spans, decorators included; {} when
    the source does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    spans: dict[str, tuple[int, int]] = {}
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in tree.body:
        if isinstance(node, functions):
            spans[node.name] = _span(node)
        elif isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, functions):
                    spans[f"{node.name}.{member.name}"] = _span(member)
    return spans


def _span(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return first, node.end_lineno or node.lineno


def crosses(best: str, donor: str) -> list[tuple[str, str]]:
    """Each of `donor`'s definitions that `best` also has, written differently, put in
    place of `best`'s: (the name, the crossed module), for those that still parse."""
    made = ((name, cross(best, donor, name)) for name in definitions(best))
    return [(name, crossed) for name, crossed in made if crossed is not None]


def cross(best: str, donor: str, name: str) -> str | None:
    """`best` with its definition `name` replaced by `donor`'s; None when either lacks it,
    they are written the same, or the result does not parse (an indentation that differs
    may not)."""
    ours, theirs = definitions(best).get(name), definitions(donor).get(name)
    if ours is None or theirs is None:
        return None
    best_lines, donor_lines = best.splitlines(keepends=True), donor.splitlines(keepends=True)
    given = donor_lines[theirs[0] - 1 : theirs[1]]
    if _text(given) == _text(best_lines[ours[0] - 1 : ours[1]]):
        return None
    crossed = "".join(best_lines[: ours[0] - 1] + _ended(given) + best_lines[ours[1] :])
    return crossed if definitions(crossed) else None


def _text(lines: list[str]) -> str:
    return "".join(lines).strip()


def _ended(lines: list[str]) -> list[str]:
    """`lines` with the last one ended, so the next definition starts on a line of its own."""
    if lines and not lines[-1].endswith("\n"):
        return [*lines[:-1], lines[-1] + "\n"]
    return lines
