"""Tags per language on a small real file each, and the files that give none."""

from __future__ import annotations

import pytest

from agent.context.tags import MAX_FILE_BYTES, extract_tags, file_record

SAMPLES = {
    "shop.py": (
        "from billing import charge\n"
        "class Cart(Base):\n"
        "    def total(self):\n"
        "        return charge(self)\n"
        "def checkout():\n"
        "    Cart().total()\n",
        {("Cart", "class", 2, 4), ("total", "method", 3, 4), ("checkout", "function", 5, 6)},
        {"charge", "Base", "Cart", "total"},
    ),
    "shop.js": (
        "class Cart extends Base {\n  total() { return charge(this); }\n}\n"
        "function checkout() { new Cart().total(); }\n",
        {("Cart", "class", 1, 3), ("total", "method", 2, 2), ("checkout", "function", 4, 4)},
        {"Base", "charge", "Cart", "total"},
    ),
    "shop.ts": (
        "interface Priced { price(): number }\n"
        "class Cart implements Priced {\n  price(): number { return charge(1); }\n}\n",
        {("Priced", "class", 1, 1), ("Cart", "class", 2, 4), ("price", "method", 3, 3)},
        {"Priced", "charge"},
    ),
    "shop.go": (
        "package shop\ntype Cart struct{}\n"
        "func (c *Cart) Total() int { return charge(c) }\n"
        "func charge(c *Cart) int { return 1 }\n",
        {("Cart", "class", 2, 2), ("Total", "method", 3, 3), ("charge", "function", 4, 4)},
        {"Cart", "charge"},
    ),
    "shop.rs": (
        "struct Cart { n: i32 }\nimpl Cart {\n    fn total(&self) -> i32 { charge(self) }\n}\n"
        "fn charge(c: &Cart) -> i32 { c.n }\n",
        {("Cart", "class", 1, 1), ("total", "method", 3, 3), ("charge", "function", 5, 5)},
        {"Cart", "charge"},
    ),
    "Shop.java": (
        "class Cart {\n  int total() { return charge(1); }\n}\n",
        {("Cart", "class", 1, 3), ("total", "method", 2, 2)},
        {"charge"},
    ),
    "shop.c": (
        "struct cart { int n; };\nint charge(struct cart *c) { return helper(c->n); }\n",
        {("cart", "class", 1, 1), ("charge", "function", 2, 2)},
        {"helper"},
    ),
    "shop.cpp": (
        "class Cart {\n public:\n  int total();\n};\nint Cart::total() { return charge(); }\n",
        {("Cart", "class", 1, 4), ("total", "method", 3, 3), ("total", "method", 5, 5)},
        {"charge"},
    ),
}


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_definitions_and_references_per_language(path: str) -> None:
    source, definitions, references = SAMPLES[path]
    tags = extract_tags(path, source.encode())
    found = {(t.name, t.def_kind, t.line, t.end_line) for t in tags if t.kind == "def"}
    assert found == definitions
    assert references <= {t.name for t in tags if t.kind == "ref"}
    assert all(t.file == path and t.line >= 1 for t in tags)


def test_a_method_call_is_kept_apart_from_a_bare_call() -> None:
    _, counts = file_record("a.py", b"list(x)\nx.append(1)\nx.append(2)\n")
    assert counts == {"list": 1, ".append": 2}


def test_signature_is_the_definition_line() -> None:
    definitions, _ = file_record("a.py", b"class A:\n    def run(self, n: int) -> None:\n  pass\n")
    assert [d[4] for d in definitions] == ["class A:", "    def run(self, n: int) -> None:"]


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00def f(): pass",  # binary
        b"def f():\n    return '\xff\xfe'\n",  # not UTF-8
        b"def f():\n    pass\n" + b"#" * MAX_FILE_BYTES,  # too big
    ],
)
def test_files_that_give_no_tags(data: bytes) -> None:
    assert extract_tags("odd.py", data) == []
    assert file_record("odd.py", data) == ((), {})


def test_unknown_languages_and_broken_code_do_not_raise() -> None:
    assert extract_tags("notes.txt", b"def f(): pass") == []
    broken = extract_tags("bad.py", b"def f(:\n  class\n))) def g(): pass\n")
    assert isinstance(broken, list)
