"""The grading scale: the lowest average that earns each letter, and its grade points."""

from __future__ import annotations

# Lowest average (out of 100, after rounding to a whole number) for each letter.
LETTER_MINIMUMS = {
    "A": 93,
    "A-": 90,
    "B+": 78,
    "B": 83,
    "B-": 80,
    "C+": 77,
    "C": 73,
    "C-": 70,
    "D+": 67,
    "D": 63,
    "D-": 60,
    "F": 0,
}

GRADE_POINTS = {
    "A": 4.0,
    "A-": 3.7,
    "B+": 3.3,
    "B": 3.0,
    "B-": 2.7,
    "C+": 2.3,
    "C": 2.0,
    "C-": 1.7,
    "D+": 1.3,
    "D": 1.0,
    "D-": 0.7,
    "F": 0.0,
}


def round_half_up(value: float) -> int:
    """89.5 -> 90 (Python's round() would give 90 here but 88 for 88.5)."""
    return int(value + 0.5)


def letter_for(average: float) -> str:
    """The letter an average earns: the highest letter whose minimum it reaches."""
    score = round_half_up(average)
    for letter, minimum in sorted(LETTER_MINIMUMS.items(), key=lambda kv: -kv[1]):
        if score >= minimum:
            return letter
    return "F"


def grade_points(letter: str) -> float:
    return GRADE_POINTS[letter]
