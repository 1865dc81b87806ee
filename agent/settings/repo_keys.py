"""What a repository's own `.kiln.toml` may set: every key, by a written table.

The file is written by whoever wrote the repository, or by a model whose diff was
applied. So a key is honoured from it as it is only when it can do no harm: it decides
something inside the sandbox that the repository knows best (its test command). Every
key that reaches the person's machine, money, time or limits (prices, budgets, limits,
timeouts, output caps, model names, the approval mode, `git.commit`, setup) waits for
`kiln trust`; a few are the person's alone. `tests/test_config.py` walks every setting
and fails on one the table does not place.
"""

from __future__ import annotations

import enum
import re

from sandbox.frozen import frozen


class RepoRule(enum.Enum):
    HARMLESS = "harmless"  # honoured from any repository
    TRUSTED = "trusted"  # honoured once the person ran `kiln trust` for the file as it is
    NEVER = "never"  # only the person's own config, flags or environment


@frozen
class KeyRule:
    """A row of REPO_KEYS: a pattern of dotted keys, how a repository's file may set them, why."""

    # Compiled on the first key read from a repository's file (`re` keeps it), not when the
    # settings load: twenty patterns were 1.5 ms of every start, with no such file mostly.
    pattern: str
    rule: RepoRule
    why: str

    def matches(self, key: str) -> bool:
        return re.fullmatch(self.pattern, key) is not None


def _row(pattern: str, rule: RepoRule, why: str) -> KeyRule:
    return KeyRule(f"(?:{pattern})", rule, why)


H, T, N = RepoRule.HARMLESS, RepoRule.TRUSTED, RepoRule.NEVER
# First match wins; a key no row matches is treated as TRUSTED (and the test fails).
REPO_KEYS: tuple[KeyRule, ...] = (
    _row(
        r"tests\.(command|run_after_edits)",
        H,
        "runs in the sandbox; the repository knows its tests",
    ),
    _row(r"ui\.theme", H, "colours only"),
    _row(r"sandbox\.setup_auto", H, "only proposes setup from the dependency files"),
    _row(r"sandbox\.setup_network", N, "network during setup is the person's call"),
    _row(r"sandbox\.labels(\..+)?", N, "kiln's own bookkeeping; not settable from files"),
    _row(r"sandbox\.setup", T, "runs commands before the session, once per repository"),
    _row(r"sandbox\.(network|env|image|dockerfile|state_dir|backend)", T, "loosens the sandbox"),
    _row(r"sandbox\.(disk_limit|memory|pids_limit|cpus)", T, "limits that protect the host"),
    _row(r"sandbox\.(output_cap_bytes|default_timeout_s|setup_timeout_s)", T, "caps and timeouts"),
    _row(r"tests\.(timeout_s|max_finish_refusals)", T, "timeouts and repeat limits"),
    _row(r"limits\..+", T, "the person's budgets and limits"),
    _row(r"context\..+", T, "how many tokens each request sends, so money"),
    _row(r"ui\.mode", T, "the approval mode: what runs without asking"),
    _row(r"git\..+", T, "commits on the person's repository"),
    _row(r"agents\..+", T, "sandboxes and model requests at once: memory, CPU and money"),
    _row(r"mcp\..+", T, "how many outside tools every request carries"),
    _row(r"mcp_servers\..+", T, "a server's command runs on the host"),
    _row(r"lsp\..+", T, "servers run in the sandbox beside every edit: memory, CPU and time"),
    _row(r"hooks(\..+)?", T, "commands that run on your machine, outside the sandbox"),
    _row(r"permissions(\..+)?", T, "what runs without asking, what asks and what is refused"),
    _row(r"models\..+", T, "model names, prices, keys and servers: money and where data goes"),
)
del H, T, N


def rule_for(key: str) -> KeyRule | None:
    return next((row for row in REPO_KEYS if row.matches(key)), None)


def honoured(key: str, trusted: bool) -> bool:
    """Whether a repository's file may set `key` (dotted), trusted or not."""
    row = rule_for(key)
    if row is None or row.rule is RepoRule.TRUSTED:
        return trusted
    return row.rule is RepoRule.HARMLESS


def why_ignored(key: str, suspended: bool = False) -> str:
    """Why a repository's `key` is ignored; `suspended`: it was trusted, but kiln applied
    a change since, and the key runs something on the host (`trust.suspend`)."""
    if suspended:
        return (
            "kiln applied changes to this repository since you trusted it, and it runs on "
            "your machine; read them, then `kiln trust` honours it again (docs/sandbox.md)"
        )
    row = rule_for(key)
    if row is not None and row.rule is RepoRule.NEVER:
        return f"only your own config.toml may set it ({row.why})"
    reason = f" ({row.why})" if row else ""
    return f"the repository is not trusted{reason}; `kiln trust` honours it (docs/sandbox.md)"


def trust_would_honour(ignored: dict[str, object]) -> dict[str, object]:
    """Of what kiln ignored in a repository's file, what trusting it would honour."""
    return {k: v for k, v in ignored.items() if honoured(k, trusted=True)}
