"""Part of a rewrite: the model's fix with only some of its changes, judged by the tests.

A small model asked to rewrite a function often makes the change that fixes it and one
more that breaks something else: it pads two fields of a formatted text when only one
wanted padding. The tests fail and the fix is lost. So each change
of a failing rewrite (a run of tokens it put in place of others) is tried alone on the
function as it was, and the rewrite without it, as delta debugging does: the tests say
which part was the fix. Each costs a test run and no request.
"""

from __future__ import annotations

import difflib
import re

from agent.repair.suspects import Suspect
from agent.repair.variants import Variant, checked

# A rewrite with more changes than this is a new function, not a fix with a slip in it.
MAX_CHANGES = 6
_TOKEN = re.compile(r"\w+|\s+|.", re.S)


def parts_of(suspect: Suspect, rewrite: str) -> list[Variant]:
    """`suspect` with one change of `rewrite` alone, then with all but one, each once,
    whitespace left as the original has it, none that breaks the syntax."""
    old, new = _TOKEN.findall(suspect.text), _TOKEN.findall(rewrite)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    changes = [
        (i1, i2, new[j1:j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal" and "".join([*old[i1:i2], *new[j1:j2]]).strip()
    ]
    if not 1 < len(changes) <= MAX_CHANGES:  # one change is the rewrite itself, tried already
        return []
    alone = [[change] for change in changes]
    all_but_one = [changes[:k] + changes[k + 1 :] for k in range(len(changes))]
    made = (_applied(suspect, old, picked) for picked in [*alone, *all_but_one])
    return list(checked(made))


def _applied(suspect: Suspect, old: list[str], picked: list[tuple[int, int, list[str]]]) -> Variant:
    tokens, at = [], 0
    for start, end, replacement in picked:  # in order, as the matcher gave them
        tokens += [*old[at:start], *replacement]
        at = end
    text = "".join([*tokens, *old[at:]])
    before, after = _first_changed_line(suspect.text, text)
    return Variant(suspect, text, before, after, of_rewrite=True)


def _first_changed_line(old: str, new: str) -> tuple[str, str]:
    """The first line `new` changes, as it was and as it becomes, stripped ("" for none)."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            before = old_lines[i1].strip() if i1 < i2 else ""
            after = new_lines[j1].strip() if j1 < j2 else ""
            return before, after
    return "", ""
