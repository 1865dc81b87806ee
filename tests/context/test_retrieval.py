"""Must hold: the failing tests lead to the definitions they use, through a package's
re-exports, and one call further; the package's `__init__.py` is not what is shown."""

from __future__ import annotations

from pathlib import Path

from agent.context.index import RepoIndex
from agent.context.retrieval import definitions_for_tests, failing_test_names
from agent.prompts.briefing import _quote_found, is_test_file
from tests.conftest import make_git_repo

PACKAGE = {
    "shapes/__init__.py": "from .area import square_area, total_area\nfrom .units import scale\n",
    "shapes/area.py": (
        "from .units import scale\n\n\ndef square_area(side):\n    return scale(side) * side\n\n\n"
        "def total_area(sides):\n    return sum(square_area(s) for s in sides)\n"
    ),
    "shapes/units.py": "def scale(x):\n    return x + 1  # the bug: should be x\n",
    "shapes/unrelated.py": "def banner():\n    return 'shapes'\n",
    "tests/test_shapes.py": (
        "import unittest\nfrom shapes import square_area, banner_free\n\n\n"
        "class AreaTest(unittest.TestCase):\n"
        "    def test_square(self):\n        self.assertEqual(square_area(3), 9)\n\n"
        "    def test_other(self):\n        self.assertTrue(banner_free())\n"
    ),
}


def found_in(repo: Path, failing: tuple[str, ...]) -> list[tuple[str, str, int]]:
    index = RepoIndex(repo)
    index.refresh()
    tests = {"tests/test_shapes.py": (repo / "tests/test_shapes.py").read_bytes()}

    def read(path: str) -> bytes | None:
        return (repo / path).read_bytes()

    found = definitions_for_tests(index.records(), tests, failing, read, is_test_file)
    return [(f.path, f.name, f.depth) for f in found]


def test_the_failing_test_leads_through_the_re_export_to_the_definition_and_its_callee(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo", PACKAGE)
    found = found_in(repo, ("test_square (tests.test_shapes.AreaTest.test_square)",))
    assert found[0] == ("shapes/area.py", "square_area", 0)
    assert ("shapes/units.py", "scale", 1) in found  # one call away: where the bug is
    assert not any(path in ("shapes/__init__.py", "shapes/unrelated.py") for path, _, _ in found)


def test_names_of_failing_tests_in_every_runners_spelling() -> None:
    assert failing_test_names(
        ["test_a (tests.test_x.T.test_a)", "tests/test_y.py::TestY::test_b", "test_c"]
    ) >= {"test_a", "test_b", "test_c", "TestY"}


def test_a_big_file_is_quoted_by_the_definitions_lines(tmp_path: Path) -> None:
    big = "".join(f"def filler_{i}(x):\n    return x + {i}\n\n\n" for i in range(600))
    big += "def target(x):\n    return x * 3\n"
    repo = make_git_repo(
        tmp_path / "repo",
        {
            "big.py": big,
            "tests/test_big.py": "from big import target\n\ndef test_t():\n    assert target(2) == 4\n",
        },
    )
    index = RepoIndex(repo)
    index.refresh()
    tests = {"tests/test_big.py": (repo / "tests/test_big.py").read_bytes()}
    found = definitions_for_tests(
        index.records(), tests, ("tests/test_big.py::test_t",), lambda p: (repo / p).read_bytes(),
        is_test_file,
    )  # fmt: skip
    [block] = _quote_found(found, {"big.py": big})
    assert block.startswith("big.py (lines 2401-2402):") and "return x * 3" in block
    assert "filler_3" not in block


def test_a_test_named_by_a_string_leads_to_what_it_calls_and_a_method_to_its_callees(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {
            "src/cart.js": (
                "const { discount } = require('./coupons');\nconst { cents } = require('./money');\n"
                "class Cart {\n  add(p) { this.p = cents(p); return this; }\n"
                "  total() { return this.p - discount(this.p); }\n}\nmodule.exports = { Cart };\n"
            ),
            "src/coupons.js": "function discount(c) { return c * 10; }\nmodule.exports = { discount };\n",
            "src/money.js": "function cents(t) { return t * 100; }\nmodule.exports = { cents };\n",
            "src/other.js": "function unrelated() { return 1; }\nmodule.exports = { unrelated };\n",
            "test/cart.test.js": (
                "const test = require('node:test');\nconst { Cart } = require('../src/cart');\n"
                "const { unrelated } = require('../src/other');\n\n"
                "test('unrelated', () => {\n  unrelated();\n});\n\n"
                "test('ten percent off', () => {\n  new Cart().add(1).total();\n});\n"
            ),
        },
    )
    index = RepoIndex(repo)
    index.refresh()
    tests = {"test/cart.test.js": (repo / "test/cart.test.js").read_bytes()}
    found = definitions_for_tests(
        index.records(), tests, ("ten percent off",), lambda p: (repo / p).read_bytes(),
        is_test_file,
    )  # fmt: skip
    names = {f.name: (f.depth, f.parent) for f in found}
    assert "unrelated" not in names  # only the failing test's lines are followed
    assert names["total"] == (0, "") and names["discount"] == (1, "total")
    assert names["cents"] == (1, "add")  # the method that calls it, not its class


def test_a_test_name_repeated_in_many_classes_is_followed_only_in_the_failing_one(
    tmp_path: Path,
) -> None:
    # As in more-itertools: every test class has a `test_basic`; a stub repeats signatures.
    files = {
        "lib/more.py": "def first(xs):\n    return xs[0]\n\n\ndef mark(xs):\n    return xs\n",
        "lib/more.pyi": "def first(xs): ...\ndef mark(xs): ...\n",
        "tests/test_shapes.py": (
            "import unittest\nfrom lib.more import first, mark\n\n\n"
            "class FirstTests(unittest.TestCase):\n"
            "    def test_basic(self):\n        self.assertEqual(first([1]), 1)\n\n\n"
            "class MarkTests(unittest.TestCase):\n"
            "    def test_basic(self):\n        self.assertEqual(mark([1]), [1])\n"
        ),
    }
    repo = make_git_repo(tmp_path / "repo", files)
    assert found_in(repo, ("test_basic (tests.test_shapes.MarkTests.test_basic)",)) == [
        ("lib/more.py", "mark", 0)
    ]
    pytest_id = found_in(repo, ("tests/test_shapes.py::FirstTests::test_basic",))
    assert pytest_id == [("lib/more.py", "first", 0)]
    # Without a class in the id, every `test_basic` counts.
    assert {name for _, name, _ in found_in(repo, ("test_basic",))} == {"first", "mark"}
