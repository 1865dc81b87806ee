"""The review's tests read the same real repositories as the git workflows'."""

from tests.vcs.conftest import buggy_repo

__all__ = ["buggy_repo"]
