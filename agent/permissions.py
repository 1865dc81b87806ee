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
one folder and `**` crosses folders. A command line is matched whole and, as parsed
(`agent/shell/`), each command it would run, by each spelling (`sh -c 'git push'`,
`timeout 5 /usr/bin/git -C . push` are each a `git push`): deny and ask hold when any
matches; allow needs every command allowed. A line kiln cannot read whole (no parse, a
script made when it runs) asks where a deny or ask rule exists, and is never allowed.
It is a guard against the model's habits, not the sandbox: a script the model writes and
runs is not seen, and the sandbox is what keeps the machine safe.
"""

from __future__ import annotations

import enum
import fnmatch
import re
from typing import TYPE_CHECKING

from agent.approval import Action
from sandbox.frozen import frozen

if TYPE_CHECKING:
    from agent.shell.parse import ShellLine


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


@frozen
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


@frozen
class Ruling:
    """What the rules say of one action: an effect and the rule that gave it."""

    effect: Effect
    rule: Rule
    why: str = ""  # an ask no rule matched outright: why the rules cannot tell

    @property
    def reason(self) -> str:
        if not self.why:
            return f"asked by the rule {self.rule.describe()}"
        return f"asked: {self.why}, so the rule {self.rule.describe()} may apply"


@frozen
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
        if action is Action.COMMAND:
            return _command_verdict(mine, subject)
        subject = subject.strip().removeprefix("./") if action is Action.EDIT else subject.strip()
        for effect in STRENGTH:
            for rule in mine:
                if rule.effect is effect and rule.matches(subject):
                    return Ruling(effect, rule)
        return None


def _commands_in(line: str) -> ShellLine:
    """What the line runs, by `agent/shell/` (and its tree-sitter grammar), loaded with the
    first command a rule is checked against: a start reads the rules, and runs none yet."""
    from agent.shell.parse import commands_in

    return commands_in(line)


def _command_verdict(rules: list[Rule], line: str) -> Ruling | None:
    """`run:` rules over the line and every command it would run, by every spelling: deny
    and ask when any matches, allow when each command is allowed. What the parse cannot
    know is asked where a deny or ask rule might name it, and never allowed."""
    from agent.shell.words import could_match

    parsed = _commands_in(line)
    forms = [form for command in parsed.commands for form in command.forms]
    texts = [_squeeze(line), *(form.text for form in forms)]
    guards = [r for r in rules if r.effect is not Effect.ALLOW]
    for effect in (Effect.DENY, Effect.ASK):
        for rule in guards:
            if rule.effect is effect and any(rule.matches(text) for text in texts):
                return Ruling(effect, rule)
    if guards and parsed.unknown:
        return Ruling(
            Effect.ASK, guards[0], f"kiln cannot tell all this line runs ({parsed.unknown})"
        )
    for rule in guards:
        unknown = next((f for f in forms if not f.known and could_match(rule.pattern, f)), None)
        if unknown is not None:
            why = (
                f"`{unknown.shown}` is known only when it runs, and it could be what the rule names"
            )
            return Ruling(Effect.ASK, rule, why)
    allows = [r for r in rules if r.effect is Effect.ALLOW]
    if parsed.unknown or not allows:
        return None
    if not parsed.commands:  # assignments alone: the line is all there is to match
        whole = next((r for r in allows if r.matches(texts[0])), None)
        return Ruling(Effect.ALLOW, whole) if whole else None
    # Each command must be allowed on its own: `npm test*` would otherwise allow
    # `npm test && curl ...` as a whole. Words taken from input are no spelling to allow.
    found = [
        next((r for f in c.forms if not f.open_tail for r in allows if r.matches(f.text)), None)
        for c in parsed.commands
    ]
    first = found[0] if all(found) else None
    return Ruling(Effect.ALLOW, first) if first else None


def _squeeze(text: str) -> str:
    return " ".join(text.split())


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
    parsed = _commands_in(command)
    if parsed.unknown or len(parsed.commands) != 1:  # nothing, or a list of commands
        return None
    form = parsed.commands[0].forms[-1]  # what it runs, its wrappers taken off
    words = [word.text for word in form.words]
    if not form.known or not _WORD.match(words[0]):
        return None
    prefix = words[:1]
    if len(words) > 2 and words[1] == "-m" and _WORD.match(words[2]):
        prefix += words[1:3]  # python -m pytest
    elif len(words) > 1 and _WORD.match(words[1]):
        prefix.append(words[1])  # npm test, git push
    return f"run: {' '.join(prefix)}*"
