"""The inference runtime: llama-cpp-python with its server extra, built from source.

It goes into kiln's own interpreter (`sys.executable`), which is the one that later runs
`python -m llama_cpp.server`. The build takes minutes on a small machine, so every output
line is passed on for a live display and kept in the install log.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator

from agent.local.common import (
    CommandFailed,
    InstallStep,
    LocalModelError,
    log_dir,
    pip_command,
    run_logged,
)

RUNTIME_REQUIREMENT = "llama-cpp-python[server]==0.3.36"
# llama.cpp builds for the CPU it is built on (-march=native) by default. A machine image
# that moves to another host (a VM snapshot restored elsewhere, a CI cache) then crashes in
# its first decode: a segmentation fault on one of this project's machines. The build is
# for x86-64-v3 instead (AVX2, FMA, F16C: every x86 server CPU of the last decade); on
# other architectures these options do nothing.
PORTABLE_BUILD = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
# What `python -m llama_cpp.server` imports; all must be present for a working server.
RUNTIME_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context")


def is_runtime_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in RUNTIME_MODULES)


def install_runtime() -> Iterator[InstallStep]:
    if is_runtime_installed():
        yield InstallStep("runtime: llama-cpp-python is already installed")
        return
    _check_compilers()
    log = log_dir() / "install.log"
    yield InstallStep(
        f"runtime: building {RUNTIME_REQUIREMENT} from source (several minutes); log: {log}"
    )
    env = {
        "CMAKE_ARGS": PORTABLE_BUILD,  # the person's own CMAKE_ARGS win
        **os.environ,
        "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 2),
    }
    # Never a wheel pip built before: it may be a -march=native build for another CPU.
    cmd = pip_command("install", "--verbose", "--no-cache-dir", RUNTIME_REQUIREMENT)
    try:
        for line in run_logged(cmd, log, env=env):
            yield InstallStep(line, detail=True)
    except CommandFailed as exc:
        raise LocalModelError(
            f"Building llama-cpp-python failed ({exc.last_line}); see {log} for the "
            "compiler output and run `kiln local install` again once it is fixed."
        ) from None
    importlib.invalidate_caches()
    if not _importable_in_fresh_interpreter():
        raise LocalModelError(
            f"llama-cpp-python installed but `import llama_cpp` fails; see {log} and "
            "reinstall with `kiln local install`."
        )
    yield InstallStep("runtime: llama-cpp-python installed")


def _check_compilers() -> None:
    missing = [tool for tool in ("cc", "c++") if shutil.which(tool) is None]
    if missing:
        raise LocalModelError(
            "Building the local runtime needs a C and C++ compiler; install them "
            "(on Debian or Ubuntu: `apt-get install build-essential`) and run "
            "`kiln local install` again."
        )


def _importable_in_fresh_interpreter() -> bool:
    # The shared library loads at import time; a fresh process proves it really works.
    probe = subprocess.run(
        [sys.executable, "-c", "import llama_cpp, llama_cpp.server.app"],
        capture_output=True,
        timeout=120,
    )
    return probe.returncode == 0
