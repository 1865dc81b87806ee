"""Grammars load one at a time: the same language as the pack gives, without the pack's
import where the grammar is a module of its own."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tree_sitter_language_pack import get_language

from agent import grammars

SOURCES = {
    "python": b"def add(a, b):\n    return a + b\n",
    "go": b"package m\n\nfunc Add(a, b int) int { return a + b }\n",
    "csharp": b"class C { int Add(int a, int b) => a + b; }\n",  # the pack's own package
    "yaml": b"a: [1, 2]\n",
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_grammar_parses_as_the_packs_own(name: str) -> None:
    ours = grammars.parser(name).parse(SOURCES[name]).root_node
    theirs = grammars.Parser(get_language(name)).parse(SOURCES[name]).root_node  # type: ignore[arg-type]
    assert not ours.has_error
    assert str(ours) == str(theirs)


def test_a_python_grammar_loads_without_the_pack() -> None:
    probe = (
        "import sys\n"
        "from agent import grammars\n"
        "grammars.parser('python').parse(b'x = 1\\n')\n"
        "print('tree_sitter_language_pack' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_an_unknown_grammar_is_a_lookup_error() -> None:
    with pytest.raises(LookupError):
        grammars.language("no-such-language")
