"""What running a repository's hook in the session's sandbox costs, against the same hook
run on the host, in the same run: a formatter as PostToolUse after each edit, N times each,
interleaved. Prints the medians and their ratio.

    .venv/bin/python bench/bench_hooks.py [--runs 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.hooks.config import Hook, HookEvent
from agent.hooks.runner import HookRunner
from sandbox.base import SandboxConfig
from sandbox.factory import create_sandbox

FORMATTER = (
    "import json, sys\n"
    "path = json.load(sys.stdin)['tool_input']['file_path']\n"
    "data = json.load(open(path))\n"
    "open(path, 'w').write(json.dumps(data, indent=2, sort_keys=True) + '\\n')\n"
)


def repo(root: Path) -> Path:
    (root / "tools").mkdir(parents=True)
    (root / "tools" / "fmt.py").write_text(FORMATTER)
    (root / "config.json").write_text('{"b": 1, "a": [1, 2]}')
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", *command], cwd=root, check=True, env={
            **os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b",
            "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"})  # fmt: skip
    return root


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = repo(Path(tmp) / "repo")
        sandbox = create_sandbox(root, SandboxConfig(backend="docker"))
        await sandbox.start()
        try:
            timings: dict[bool, list[float]] = {True: [], False: []}
            for where in [False, True] * runs:
                hook = Hook(HookEvent.POST_TOOL_USE, "python3 tools/fmt.py", in_sandbox=where)
                runner = HookRunner((hook,), root, "bench", dict(os.environ))
                runner.sandbox = sandbox
                started = time.perf_counter()
                said = await runner.after_tool(
                    "write_file", {"path": "config.json"}, True, "", lambda _e: None
                )
                timings[where].append(time.perf_counter() - started)
                assert not said, said  # the formatter ran and said nothing
        finally:
            await sandbox.close()
    host, boxed = (statistics.median(timings[w]) * 1000 for w in (False, True))
    print(f"formatter hook, median of {runs}: host {host:.1f} ms, sandbox {boxed:.1f} ms")
    print(f"sandbox / host: {boxed / host:.1f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    asyncio.run(main(parser.parse_args().runs))
