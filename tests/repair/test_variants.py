"""Must hold: after the model's own rewrites fail, kiln tries one-token variants of the
suspect functions and of the constants they read; the tests pick the one kept, the person
is told what changed and that it was kiln's change, and nothing else is left changed."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from agent.events import CandidateKind, CandidatesTried, Finished, StopReason
from agent.present import candidates_line
from agent.repair import rewrites
from agent.repair.suspects import Suspect
from agent.repair.variants import constants, guards, line_variants, local_names, variants
from agent.settings import trust
from tests.conftest import make_git_repo
from tests.repair.test_rewrites import _run, block


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("    return a - b", "    return a + b"),
        ("    weight = min(kg, vol)", "    weight = max(kg, vol)"),
        ("    return (total + per_page) // per_page", "    return (total + per_page - 1) // per_page"),
        ("    if n <= limit:", "    if n < limit:"),
        ('    return x * UNITS["litre"] / UNITS["gallon"]', '    return x * UNITS["gallon"] / UNITS["litre"]'),
        ('DASHES = re.compile(r"-{3,}")', 'DASHES = re.compile(r"-{2,}")'),  # a count in a pattern
        ("  if (a && !b) { return x; }", "  if (a || !b) { return x; }"),
        ("    return self.balance - self.limit()", "    return self.balance + self.limit()"),
        ("    return ranked[0]", "    return ranked[-1]"),
        ("    if key in seen:", "    if key not in seen:"),
        ("    if (isEmpty(cart)) {", "    if (!(isEmpty(cart))) {"),  # a test backwards
        ("    elif count > limit:", "    elif not (count > limit):"),
        ("        total = price * qty", "        total += price * qty"),  # set, not summed
        ("    pages = total / size", "    pages = total // size"),
        ("    out.append(row)", "    out.extend(row)"),
        ("        name = key[len(PREFIX) :]", "        name = key[len(PREFIX) :].lower()"),  # unnormalised
        ("    return sorted(ages)", "    return sorted(ages, reverse=True)"),
        ("    if path.startswith(root):", "    if path.endswith(root):"),
        ("    return fmt(total, cur)", "    return fmt(cur, total)"),
        ("  const id = raw.slice(1);", "  const id = raw.slice(1).trim();"),
    ],
)  # fmt: skip
def test_the_fix_is_among_the_line_variants(line: str, expected: str) -> None:
    language = "javascript" if line.rstrip().endswith(("{", ";", "}")) else "python"
    assert expected in line_variants(line, language)


def test_variants_leave_comments_alone_and_do_not_make_nonsense() -> None:
    python = line_variants("    return total // size  # whole pages - 1", "python")
    assert python and all(v.endswith("  # whole pages - 1") for v in python)
    assert not any("/*" in v or "*/" in v for v in python)  # `//` is one operator
    assert "    return total / size  # whole pages - 1" in python  # true division for floor
    called = line_variants("    return self.balance - self.limit()", "python")
    assert not any("( - 1)" in v or "limit - self.balance()" in v for v in called)
    assert not any(v.endswith(".strip()") for v in line_variants("    return len(a) + b"))
    javascript = line_variants("  return a - b; // a - b", "javascript")
    assert javascript and all(v.endswith("; // a - b") for v in javascript)


def test_variants_keep_the_syntax_and_come_likeliest_suspect_first() -> None:
    first = Suspect("m.py", "f", 1, 2, "def f(a, b):\n    return a - b")
    second = Suspect("m.py", "g", 4, 5, "def g(x):\n    return x < 3")
    made = list(variants([first, second]))
    names = [v.suspect.name for v in made]
    assert names[:3] == ["f", "f", "f"] and "g" in names[3:]
    assert ("return a - b", "return a + b") in {(v.before, v.after) for v in made}
    assert all(v.text.startswith("def ") for v in made)  # the `def` line is never changed
    documented = Suspect(
        "m.py", "h", 1, 5, 'def h(a):\n    """Half of a,\n    less 1."""\n    return a - 1'
    )
    assert {v.before for v in variants([documented]) if v.before} == {"return a - 1"}
    assert len({v.text for v in made}) == len(made)


def test_rarer_variants_come_after_every_one_token_one_remove_a_line_or_swap_a_name() -> None:
    text = (
        "def best(items, limit):\n    top = 0\n    for item in items:\n"
        "        if item > limit:\n            top = item\n        top -= 1\n    return top"
    )
    suspect = Suspect("m.py", "best", 1, 7, text)
    assert local_names(suspect) == ["items", "limit", "top", "item"]
    made = [(v.before, v.after) for v in variants([suspect])]
    first_rarer = made.index(("top = 0", ""))
    assert all(before for before, _ in made[first_rarer:])  # the guards came before
    assert ("top -= 1", "") in made[first_rarer:]  # a line too many
    assert ("top = item", "top = limit") in made[first_rarer:]  # one name for another
    assert ("if item > limit:", "") not in made  # a block's head is never removed alone
    assert ("return top", "return top") not in made
    assert not any(after == "for item in items" for _, after in made)
    volume = Suspect("m.py", "v", 1, 2, "def v(r):\n    return 4 * r ** 3  # 4 * r ** 3")
    rarer = [v.after for v in variants([volume])]
    assert "return 4 * r * 3  # 4 * r ** 3" in rarer and "return 4 ** r ** 3  # 4 * r ** 3" in rarer
    assert rarer.index("return 4 * r * 3  # 4 * r ** 3") > rarer.index(
        "return 4 * r ** 4  # 4 * r ** 3"
    )
    only_line = Suspect("m.py", "f", 1, 2, "def f(x):\n    return x")
    assert ("return x", "") not in {(v.before, v.after) for v in variants([only_line])}


def test_a_quoted_text_or_an_attribute_is_varied_to_one_like_it() -> None:
    text = 'def label(self):\n    return self.first + ";" + self.last + "colour"'
    suspect = Suspect("m.py", "label", 1, 2, text)
    failure = "AssertionError: 'Ada,Lovelace' != 'Ada;Lovelace'\n    expected 'color'"
    made = {v.after for v in variants([suspect], (failure,))}
    assert 'return self.first + "," + self.last + "colour"' in made  # another separator
    assert 'return self.first + ";" + self.last + "color"' in made  # as the tests quote it
    assert 'return self.last + ";" + self.last + "colour"' in made  # another attribute
    assert "return self.first + ';' + self.last + 'colour'" not in made  # quotes are kept
    pattern = Suspect("m.py", "f", 1, 2, 'def f(s):\n    return re.sub(r"-", "_", s)')
    assert not any('r","' in v.after for v in variants([pattern]))  # r"" is a pattern: kept
    assert local_names(
        Suspect("m.py", "g", 1, 2, "def g(xs: dict[str, int], n: int = 3):\n    return n")
    ) == ["xs", "n"]  # no annotation is a name


def test_constants_a_suspect_reads_follow_it_and_tables_come_last() -> None:
    source = (
        'MULTIPLIER = 3\nNAME: str = "x"\nUNUSED = 9\nTABLE = {\n    "a": 1,\n}\n\n\n'
        "def delay(n):\n    return MULTIPLIER ** n * TABLE\n\n\n"
        "class Fee:\n    RATE = 5\n\n    def due(self):\n        return self.RATE\n"
    )
    delay = Suspect("b.py", "delay", 9, 10, "def delay(n):\n    return MULTIPLIER ** n * TABLE")
    due = Suspect("b.py", "due", 16, 17, "    def due(self):\n        return self.RATE")
    placed = constants([delay, due], {"b.py": source})
    assert [(s.name, s.line, s.end_line) for s in placed] == [
        ("delay", 9, 10),
        ("MULTIPLIER", 1, 1),
        ("due", 16, 17),
        ("RATE", 14, 14),  # a class's own constant
        ("TABLE", 4, 6),  # after all the others: a table has many lines to vary
    ]  # UNUSED is not read
    assert placed[-1].text == 'TABLE = {\n    "a": 1,\n}'
    assert any(v.after == '"a": 2,' for v in variants(placed[-1:]))


# The tested function is right; what it calls has `-` for `+`; the model only ever writes
# the function back unchanged.
ACCOUNTS = {
    "bank/__init__.py": "from bank.account import can_withdraw\n",
    "bank/account.py": (
        "OVERDRAFT = 100\n\n\ndef available(balance):\n    return balance - OVERDRAFT\n\n\n"
        "def can_withdraw(balance, amount):\n    return amount <= available(balance)\n"
    ),
    "tests/__init__.py": "",
    "tests/test_account.py": (
        "import unittest\n\nfrom bank import can_withdraw\n\n\n"
        "class T(unittest.TestCase):\n    def test_overdraft(self):\n"
        "        self.assertTrue(can_withdraw(50, 120))\n"
        "        self.assertFalse(can_withdraw(50, 160))\n"
    ),
}


async def test_variants_run_for_as_long_as_the_rewrite_before_them_took(
    docker_ready: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No count of variants between two sampled rewrites: the time the last rewrite took.
    monkeypatch.setattr(rewrites, "MIN_VARIANTS_PER_SAMPLE", 1)
    repo = make_git_repo(tmp_path / "repo", ACCOUNTS)
    unchanged = block(
        "def can_withdraw(balance, amount):\n    return amount <= available(balance)\n"
    )
    slow_same = {
        **block("def available(balance):\n    return balance - OVERDRAFT\n"),
        "fault": "slow_first_token",
        "delay_s": 10.0,
    }
    events, diff, requests = await _run(repo, [unchanged, slow_same])
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.passing == 1 and tried.how is CandidateKind.VARIANT and tried.tried > 3
    assert "+    return balance + OVERDRAFT" in diff
    assert len(requests) == 2  # the variants had the 10 s: no sampled rewrite was asked for


async def test_a_variant_that_passes_is_kept_when_no_rewrite_does(
    docker_ready: None, tmp_path: Path
) -> None:
    repo = make_git_repo(tmp_path / "repo", ACCOUNTS)
    unchanged = block(
        "def can_withdraw(balance, amount):\n    return amount <= available(balance)\n"
    )
    same = block("def available(balance):\n    return balance - OVERDRAFT\n")
    events, diff, requests = await _run(repo, [unchanged, same])
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.passing == 1 and tried.how is CandidateKind.VARIANT
    assert (
        tried.chosen
        == "changed `return balance - OVERDRAFT` to `return balance + OVERDRAFT` in available (bank/account.py)"
    )
    assert candidates_line(tried).startswith(f"Tried {tried.tried} fixes: 1 passes; kept changed")
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.status == "done"
    assert finished.summary.startswith("Changed `return balance - OVERDRAFT`")
    # One line changed, and nothing of the failed variants left behind.
    assert diff.count("\n+") - diff.count("\n+++") == 1
    assert "+    return balance + OVERDRAFT" in diff
    assert len(requests) == 2  # the two greedy rewrites; no agent step was needed


async def test_a_wrong_constant_the_suspect_reads_is_varied_too(
    docker_ready: None, tmp_path: Path
) -> None:
    files = {
        "backoff.py": "MULTIPLIER = 3\n\n\ndef delays(n):\n    return [MULTIPLIER**i for i in range(n)]\n",
        "test_backoff.py": (
            "import unittest\n\nfrom backoff import delays\n\n\n"
            "class T(unittest.TestCase):\n    def test_doubles(self):\n"
            "        self.assertEqual(delays(4), [1, 2, 4, 8])\n"
        ),
    }  # fmt: skip
    repo = make_git_repo(tmp_path / "repo", files)
    same = block("def delays(n):\n    return [MULTIPLIER**i for i in range(n)]\n")
    events, diff, _ = await _run(repo, [same])
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert (
        tried.how is CandidateKind.VARIANT
        and tried.chosen
        == "changed `MULTIPLIER = 3` to `MULTIPLIER = 2` in MULTIPLIER (backoff.py)"
    )
    assert events[-1].status == "done"
    assert "-MULTIPLIER = 3\n+MULTIPLIER = 2" in diff


# The tested function is right, but its variant `n // 1` never ends; the bug is in what it
# calls, tried after it.
HALVINGS = (
    "def halvings(n):\n    count = 0\n    while n > 1:\n        n = n // 2\n"
    "        count += 1\n    return scale(count)\n"
)
HALVING_FILES = {
    "bits.py": f"def scale(c):\n    return c * 2\n\n\n{HALVINGS}",
    "test_bits.py": "import unittest\n\nfrom bits import halvings\n\n\n"
                    "class T(unittest.TestCase):\n    def test_eight(self):\n"
                    "        self.assertEqual(halvings(8), 3)\n",
}  # fmt: skip


async def _halvings(repo: Path) -> tuple[list[Any], str]:
    """The halvings task, the model writing each suspect back unchanged: events, diff."""
    same = [block(HALVINGS), block("def scale(c):\n    return c * 2\n")]
    events, diff, _ = await asyncio.wait_for(_run(repo, same), 90)
    return events, diff


async def test_a_variant_whose_tests_hang_is_cut_short(
    docker_ready: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rewrites, "MIN_TESTS_S", 2.0)  # the configured limit stays 600 s
    events, diff = await _halvings(make_git_repo(tmp_path / "repo", HALVING_FILES))
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.chosen == "changed `return c * 2` to `return c * 1` in scale (bits.py)"
    assert events[-1].status == "done" and "+    return c * 1\n" in diff


async def test_the_wall_clock_mid_variant_leaves_no_variant_behind(
    docker_ready: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As above, but the clock runs out while the variant `n // 1` hangs: what is left to
    # show or apply is the repository as it was, not that variant.
    monkeypatch.setattr(rewrites, "MIN_TESTS_S", 120.0)  # it hangs past the clock
    files = {**HALVING_FILES, ".kiln.toml": "[limits]\ntimeout_s = 10\n"}
    repo = make_git_repo(tmp_path / "repo", files)
    trust.trust(repo)  # a repository's wall clock is honoured from a trusted file only
    events, diff = await _halvings(repo)
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.stop_reason == StopReason.WALL_CLOCK, (
        finished
    )
    assert diff == ""


async def test_the_model_is_asked_about_the_likeliest_suspects_variants_cover_the_rest(
    docker_ready: None, tmp_path: Path
) -> None:
    wrappers = "".join(f"def f{i}(x):\n    return x\n\n\n" for i in (1, 2, 3))
    files = {
        "chain.py": f"{wrappers}def f4(x):\n    return f5(x)\n\n\ndef f5(x):\n    return x - 7\n",
        "test_chain.py": "import unittest\n\nfrom chain import f1, f2, f3, f4\n\n\n"
                         "class T(unittest.TestCase):\n    def test_chain(self):\n"
                         "        self.assertEqual(f1(f2(f3(f4(1)))), 8)\n",
    }  # fmt: skip
    repo = make_git_repo(tmp_path / "repo", files)
    same = [block(f"def f{i}(x):\n    return x\n") for i in (1, 2, 3)]
    events, _, requests = await _run(repo, same)
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.chosen == "changed `return x - 7` to `return x + 7` in f5 (chain.py)"
    asks = [r.body["messages"][-1]["content"] for r in requests]
    # The profile has 3 candidates: f1 to f3 are asked about (greedy, then sampled); f4
    # and f5 (what f4 calls, the fifth suspect) are only varied.
    asked = {re.search(r"Fix the bug in `(\w+)`", a).group(1) for a in asks}  # type: ignore[union-attr]
    assert asked == {"f1", "f2", "f3"}


def test_a_missing_empty_case_is_guarded_after_the_docstring() -> None:
    median = Suspect(
        "stats.py", "median", 3, 6,
        '    def median(self, values):\n        """The middle one."""\n'
        "        ordered = sorted(values)\n        return ordered[len(ordered) // 2]",
    )  # fmt: skip
    made = {v.after: v.text for v in variants([median]) if not v.before}
    assert made["if not values: return None"] == (
        '    def median(self, values):\n        """The middle one."""\n'
        "        if not values:\n            return None\n"
        "        ordered = sorted(values)\n        return ordered[len(ordered) // 2]"
    )
    assert 'if not values: raise ValueError("values is empty")' in made
    assert not any("self" in guard for guard in made)  # never `if not self`
    assert guards(Suspect("m.py", "f", 1, 1, "def f(x): return x")) == []
    js = Suspect("a.js", "median", 1, 3, "function median(values) {\n  return values[0];\n}")
    assert all(v.before for v in variants([js]))  # guards are for Python only


async def test_a_guard_that_passes_is_kept_and_named_as_added(
    docker_ready: None, tmp_path: Path
) -> None:
    median = (
        "def median(values):\n    ordered = sorted(values)\n    return ordered[len(ordered) // 2]\n"
    )
    files = {
        "stats.py": median,
        "test_stats.py": "import unittest\n\nfrom stats import median\n\n\n"
                         "class T(unittest.TestCase):\n    def test_empty(self):\n"
                         "        self.assertIsNone(median([]))\n",
    }  # fmt: skip
    repo = make_git_repo(tmp_path / "repo", files)
    events, diff, _ = await _run(repo, [block(median)])
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.chosen == "added `if not values: return None` to median (stats.py)"
    assert events[-1].status == "done"
    assert "+    if not values:\n+        return None\n" in diff


async def test_a_rewrite_that_came_closer_is_varied_first(
    docker_ready: None, tmp_path: Path
) -> None:
    # No one-token change to the original passes; the model's rewrite passes two tests of
    # three, and one token of it is still wrong.
    files = {
        "shop/__init__.py": "from shop.cart import total\n",
        "shop/cart.py": "def total(prices, tax):\n    return sum(prices) * tax / 100\n",
        "tests/__init__.py": "",
        "tests/test_cart.py": "import unittest\n\nfrom shop import total\n\n\n"
        "class T(unittest.TestCase):\n"
        "    def test_one(self):\n        self.assertEqual(total([10], 0), 10)\n\n"
        "    def test_two(self):\n        self.assertEqual(total([10, 20], 0), 30)\n\n"
        "    def test_tax(self):\n        self.assertEqual(total([10], 10), 11)\n",
    }
    repo = make_git_repo(tmp_path / "repo", files)
    closer = block("def total(prices, tax):\n    return sum(prices) * (100 - tax) / 100\n")
    events, diff, requests = await _run(repo, [closer])
    [tried] = [e for e in events if isinstance(e, CandidatesTried)]
    assert tried.tried == 2 and tried.passing == 1 and tried.how is CandidateKind.VARIANT
    assert tried.chosen == (
        "rewrote total in shop/cart.py, then changed `return sum(prices) * (100 - tax) / 100`"
        " to `return sum(prices) * (100 + tax) / 100` in total (shop/cart.py)"
    )
    assert events[-1].status == "done"
    assert "+    return sum(prices) * (100 + tax) / 100" in diff
    assert len(requests) == 1
