"""Whether a rule's glob could match a command some of whose words are known only when it
runs: glob against glob."""

from __future__ import annotations

import pytest

from agent.shell.words import Form, Word, could_match


def form(*words: str, tail: bool = False) -> Form:
    return Form(tuple(Word(w[1:], False) if w.startswith("?") else Word(w) for w in words), tail)


@pytest.mark.parametrize(
    ("pattern", "command", "expected"),
    [
        ("git push*", form("git", "?$X"), True),
        ("git push*", form("?$G", "push"), True),
        ("git push*", form("git", "status", "?$X"), False),
        ("git push*", form("echo", "?$X"), False),
        ("git push", form("git", tail=True), True),
        ("git push", form("gitx", tail=True), False),
        ("git p?sh -[fq]*", form("git", "?$X", "-f"), True),
        ("git p?sh -[!f]", form("git", "push", "?$X"), True),
        ("rm -rf /", form("rm", "?$A", "/"), True),
        ("rm -rf /", form("rm", "?$A", "/tmp"), False),
        ("*", form("?$X"), True),
    ],
)
def test_could_match(pattern: str, command: Form, expected: bool) -> None:
    assert could_match(pattern, command) is expected


def test_a_known_form_could_match_only_as_fnmatch_does() -> None:
    assert could_match("git push*", form("git", "push", "-f"))
    assert not could_match("git push*", form("git", "pull"))
    assert form("git", "push").known and not form("git", tail=True).known
    assert form("git", tail=True).shown == "git ..."
