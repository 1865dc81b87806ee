"""Every command a shell line would run, by parsing it with tree-sitter-bash.

The walk visits the whole tree, so a command is found wherever the shell would run one:
lists, pipelines, subshells and groups, the bodies and conditions of `if`, `for`, `while`,
`until` and `case`, function bodies, `$(...)`, backticks and `<(...)` in arguments,
assignments, redirects and strings. Each command is seen through its wrappers
(`wrappers.unwrap`), and the scripts it hands to a shell are parsed the same way, to a
bounded depth. What cannot be known (a line that does not parse, a script built when it
runs, nesting past the bound) is said in `ShellLine.unknown`: rules ask rather than allow.
"""

from __future__ import annotations

import codecs
import functools
import re
from typing import TYPE_CHECKING

from agent.shell.words import Command, Word
from agent.shell.wrappers import unwrap
from sandbox.frozen import frozen

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

MAX_DEPTH = 4  # shells within shells (`sh -c "bash -c '...'"`) read before giving up
_LITERAL_STRING = frozenset({"string_content", '"'})
# Unquoted, these make one word into others: globs, brace expansion, a leading tilde is not
# one of them (it names a folder, never a program's own name).
_EXPANDS = re.compile(r"(?<!\\)(?:[*?]|\[[^\]]*\])|(?<!\\)\{[^{}]*(?:,|\.\.)[^{}]*\}")


@frozen
class ShellLine:
    commands: tuple[Command, ...]
    unknown: str = ""  # why some of what the line runs cannot be known; "" when all can


@functools.cache
def _parser() -> Parser:
    from agent import grammars  # loaded at the first line a rule must see, not at import

    return grammars.parser("bash")


def commands_in(line: str) -> ShellLine:
    """The commands `line` would run, in the order written, wrapped ones by every spelling."""
    commands: list[Command] = []
    unknown: list[str] = []
    _read(line, 0, commands, unknown)
    return ShellLine(tuple(commands), "; ".join(dict.fromkeys(unknown)))


def _read(line: str, depth: int, commands: list[Command], unknown: list[str]) -> None:
    if depth > MAX_DEPTH:
        unknown.append(f"it nests shells more than {MAX_DEPTH} deep")
        return
    root = _parser().parse(line.encode("utf-8", "surrogateescape")).root_node
    if root.has_error:
        unknown.append("it does not parse as a shell line")
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "command":
            _command(node, depth, commands, unknown)
        stack.extend(reversed(node.children))


def _command(node: Node, depth: int, commands: list[Command], unknown: list[str]) -> None:
    name = node.child_by_field_name("name")  # a command_name around the word itself
    parts = (name.named_children[:1] if name else []) + node.children_by_field_name("argument")
    words = tuple(_word(part) for part in parts)
    if not words:
        return
    found = unwrap(words, _stdin(node))
    pending = [found]
    while pending:
        one = pending.pop(0)
        commands.append(Command(tuple(one.forms)))
        unknown.extend(one.unknown)
        for script in one.scripts:
            _read(script, depth + 1, commands, unknown)
        pending.extend(unwrap(run) for run in one.runs)


def _stdin(node: Node) -> str | None:
    """The literal text a here-string or a here-document feeds the command; None when it
    is fed something else, or text built when it runs."""
    redirects = [c for c in node.children if c.type == "herestring_redirect"]
    parent = node.parent
    if parent is not None and parent.type == "redirected_statement":
        redirects += [
            c for c in parent.children if c.type in ("heredoc_redirect", "herestring_redirect")
        ]
    for redirect in redirects:
        if redirect.type == "herestring_redirect":
            fed = [_word(c) for c in redirect.named_children]
            return fed[0].text if len(fed) == 1 and fed[0].literal else None
        body = next((c for c in redirect.named_children if c.type == "heredoc_body"), None)
        if body is not None and all(c.type == "heredoc_content" for c in body.named_children):
            return _text(body)
        return None
    return None


def _word(node: Node) -> Word:
    """A word as the program receives it; not literal when its value comes when it runs."""
    kind, text = node.type, _text(node)
    if kind == "word":
        return Word(_unescaped(text), literal=not _EXPANDS.search(text))
    if kind == "number":
        return Word(text)
    if kind == "raw_string":
        return Word(text[1:-1])
    if kind == "ansi_c_string":
        return Word(_ansi_c(text[2:-1]))
    if kind == "string":
        parts = node.children
        if all(p.type in _LITERAL_STRING for p in parts):
            inner = "".join(_text(p) for p in parts if p.type == "string_content")
            return Word(re.sub(r'\\([$`"\\\n])', lambda m: "" if m[1] == "\n" else m[1], inner))
        return Word(text, literal=False)
    if kind == "concatenation":
        pieces = [_word(p) for p in node.children]
        literal = all(p.literal for p in pieces) and not _EXPANDS.search(text)
        return Word("".join(p.text for p in pieces) if literal else text, literal)
    return Word(text, literal=False)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "surrogateescape")


def _unescaped(text: str) -> str:
    """An unquoted word's backslashes read: `gi\\t` is `git`, a backslash-newline nothing."""
    return re.sub(r"\\(.)", lambda m: "" if m[1] == "\n" else m[1], text, flags=re.S)


def _ansi_c(body: str) -> str:
    """`$'...'`'s escapes (`\\x67it` is `git`), read as the shell reads them, near enough."""
    try:
        return codecs.decode(body.replace("\\'", "'"), "unicode_escape")
    except UnicodeDecodeError:
        return body
