"""Permission rules by pattern: `allow`, `ask` and `deny` for a tool kind and a glob.

`[permissions] deny = ["run: git push*"]` in the person's config (or a trusted
repository's `.kiln.toml`) is data the approval gate reads before the mode: a deny rule
refuses in every mode, full-auto too; an ask rule asks even in full-auto (and a run with
no person refuses, visibly); an allow rule runs without asking. Deny wins over ask, and
ask over allow, whatever order or file they came from.

A rule is `KIND: PATTERN`. `run` matches the command line, `edit` the file's path in the
repository, `mcp` an MCP tool's name (`mcp__SERVER__TOOL`). Claude Code's own spelling
is read too: `Bash(npm test:*)`, `Edit(docs/**)`, `Write(...)`, `mcp__server__tool`.
Patterns are fnmatch-style: for a command `*` is any text; for a path `*` stays within
one folder and `**` crosses folders. A command is matched whole and, for deny and ask,
each command of its list or pipeline as well (`make && git push` is a `git push`); for
allow every one of its commands must be allowed. It is a guard against the model's
habits, not the sandbox: the sandbox is what keeps the machine safe.
"""

from __future__ import annotations

import enum
import fnmatch
import re
import shlex
from dataclasses import dataclass

from agent.approval import Action


class Effect(enum.StrEnum):
    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


# Strongest first: the first effect any rule gives is the one that holds.
STRENGTH = (Effect.DENY, Effect.ASK, Effect.ALLOW)

# A rule's kind as written -> the gate's action.
KINDS = {"run": Action.COMMAND, "edit": Action.EDIT, "mcp": Action.MCP}
_CLAUDE_KINDS = {"Bash": "run", "Edit": "edit", "Write": "edit", "MultiEdit": "edit"}
_CLAUDE = re.compile(r"^(?P<tool>[A-Za-z]+)\((?P<pattern>.*)\)$", re.S)


class RuleError(ValueError):
    """A rule kiln cannot read; its message is the one sentence for the person."""


@dataclass(frozen=True)
class Rule:
    """One rule: allow, ask or deny for a kind of action (run, edit, mcp) and a pattern."""

    effect: Effect
    kind: str  # run | edit | mcp
    pattern: str
    source: str = ""  # the file it came from, for `kiln config show` and refusals

    @property
    def action(self) -> Action:
        return KINDS[self.kind]

    @property
    def text(self) -> str:
        return f"{self.kind}: {self.pattern}"

    def matches(self, subject: str) -> bool:
        if self.kind == "edit":
            return path_matches(self.pattern, subject)
        return fnmatch.fnmatchcase(subject, self.pattern)

    def describe(self) -> str:
        where = f" ({self.source})" if self.source else ""
        return f"{self.effect.value} `{self.text}`{where}"


def parse_rule(text: object, effect: Effect, source: str = "") -> Rule:
    """One rule from its text; RuleError names it and says what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise RuleError(
            f"{source}: [permissions] {effect.value}: {text!r} should be text such as 'run: npm test*'."
        )
    raw = text.strip()
    claude = _CLAUDE.match(raw)
    if claude and claude["tool"] in _CLAUDE_KINDS:
        kind, pattern = _CLAUDE_KINDS[claude["tool"]], claude["pattern"].strip()
        if pattern.endswith(":*"):  # Claude Code's prefix form: `npm test:*`
            pattern = pattern[:-2].rstrip() + "*"
        pattern = pattern or "*"
    elif raw.startswith("mcp__"):
        kind, pattern = "mcp", raw
    else:
        kind, sep, pattern = (part.strip() for part in raw.partition(":"))
        if not sep or kind not in KINDS or not pattern:
            raise RuleError(
                f"{source}: [permissions] {effect.value}: rule {raw!r} should be KIND: PATTERN "
                f"with KIND one of {', '.join(KINDS)} (as in 'run: git push*' or 'edit: docs/**')."
            )
    if kind == "edit":
        pattern = pattern.removeprefix("./")
    if kind == "run":
        pattern = _squeeze(pattern)
    return Rule(effect, kind, pattern, source)


def parse_rules(values: object, effect: Effect, source: str) -> tuple[Rule, ...]:
    if not isinstance(values, list):
        raise RuleError(
            f"{source}: [permissions] {effect.value} should be a list of rules, "
            'as in deny = ["run: git push*"].'
        )
    return tuple(parse_rule(value, effect, source) for value in values)


@dataclass(frozen=True)
class Ruling:
    """What the rules say of one action: an effect and the rule that gave it."""

    effect: Effect
    rule: Rule


@dataclass(frozen=True)
class PermissionRules:
    """Every rule in effect, from every file; `verdict` finds the strongest that matches."""

    rules: tuple[Rule, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.rules)

    def verdict(self, action: Action, subject: str) -> Ruling | None:
        """The strongest rule that matches `subject` (a command, a path, an MCP tool), or
        None when no rule speaks of it."""
        mine = [r for r in self.rules if r.action is action]
        if not mine or not subject.strip():
            return None
        subjects = _subjects(action, subject)
        for effect in (Effect.DENY, Effect.ASK):
            for rule in mine:
                if rule.effect is effect and any(rule.matches(s) for s in subjects):
                    return Ruling(effect, rule)
        allows = [r for r in mine if r.effect is Effect.ALLOW]
        whole = subjects[0]
        if action is Action.COMMAND and len(subjects) > 1:
            # Each command of a list must be allowed on its own; `npm test*` would otherwise
            # allow `npm test && curl ...` as a whole.
            found = [next((r for r in allows if r.matches(s)), None) for s in subjects[1:]]
            first = found[0] if found and all(found) else None
            return Ruling(Effect.ALLOW, first) if first else None
        allowed = next((r for r in allows if r.matches(whole)), None)
        return Ruling(Effect.ALLOW, allowed) if allowed else None


def _squeeze(text: str) -> str:
    return " ".join(text.split())


_SPLIT = re.compile(r"&&|\|\||[;|\n]|(?<![<>&])&(?![<>&])")  # not 2>&1, &>
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*\s*")


def _subjects(action: Action, subject: str) -> list[str]:
    """What a rule is matched against: the whole, then (for a command) each of its parts."""
    if action is Action.EDIT:
        return [subject.strip().removeprefix("./")]
    if action is not Action.COMMAND:
        return [subject.strip()]
    whole = _squeeze(subject)
    parts = []
    for part in _SPLIT.split(subject):
        part = part.strip().lstrip("({").rstrip(")}").strip()
        while _ASSIGNMENT.match(part):  # FOO=1 git push is a git push
            part = _ASSIGNMENT.sub("", part, count=1)
        for wrapper in ("sudo ", "env ", "exec ", "command ", "nohup ", "time "):
            while part.startswith(wrapper):
                part = part[len(wrapper) :].lstrip()
        if part:
            parts.append(_squeeze(_unquoted(part)))
    return [whole, *parts] if parts else [whole]


def _unquoted(part: str) -> str:
    """`git "push"` is `git push`: the words as the shell reads them, when it can."""
    try:
        return " ".join(shlex.split(part))
    except ValueError:
        return part


def path_matches(pattern: str, path: str) -> bool:
    """A glob over a repository path: `*` and `?` stay within a folder, `**` crosses them,
    and a pattern with no `/` matches a file's name in any folder (as .gitignore does)."""
    if "/" not in pattern.rstrip("/"):
        return _glob(pattern).match(path.rsplit("/", 1)[-1]) is not None or bool(
            _glob(pattern).match(path)
        )
    if pattern.endswith("/"):
        pattern += "**"
    return _glob(pattern.lstrip("/")).match(path) is not None


def _glob(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 1 :]:
            end = pattern.index("]", i + 1)
            body = pattern[i + 1 : end].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z", re.S)


_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]*$")


def implied_rule(action: Action, command: str = "", path: str = "") -> str | None:
    """The allow rule an "always" answer implies, narrower than "this kind, this session":
    the command's program and subcommand (`run: npm test*`), the edited file's folder
    (`edit: src/**`), the MCP tool. None where no rule should be offered (a list of
    commands, an apply)."""
    if action is Action.MCP and path:
        return f"mcp: {path}"
    if action is Action.EDIT and path:
        folder = path.removeprefix("./").rpartition("/")[0]
        return f"edit: {folder}/**" if folder else f"edit: {path.removeprefix('./')}"
    if action is not Action.COMMAND:
        return None
    subjects = _subjects(action, command)
    if len(subjects) != 2:  # nothing, or a list or pipeline of commands
        return None
    words = subjects[1].split()
    if not _WORD.match(words[0].rsplit("/", 1)[-1]):
        return None
    prefix = words[:1]
    if len(words) > 2 and words[1] == "-m" and _WORD.match(words[2]):
        prefix += words[1:3]  # python -m pytest
    elif len(words) > 1 and _WORD.match(words[1]):
        prefix.append(words[1])  # npm test, git push
    return f"run: {' '.join(prefix)}*"
