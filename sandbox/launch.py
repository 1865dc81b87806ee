"""A Docker sandbox's container made and started: the synchronous part of its start.

Light to import (the standard library, the Engine API, the container's spec; no asyncio,
no command channel): `kiln run` starts it in a thread of its own right after reading its
settings (`begin`), so the engine creates and starts the container while the rest of kiln
loads, and sandbox/docker_backend.py adopts what it made. A session started any other way
runs the same steps from the backend's own start.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sandbox import container_spec, engine, engine_api, server_module, setup, workspace
from sandbox.base import SandboxConfig, SandboxError
from sandbox.config import sandbox_env
from sandbox.engine_api import Engine, EngineError, Hijacked

T = TypeVar("T")


@dataclass(eq=False, repr=False)  # state, compared and shown by identity
class ContainerLaunch:
    """What one sandbox's container is made of, and what the engine made of it."""

    repo: Path
    config: SandboxConfig
    session_id: str
    instance: str  # the sandbox's own name: its state dir, container and volume
    command_server: bool = True  # started with the container; False: plain `docker exec`
    image: str = ""
    client: Engine | None = None
    setup_env: dict[str, str] = field(default_factory=dict)  # where setup installed things
    layout: workspace.Layout | None = None
    mode: str | None = None  # "overlay" or "copy"
    volume_name: str | None = None
    overlay: str = ""  # the overlay volume's mount options
    ignored_hidden: bool = False
    container_id: str | None = None
    recoveries: int = 0  # containers made again after one vanished
    notes: list[str] = field(default_factory=list)
    stream: Hijacked | None = None  # the command server's stream, attached before its start

    def start(
        self,
        progress: setup.Progress,
        cancel: threading.Event,
        waiting: Callable[[], None] = lambda: None,
    ) -> None:
        """Find (or build) the image, lay out the workspace, create and start the container.
        `progress` gets a long setup's lines, `cancel` stops it, `waiting` is called once
        nothing is left to do but wait for the engine."""
        self.prepare(progress, cancel)
        self.make(waiting)

    def prepare(
        self, progress: setup.Progress, cancel: threading.Event, *, with_setup: bool = True
    ) -> None:
        """Everything before the container is asked for: the image (with the repository's
        setup, built if needed) and the workspace's layout. `with_setup=False`: the caller
        has found that the repository has no setup (`begin`), which is not planned again."""
        if not self.repo.is_dir():
            raise SandboxError(f"{self.repo} is not a directory; pass the repository's path.")
        # No ping first: the first request says the same sentence when no engine answers.
        self.client = engine_api.connect(ping=False)
        with _engine_errors():
            self.image = engine.image_for(self.client, self.repo, self.config)
            if with_setup:
                self.image, self.setup_env = setup.session_image(
                    self.client, self.repo, self.image, self.config, self.notes, progress, cancel
                )
            self.layout = workspace.make_layout(self.config.state_dir, self.instance, self.repo)
            options = workspace.overlay_options(self.repo, self.layout)
            if options is not None:
                self.volume_name, self.overlay = f"kiln-{self.instance}", options
                self.mode = "overlay"

    def make(self, waiting: Callable[[], None] = lambda: None) -> None:
        """The container, created and started over the prepared workspace: an overlay
        where one can be mounted, else a copy."""
        assert self.layout is not None
        with _engine_errors():
            if self.mode == "overlay":
                # Ignored files are hidden (git lists them) while the engine creates the
                # container: only its start mounts the overlay.
                hiding = _in_thread(workspace.prepare_overlay, self.repo, self.layout)
                try:
                    self.create(waiting, before_start=hiding.result)
                    self.ignored_hidden = hiding.result()
                except EngineError:  # overlayfs refused (e.g. the state dir's filesystem)
                    hiding.exception()  # it is done before the copy is made
                    self.remove_container_and_volume()
                    self.mode = None
            if self.mode is None:
                workspace.prepare_copy(self.repo, self.layout)
                self.ignored_hidden = True
                self.mode = "copy"
                self.create(waiting)

    def create(
        self, waiting: Callable[[], None], before_start: Callable[[], object] = lambda: None
    ) -> None:
        """Create and start the container, its command server with it (`stream`, attached
        first); `before_start` is what must be done before (the overlay's upper layer made
        ready)."""
        assert self.client is not None and self.layout is not None
        labels = engine.labels(self.session_id, self.layout.root, self.repo, self.config.labels)
        if self.mode == "copy":
            workspace_mount = container_spec.copied_workspace(self.layout)
        else:
            assert self.volume_name is not None
            workspace_mount = container_spec.overlay_volume(self.volume_name, self.overlay, labels)
        with_server = self.command_server
        server = server_module.server_folder() if with_server else None
        spec = container_spec.container_spec(
            image=self.image, repo=self.repo, layout=self.layout, config=self.config,
            workspace_mount=workspace_mount, env=self.env(), labels=labels,
            with_server=with_server, server_folder=server,
        )  # fmt: skip
        name = f"kiln-{self.instance}-{self.recoveries}"
        waiting()
        self.container_id = self.client.create_container(name, spec)
        stream = None
        try:
            before_start()
            stream = self.client.attach(self.container_id) if with_server else None
            self.client.start(self.container_id)
        except BaseException:
            if stream is not None:
                stream.close()
            self.client.remove_container(self.container_id)
            self.container_id = None
            raise
        self.stream = stream

    def env(self) -> dict[str, str]:
        return {**sandbox_env(self.config), **self.setup_env, **self.config.env}

    def remove_container_and_volume(self) -> None:
        remove(self.client, self.container_id, self.volume_name)
        self.container_id = self.volume_name = None


def remove(client: Engine | None, container_id: str | None, volume_name: str | None) -> None:
    """The container, then its workspace volume (which the engine keeps while mounted)."""
    if client is None:
        return
    if container_id:
        client.remove_container(container_id)
    if volume_name:
        client.remove_volume(volume_name)


def new_launch(repo: Path, config: SandboxConfig, session_id: str) -> ContainerLaunch:
    # A resumed session (same id) may start while the previous sandbox of that id is still
    # being removed: the names and the state dir are this sandbox's own.
    instance = f"{session_id}-{workspace.new_session_id()[:6]}"
    return ContainerLaunch(repo, config, session_id, instance, image=config.image)


class EarlyLaunch:
    """A container launch begun before its sandbox exists (`begin`, for a repository with
    no setup to run); the sandbox adopts it (`take`), or, when none ever does, `abandon`
    removes what it made."""

    def __init__(self, launch: ContainerLaunch) -> None:
        self.launch = launch
        self.cancel = threading.Event()
        try:
            # Its few ms of files and requests on the caller's thread, before it goes on to
            # its imports: a thread doing them beside the imports waits at each step for
            # the interpreter, and asked for the container later than this.
            launch.prepare(lambda _line: None, self.cancel, with_setup=False)
        except BaseException as exc:
            self.done: Future[ContainerLaunch] = Future()
            self.done.set_exception(exc)
        else:
            self.done = _in_thread(self._make, name="kiln-sandbox-launch")
        self._taken = False

    def _make(self) -> ContainerLaunch:
        try:
            self.launch.make()
        except BaseException:
            self.launch.remove_container_and_volume()  # what it made is nobody's
            raise
        return self.launch

    @property
    def settled(self) -> bool:
        """Taken or abandoned already: `abandon` has nothing left to do."""
        return self._taken

    def take(self) -> ContainerLaunch:
        """The launch, once it has ended (blocks); its failure is raised here."""
        self._taken = True
        return self.done.result()

    def abandon(self) -> None:
        """No sandbox will take it: remove whatever it made."""
        if self.settled:
            return
        self._taken = True
        self.cancel.set()
        self.done.exception()  # ended, whichever way
        made = self.launch
        if made.stream is not None:
            made.stream.close()
        made.remove_container_and_volume()
        if made.layout is not None:
            workspace.remove_layout(made.layout)


def begin(repo: Path, config: SandboxConfig, session_id: str) -> EarlyLaunch | None:
    """Start launching the container of `session_id`'s Docker sandbox now: prepared here,
    made in a thread. None when its image or setup must be built first (minutes, with
    progress to show): the sandbox's own start does that."""
    if config.dockerfile or setup.plan_for(repo, config) is not None:
        return None
    return EarlyLaunch(new_launch(repo, config, session_id))


@contextlib.contextmanager
def _engine_errors() -> Iterator[None]:
    try:
        yield
    except EngineError as exc:
        raise SandboxError(
            f"The Docker engine could not start the sandbox ({exc.message}); "
            "run `kiln sandbox doctor`."
        ) from None


def _in_thread(work: Callable[..., T], *args: Any, name: str = "kiln-sandbox-prepare") -> Future[T]:
    """`work(*args)` in a thread of its own; its result (or exception) in the future."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(work(*args))
        except BaseException as exc:
            done.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return done
