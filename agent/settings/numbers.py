"""A number given on the command line: finite, or refused by argparse in one sentence.

`float("nan")` and `float("inf")` parse, and nan passes every comparison a limit makes
(`spent >= budget` is never true), so `--budget-usd nan` would be no budget at all.
Kept apart from the settings: building a command's parser must not load them.
"""

from __future__ import annotations

import argparse
import math


def finite_number(text: str) -> float:
    """argparse's `type=` for seconds, dollars and shares."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number; give one such as 1.5")
    return number
