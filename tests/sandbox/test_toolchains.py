"""The default image (`kiln sandbox bootstrap`) carries what real projects build and test
with: pip and venv, make and a C compiler, node and npm."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.common import WorkspaceSandbox
from tests.conftest import make_git_repo

MakeSandbox = Callable[..., WorkspaceSandbox]

pytestmark = pytest.mark.docker


async def test_the_common_toolchains_are_there(tmp_path: Path, make_sandbox: MakeSandbox) -> None:
    repo = make_git_repo(
        tmp_path / "repo",
        {
            "hello.c": '#include <stdio.h>\nint main(void) { puts("compiled"); return 0; }\n',
            "Makefile": "hello: hello.c\n\tcc -o hello hello.c\n",
            "package.json": '{"name": "t", "version": "1.0.0", "scripts": {"test": "node --test"}}\n',
            "add.test.js": (
                "const test = require('node:test');\nconst assert = require('node:assert');\n"
                "test('adds', () => assert.strictEqual(1 + 1, 2));\n"
            ),
        },
    )
    sandbox = make_sandbox(repo)
    await sandbox.start()
    built = await sandbox.exec("make hello && ./hello", timeout=120)
    assert built.ok and "compiled" in built.output, built.output
    npm = await sandbox.exec("npm test --silent", timeout=120)
    assert npm.ok and "pass 1" in npm.output, npm.output
    venv = await sandbox.exec(
        "python3 -m venv /tmp/v && /tmp/v/bin/python -m pip --version", timeout=120
    )
    assert venv.ok and "pip" in venv.output, venv.output
