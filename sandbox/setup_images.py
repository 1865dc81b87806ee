"""The setup phase's images (`kiln-setup:HASH`, sandbox/setup.py): kept under a cap, pruned.

Each set of dependency files makes an image of its own, and the next set makes another:
without a cap they pile up, gigabytes each. When setup commits a new image, the older ones
of the same repository past the newest few go, then the oldest of all past a count and a
total size. `kiln sandbox prune` removes all of them. An image a container still uses is
left in place (the engine refuses), and goes the next time.
"""

from __future__ import annotations

from typing import Any

from sandbox.engine_api import Engine, EngineError

IMAGE_REPO = "kiln-setup"
KEEP_PER_REPO = 2  # a branch with other dependencies, and back, need not rebuild
KEEP_IN_ALL = 8
BYTES_IN_ALL = 20 << 30


def setup_images(engine: Engine, repo: str | None = None) -> list[dict[str, Any]]:
    """kiln's setup images (of one repository, when given), newest first."""
    found = engine.images(IMAGE_REPO)
    if repo is not None:
        found = [i for i in found if (i.get("Labels") or {}).get("kiln.repo") == repo]
    return sorted(found, key=lambda image: _created(engine, image), reverse=True)


def _created(engine: Engine, image: dict[str, Any]) -> tuple[int, str]:
    """When it was made, to the nanosecond: the list has whole seconds only, and setups of
    one repository can follow each other within one."""
    try:
        stamp = str(engine.request("GET", f"/images/{image['Id']}/json").get("Created", ""))
    except EngineError:
        stamp = ""
    fraction = stamp.rstrip("Z").partition(".")[2]
    return int(image.get("Created", 0)), fraction.ljust(9, "0")


def trim(engine: Engine, repo: str, keep: str) -> list[str]:
    """After `keep` (a tag) was committed for `repo`: remove what is past the caps; the
    ids removed. Never `keep` itself."""
    kept_id = engine.image_id(keep)
    others = [image for image in setup_images(engine) if image["Id"] != kept_id]
    mine = [image for image in others if (image.get("Labels") or {}).get("kiln.repo") == repo]
    doomed = [image["Id"] for image in mine[KEEP_PER_REPO - 1 :]]
    count, total = 1, _size(engine, kept_id)
    for image in others:  # the newest first: what comes past a cap goes
        if image["Id"] in doomed:
            continue
        count, total = count + 1, total + int(image.get("Size", 0))
        if count > KEEP_IN_ALL or total > BYTES_IN_ALL:
            doomed.append(image["Id"])
    return [image["Id"] for image in others if image["Id"] in doomed and _remove(engine, image)]


def prune(engine: Engine, repo: str | None = None) -> tuple[int, int]:
    """Remove every setup image (of one repository, when given) that no container uses:
    (how many, their bytes)."""
    count = size = 0
    for image in setup_images(engine, repo):
        if _remove(engine, image):
            count += 1
            size += int(image.get("Size", 0))
    return count, size


def _size(engine: Engine, image_id: str) -> int:
    try:
        return int(engine.request("GET", f"/images/{image_id}/json").get("Size", 0))
    except EngineError:
        return 0


def _remove(engine: Engine, image: dict[str, Any]) -> bool:
    """Remove it by its kiln-setup names, never by id: an image that is also something
    else of the person's (tagged by hand) keeps that name."""
    names = [t for t in image.get("RepoTags") or [] if t.startswith(f"{IMAGE_REPO}:")]
    try:
        return bool(names) and all([engine.remove_image(name) for name in names])
    except EngineError:
        return False
