"""`kiln local install`: the runtime, then the weights, each step skipped when done.

`install_steps` is the one entry point; the CLI draws its lines with a spinner and the
TUI's first-run offer shows them in a log. Rerunning after a failure or Ctrl-C resumes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Literal

from agent.local.catalog import DEFAULT_MODEL, MODELS, ModelSpec
from agent.local.common import InstallStep, LocalModelError
from agent.local.hub import download_from_hub, download_path
from agent.local.runtime import install_runtime
from agent.local.weights import assemble_from_parts, is_weights_installed, model_path

Source = Literal["auto", "hub", "parts"]


def spec_for(name: str | None) -> ModelSpec:
    spec = MODELS.get(name or DEFAULT_MODEL)
    if spec is None:
        known = ", ".join(MODELS)
        raise LocalModelError(f"kiln knows no local model {name!r}; choose one of {known}.")
    return spec


def install_steps(
    name: str | None = None,
    *,
    runtime: bool = True,
    source: Source | None = None,
    pip_args: Sequence[str] = (),
) -> Iterator[InstallStep]:
    """Install the runtime and the weights of model `name`, yielding progress lines.

    `source` (default: $KILN_LOCAL_SOURCE or "auto") picks the hub, the package parts,
    or the hub with the parts as fallback. `pip_args` are passed to pip for the parts.
    """
    spec = spec_for(name)
    if runtime:
        yield from install_runtime()
    yield from install_weights(spec, source=source, pip_args=pip_args)
    yield InstallStep(f"ready: {spec.name} at {model_path(spec)}")


def install_weights(
    spec: ModelSpec, *, source: Source | None = None, pip_args: Sequence[str] = ()
) -> Iterator[InstallStep]:
    if is_weights_installed(spec):
        yield InstallStep(f"weights: {spec.file_name} is already installed and verified")
        return
    chosen = source or _source_from_env()
    if chosen in ("auto", "hub"):
        got = yield from download_from_hub(spec)
        if got:
            return
        if chosen == "hub":
            raise LocalModelError(
                f"{spec.file_name} could not be fetched from the hub; check the connection "
                "or set KILN_LOCAL_SOURCE=parts."
            )
    yield InstallStep(f"weights: assembling {spec.file_name} from {spec.parts.count} parts")
    yield from assemble_from_parts(spec, pip_args)
    download_path(spec).unlink(missing_ok=True)  # a stale partial hub download, now useless


def _source_from_env() -> Source:
    value = os.environ.get("KILN_LOCAL_SOURCE", "auto")
    if value not in ("auto", "hub", "parts"):
        raise LocalModelError(f"KILN_LOCAL_SOURCE={value!r} is unknown; use auto, hub or parts.")
    return value  # type: ignore[return-value]
