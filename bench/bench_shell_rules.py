"""What matching `run:` rules by parsing costs per command, against the regex split it
replaced, measured in the same run.

`.venv/bin/python bench/bench_shell_rules.py` prints, for a mix of commands a model runs
(a test run, a pipeline, a list, a wrapped push, `sh -c`, a here-document), the time of
`PermissionRules.verdict` per command with today's parse and with the old regex split
(kept below as it was), their ratio, and what loading the bash grammar costs once in a
fresh interpreter. The gate calls `verdict` for every `run` when any `run:` rule exists.
"""

from __future__ import annotations

import contextlib
import fnmatch
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.approval import Action
from agent.permissions import Effect, PermissionRules, parse_rule

COMMANDS = [
    "python -m pytest -q tests/test_dates.py",
    "cd src && FOO=1 npm test -- --watch=false 2>&1 | tail -n 40",
    "grep -rn 'def parse' agent/ | head -20; ls -la",
    "timeout 20 /usr/bin/git -C . push origin main",
    "sh -c 'make build && git status --short'",
    "cat > notes.txt <<'EOF'\nfirst line\nsecond line\nEOF\n",
    'for f in $(ls *.py); do python -m py_compile "$f" || echo "bad $f"; done',
    "sed -i 's/a - b/a + b/' stats/core.py && python -m unittest -q",
]
RULES = PermissionRules(
    tuple(
        [parse_rule(t, Effect.DENY, "bench") for t in ("run: git push*", "run: rm -rf /*")]
        + [parse_rule("run: make deploy*", Effect.ASK, "bench")]
        + [parse_rule(t, Effect.ALLOW, "bench") for t in ("run: npm test*", "run: pytest*")]
    )
)

# The split before parsing, as it was (agent/permissions.py before issue 47's part 3).
_SPLIT = re.compile(r"&&|\|\||[;|\n]|(?<![<>&])&(?![<>&])")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*\s*")


def old_subjects(subject: str) -> list[str]:
    whole = " ".join(subject.split())
    parts = []
    for part in _SPLIT.split(subject):
        part = part.strip().lstrip("({").rstrip(")}").strip()
        while _ASSIGNMENT.match(part):
            part = _ASSIGNMENT.sub("", part, count=1)
        for wrapper in ("sudo ", "env ", "exec ", "command ", "nohup ", "time "):
            while part.startswith(wrapper):
                part = part[len(wrapper) :].lstrip()
        if part:
            with contextlib.suppress(ValueError):
                part = " ".join(shlex.split(part))
            parts.append(" ".join(part.split()))
    return [whole, *parts] if parts else [whole]


def old_verdict(subject: str) -> Effect | None:
    subjects = old_subjects(subject)
    for effect in (Effect.DENY, Effect.ASK):
        for rule in RULES.rules:
            if rule.effect is effect and any(
                fnmatch.fnmatchcase(s, rule.pattern) for s in subjects
            ):
                return effect
    allows = [r for r in RULES.rules if r.effect is Effect.ALLOW]
    parts = subjects[1:] or subjects
    ok = all(any(fnmatch.fnmatchcase(s, r.pattern) for r in allows) for s in parts)
    return Effect.ALLOW if ok else None


def new_verdict(subject: str) -> Effect | None:
    ruling = RULES.verdict(Action.COMMAND, subject)
    return ruling.effect if ruling else None


def per_command_us(verdict: object, rounds: int) -> float:
    """The median over rounds of the mean time of one verdict over the mix, in µs."""
    assert callable(verdict)
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        for command in COMMANDS:
            verdict(command)
        samples.append((time.perf_counter() - started) / len(COMMANDS) * 1e6)
    return statistics.median(samples)


def first_load_ms() -> float:
    probe = (
        "import time; t = time.perf_counter()\n"
        "from agent.shell.parse import commands_in; commands_in('git push')\n"
        "print((time.perf_counter() - t) * 1000)\n"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True)
    return float(done.stdout.strip())


def main() -> None:
    new_verdict(COMMANDS[0])  # the grammar loaded before timing
    rounds = 400
    for _ in range(3):  # interleaved, so a drift of the machine touches both alike
        old = per_command_us(old_verdict, rounds)
        new = per_command_us(new_verdict, rounds)
        print(f"per command: parsed {new:7.1f} µs   regex split {old:6.1f} µs   {new / old:4.1f}x")
    loads = sorted(first_load_ms() for _ in range(5))
    print(f"first line in a fresh process (grammar loaded, parsed): median {loads[2]:.1f} ms")


if __name__ == "__main__":
    main()
