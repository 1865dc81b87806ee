"""One-token variants of a suspect function: kiln's own candidates, judged by the tests.

Many bugs a test catches are one token wrong: `-` for `+`, `min` for `max`, `<` for `<=`,
a constant off by one, two names swapped, a `- 1` left out. A small model asked to
rewrite such a function often writes it back unchanged: it reads as right. Trying each
such change to the suspect lines costs one test run and no request, so kiln tries them
after the model's own rewrites; the tests decide, and the person sees the one-line diff.

The same goes for a test backwards (`if not (...)`), an index from the wrong end
(`[0]`/`[-1]`), `=` for `+=`, and a text left unnormalised (`.lower()`, `.strip()`). A
missing empty case is as common and as mechanical: `if not ARG: return None` at the
top of a Python function, for each argument and each usual empty answer, is tried too.
Rarer, so tried after all of those: a line too many (removed), and one local name used
where another was meant.

This is classic mutation- and template-based repair, kept to changes of one line, or one
added guard.
"""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from collections.abc import Iterator

from agent.repair.rarer import (
    STRING,
    in_string,
    local_names,
    rarer_variants,
    string_literals,
    swapped,
)
from agent.repair.suspects import Suspect
from agent.tools.syntax import error_count
from sandbox.frozen import frozen

MAX_VARIANTS = 2000  # a long suspect list is cut by the run's clock long before this
_SWAPS = [
    (r"(?<![+\-*/=<>!])\+(?![+=])", "-"),
    (r"(?<![+\-*/=<>!eE])-(?![-=>])", "+"),
    (r"(?<![*/])\*(?![*=])", "/"),
    (r"(?<![*/])/(?![/=*])", "*"),
    (r"\+=", "-="),
    (r"-=", "+="),
    (r"<=", "<"),
    (r">=", ">"),
    (r"<(?![=<])", "<="),
    (r">(?![=>])", ">="),
    (r"<=", ">="),
    (r">=", "<="),
    (r"(?<![<>=!])<(?![=<])", ">"),
    (r"(?<![<>=!-])>(?![=>])", "<"),
    (r"===", "!=="),
    (r"!==", "==="),
    (r"(?<![=!])==(?!=)", "!="),
    (r"!=(?!=)", "=="),
    (r"\bmin\b", "max"),
    (r"\bmax\b", "min"),
    (r"\band\b", "or"),
    (r"\bor\b", "and"),
    (r"&&", "||"),
    (r"\|\|", "&&"),
    (r"\bTrue\b", "False"),
    (r"\bFalse\b", "True"),
    (r"\btrue\b", "false"),
    (r"\bfalse\b", "true"),
    (r"\bnot ", ""),
    (r"!(?!=)", ""),
    (r" [+-] 1\b", ""),
    (r"\[0\]", "[-1]"),
    (r"\[-1\]", "[0]"),
    (r"\+=", "="),
    (r"(?<=[\w\]]) =(?= )", " +="),  # `total = x` in a loop, for `+=`
]
# Methods and functions one word from the one meant: each is tried for the other.
_NEIGHBOURS = [
    ("startswith", "endswith"), ("lstrip", "rstrip"), ("find", "rfind"), ("split", "rsplit"),
    ("upper", "lower"), ("isupper", "islower"), ("any", "all"), ("floor", "ceil"),
    ("int", "round"), ("keys", "values"), ("index", "rindex"), ("push", "unshift"),
    ("toUpperCase", "toLowerCase"), ("startsWith", "endsWith"), ("some", "every"),
]  # fmt: skip
_SWAPS += [(rf"(?<![\w$]){a}(?=\s*\()", b) for a, b in _NEIGHBOURS]
_SWAPS += [(rf"(?<![\w$]){b}(?=\s*\()", a) for a, b in _NEIGHBOURS]
_PYTHON_SWAPS = [
    (r"(?<![/=])/(?![/=*])", "//"),
    (r"//(?!=)", "/"),
    (r"\bis\b(?! not)", "is not"),
    (r"(?<=[\w)\]'\"] )in\b", "not in"),  # `for x not in` breaks the syntax: dropped
    (r"\bappend\b", "extend"),
    (r"\bextend\b", "append"),
]
_INT = re.compile(r"(?<![\w.])\d+(?![\w.])")

# `if x > 0:` / `elif ...:` / `while ...:`, and `if (x > 0) {`: a test that may be backwards
_CONDITIONS = (
    (re.compile(r"^(\s*(?:(?:el)?if|while)\s+)(.+)(:)$"), "not ({})"),
    (re.compile(r"^(\s*(?:\}\s*else\s+)?(?:if|while)\s*\()(.+)(\)\s*\{?)$"), "!({})"),
)
_ASSIGNMENT = re.compile(r"(\s*(?:let\s+|const\s+|var\s+)?[A-Za-z_][\w.]*\s*=\s*)(?!=)(.+?)(;?)$")
_PLAIN = re.compile(r"[\w.]+(?:\[[^\[\]]*\]|\([^()]*\))*")  # a name, call or index: no parens
_NOT_TEXT = re.compile(
    r"(?:len|sum|int|float|sorted|list|dict|set|tuple|range|min|max|round|abs)\("
)
_NORMALISED = {"python": (".lower()", ".strip()"), "javascript": (".toLowerCase()", ".trim()")}
_TWO_ARGUMENTS = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\(([^(),=]+?),\s*([^(),=]+?)\)")
_SORTED = re.compile(r"\bsorted\([^()]*(?:\([^()]*\)[^()]*)*\)|\.sort\(\)")
_NAME = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*")
_SKIP = re.compile(r"\s*(#|//|/\*|\*|\"\"\"|'''|def |async def |function |class |@)")
# `NAME = 3` / `const NAME = /x/;`: a module-level constant a function reads
_CONSTANT = re.compile(
    r"^(?:export\s+)?(?:const\s+|let\s+|var\s+)?([A-Za-z_]\w*)\s*(?::[^=]+)?=\s*\S"
)
# `    NAME = 3` in a class body: upper case, so no local of a function
_CLASS_CONSTANT = re.compile(r"^\s+(?:static\s+)?([A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=\s*\S")
MAX_TABLE_LINES = 40


@frozen
class Variant:
    suspect: Suspect
    text: str  # the suspect's new text
    before: str  # the line as it was, stripped; "" for a guard added
    after: str  # the line as it becomes, stripped; "" for a line removed
    of_rewrite: bool = False  # part of the model's rewrite (agent/repair/partial.py)


def variants(suspects: list[Suspect], texts: tuple[str, ...] = ()) -> Iterator[Variant]:
    """Each one-token change to each suspect's lines and each missing empty case, the
    likeliest suspect first; then, as rarer, each line removed, one local name put for
    another, one attribute for another, and one quoted text for a like one from `texts`
    (the module, the failure) or for another separator. Without repeats and without
    changes that break the syntax."""
    return itertools.islice(checked(_all(suspects, string_literals(*texts))), MAX_VARIANTS)


def _all(suspects: list[Suspect], quoted: list[str]) -> Iterator[Variant]:
    for suspect in suspects:
        for number, line in _code_lines(suspect):
            for changed in line_variants(line, suspect.language):
                yield _replaced(suspect, number, changed)
        for text, guard in guards(suspect):
            yield Variant(suspect, text, "", guard)
    for suspect in suspects:
        names = local_names(suspect)
        for number, line in _code_lines(suspect):
            if not line.rstrip().endswith((":", "{", "(", "[", ",")):  # a line, not a block
                yield _replaced(suspect, number, None)
            code, comment = _split_comment(line, _comment_marker(suspect.language))
            for changed in rarer_variants(code, suspect, names, quoted):
                yield _replaced(suspect, number, changed + comment)


def checked(made: Iterator[Variant]) -> Iterator[Variant]:
    """`made` without repeats and without those that break the syntax their suspect had."""
    seen: set[str] = set()
    broken: dict[Suspect, int] = {}
    for variant in made:
        suspect = variant.suspect
        if suspect not in broken:
            broken[suspect] = _errors(suspect, suspect.text)
        if variant.text in seen or _errors(suspect, variant.text) > broken[suspect]:
            continue
        seen.add(variant.text)
        yield variant


def _code_lines(suspect: Suspect) -> Iterator[tuple[int, str]]:
    """The suspect's lines a variant may change: not its `def`, comments or docstrings."""
    quoted = False  # inside a docstring or other triple-quoted text
    for number, line in enumerate(suspect.text.split("\n")):
        was_quoted = quoted
        quoted ^= (line.count('"""') + line.count("'''")) % 2 == 1
        if not (was_quoted or _SKIP.match(line) or not line.strip()):
            yield number, line


def _replaced(suspect: Suspect, number: int, changed: str | None) -> Variant:
    """`suspect` with line `number` changed, or removed when `changed` is None."""
    lines = suspect.text.split("\n")
    line = lines[number]
    new = [*lines[:number], *([] if changed is None else [changed]), *lines[number + 1 :]]
    return Variant(suspect, "\n".join(new), line.strip(), (changed or "").strip())


def line_variants(line: str, language: str = "python") -> list[str]:
    """`line` with one token changed, in a fixed order: operators, numbers, then swaps."""
    code, comment = _split_comment(line, _comment_marker(language))
    out: list[str] = []

    def add(changed: str) -> None:
        if changed != code and changed not in out:
            out.append(changed)

    for changed in swapped(code, _SWAPS + (_PYTHON_SWAPS if language == "python" else [])):
        add(changed)
    for condition, negated in _CONDITIONS:
        tested = condition.match(code)
        if tested and not tested.group(2).startswith(("not ", "!")):
            head, test, tail = tested.groups()
            add(head + negated.format(test) + tail)
    # In strings too: a count inside a regular expression is off by one as often as any.
    for match in _INT.finditer(code):
        value = int(match.group())
        for other in (value + 1, value - 1):
            if other >= 0:
                add(code[: match.start()] + str(other) + code[match.end() :])
    for match in re.finditer(r"(?<=[\w)\]])[)\]]", code):  # `f(x)` -> `f(x - 1)`, not `f( - 1)`
        if not in_string(code, match.start()):
            for tail in (" - 1", " + 1"):
                add(code[: match.start()] + tail + code[match.start() :])
    returned = re.match(r"(\s*return\s+)(.+?)(;?)$", code)
    if returned:
        head, expression, end = returned.groups()
        for tail in (" - 1", " + 1"):
            add(f"{head}({expression}){tail}{end}")
    valued = returned or _ASSIGNMENT.match(code)
    if valued:  # a value that may need normalising: a slice or a name gets `.lower()` etc.
        head, expression, end = valued.groups()
        if _PLAIN.fullmatch(expression) and not _NOT_TEXT.match(expression):
            for call in _NORMALISED.get(language, ()):
                add(f"{head}{expression}{call}{end}")
    for match in _TWO_ARGUMENTS.finditer(code):  # `f(a, b)` -> `f(b, a)`
        if not in_string(code, match.start()):
            name, first, second = match.groups()
            add(f"{code[: match.start()]}{name}({second}, {first}){code[match.end() :]}")
    for match in _SORTED.finditer(code):  # the other order
        if not in_string(code, match.start()):
            sep = "" if match.group().endswith("()") else ", "
            add(f"{code[: match.end() - 1]}{sep}reverse=True){code[match.end() :]}")
    for a, b in _pairs(list(STRING.finditer(code))):
        add(code[: a.start()] + b.group() + code[a.end() : b.start()] + a.group() + code[b.end() :])
    for match in re.finditer(r"(?<![\w.])([\w.]+)(\s*[-/]\s*)([\w.]+)(?![\w.(\[])", code):
        left, op, right = match.groups()
        if not in_string(code, match.start()) and _NAME.fullmatch(left) and left != right:
            add(code[: match.start()] + right + op + left + code[match.end() :])
    return [changed + comment for changed in out]


_EMPTY_ANSWERS = ("return None", "return 0", "return []", 'return ""', "return {}", "return False")


def guards(suspect: Suspect) -> list[tuple[str, str]]:
    """`suspect` with `if not ARG: <empty answer>` as its first statement, for each
    argument (not self or cls) and answer, with the guard as one line; Python only."""
    if suspect.language != "python":
        return []
    source = textwrap.dedent(suspect.text)
    try:
        function = ast.parse(source).body[0]
    except (SyntaxError, IndexError):
        return []
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return []
    args = function.args
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    names = [n for n in names if n not in ("self", "cls")]
    body = function.body
    documented = isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    first = body[1] if documented and len(body) > 1 else body[0]
    if first.lineno == function.lineno:  # `def f(x): return x`: no line of its own to precede
        return []
    lines = suspect.text.split("\n")
    at = first.lineno - 1  # the same line in the dedented text and the original
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    made = []
    for name in names:
        answers = [*_EMPTY_ANSWERS, f'raise ValueError("{name} is empty")']
        for answer in answers:
            guard = f"{indent}if not {name}:\n{indent}    {answer}"
            made.append(("\n".join([*lines[:at], guard, *lines[at:]]), f"if not {name}: {answer}"))
    return made


def constants(suspects: list[Suspect], texts: dict[str, str]) -> list[Suspect]:
    """Module-level constants the suspects read (an upper-case name bound to a number) and
    a class's own (the same in its body), each as a suspect of its own right after the
    first suspect that reads it; tables over several lines (a dict or list literal) after
    all of them, as they have many lines to vary and a bug in one is rarer."""
    placed: list[Suspect] = []
    tables: list[Suspect] = []
    taken: set[tuple[str, int]] = set()
    for suspect in suspects:
        placed.append(suspect)
        lines = texts.get(suspect.path, "").split("\n")
        for number, line in enumerate(lines, 1):
            match = _CONSTANT.match(line) or _CLASS_CONSTANT.match(line)
            if not match or (suspect.path, number) in taken:
                continue
            end = _table_end(lines, number)
            if end and re.search(rf"\b{re.escape(match.group(1))}\b", suspect.text):
                taken.add((suspect.path, number))
                text = "\n".join(lines[number - 1 : end])
                found = Suspect(suspect.path, match.group(1), number, end, text)
                (placed if end == number else tables).append(found)
    return placed + tables


def _table_end(lines: list[str], number: int) -> int:
    """The last line of the constant that starts on line `number`: itself, or for a table
    over several lines (`NAME = {`), the line that closes it at the same indent; 0 for a
    table too long to be one constant's bug."""
    line = lines[number - 1]
    closer = {"(": ")", "[": "]", "{": "}"}.get(line.rstrip()[-1:])
    if closer is None:
        return number
    indent = line[: len(line) - len(line.lstrip())]
    for end in range(number, min(len(lines), number + MAX_TABLE_LINES)):
        if lines[end].startswith(indent + closer):
            return end + 1
    return 0


def _errors(suspect: Suspect, text: str) -> int:
    source = textwrap.dedent(text)
    if suspect.language == "python":  # tree-sitter takes a body left empty for fine
        try:
            ast.parse(source)
        except SyntaxError:
            return 1 + error_count(suspect.path, source.encode())
    return error_count(suspect.path, source.encode())


def _comment_marker(language: str) -> str:
    return "#" if language in ("python", "ruby", "") else "//"


def _split_comment(line: str, marker: str) -> tuple[str, str]:
    """The code of `line` and its trailing comment, which no variant touches."""
    for match in re.finditer(rf"\s+{re.escape(marker)}", line):
        if not in_string(line, match.start()):
            return line[: match.start()], line[match.start() :]
    return line, ""


def _pairs(items: list[re.Match[str]]) -> Iterator[tuple[re.Match[str], re.Match[str]]]:
    for i, first in enumerate(items):
        for second in items[i + 1 :]:
            if first.group() != second.group():
                yield first, second
