"""Checking a new password against the policy; every problem is reported, not only the first."""

from __future__ import annotations

import string
from dataclasses import dataclass, field

MIN_LENGTH = 8
MIN_CLASSES = 3
COMMON = frozenset({
    "password", "password1", "123456789012", "qwertyuiopas", "letmein12345",
    "iloveyou1234", "administrator", "welcome12345", "changeme1234",
})


@dataclass
class Verdict:
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def character_classes(password: str) -> int:
    classes = (string.ascii_lowercase, string.ascii_uppercase, string.digits)
    count = sum(any(ch in cls for ch in password) for cls in classes)
    return count + any(not ch.isalnum() for ch in password)


def check(password: str, username: str = "") -> Verdict:
    verdict = Verdict()
    if len(password) < MIN_LENGTH:
        verdict.problems.append(f"use at least {MIN_LENGTH} characters")
    if character_classes(password) < MIN_CLASSES:
        verdict.problems.append("mix lower case, upper case, digits and symbols (three of them)")
    if password.lower() in COMMON:
        verdict.problems.append("this password is too common")
    if username and username.lower() in password.lower():
        verdict.problems.append("do not put your user name in your password")
    return verdict
