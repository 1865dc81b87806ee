"""Palindrome checks."""


def is_palindrome(text: str) -> bool:
    """True if `text` reads the same backwards, ignoring case and spaces."""
    return text == text[::-1]
