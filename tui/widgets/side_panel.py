"""The side panel: the plan with its current phase, the files changed, the sandbox state.

The files' list is made with the first files changed: hidden until then, it only slowed
the first frame (an OptionList's styles and layout, 8 ms of its CPU time)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Label, Static

from agent.event_values import Phase, PlanStatus, PlanStep

if TYPE_CHECKING:
    from textual.widgets import OptionList

    from agent.events import Event

MARKS = {PlanStatus.PENDING: "○", PlanStatus.IN_PROGRESS: "◐", PlanStatus.DONE: "●"}


class SidePanel(Vertical):
    """Each section draws one reactive; an event that repeats what is shown redraws nothing
    (the files list keeps its highlight)."""

    # init=False: compose already draws the defaults.
    phase: var[str] = var("idle", init=False)
    plan: var[tuple[PlanStep, ...]] = var((), init=False)
    files: var[tuple[str, ...]] = var((), init=False)
    sandbox: var[tuple[str, str]] = var(("not started", "info"), init=False)  # (state, level)

    class DiffRequested(Message):
        """The person chose a changed file: show what changed in it."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # Built here, not in compose: a watcher may run before the panel is mounted.
        self._phase = Label("phase: idle", id="phase")
        self._plan = Static("no plan yet", id="plan")
        self._files: OptionList | None = None  # made with the first files changed
        self._sandbox_title = Label("SANDBOX", classes="panel-title")
        self._sandbox = Static("not started", id="sandbox")

    def compose(self) -> ComposeResult:
        yield Label("PLAN", classes="panel-title")
        yield self._phase
        yield self._plan
        yield Label("FILES CHANGED", classes="panel-title")
        if self._files is not None:
            yield self._files
        yield self._sandbox_title
        yield self._sandbox

    def show(self, event: Event) -> None:
        # Imported here: the first frame draws the panel before any event type loads.
        from agent.events import FilesChanged, PhaseChanged, PlanUpdated

        if isinstance(event, PhaseChanged):
            self.set_phase(event.phase)
        elif isinstance(event, PlanUpdated):
            self.plan = event.steps
        elif isinstance(event, FilesChanged):
            self.set_files(event.paths)

    def set_phase(self, phase: Phase | str) -> None:
        self.phase = phase.value if isinstance(phase, Phase) else phase

    def set_files(self, files: tuple[str, ...]) -> None:
        self.files = tuple(files)

    def set_sandbox(self, state: str, level: str = "info") -> None:
        self.sandbox = (state, level)

    def watch_phase(self, phase: str) -> None:
        self._phase.update(Text(f"phase: {phase}"))
        self._phase.set_classes(f"-phase-{phase}")

    def watch_plan(self, steps: tuple[PlanStep, ...]) -> None:
        rows = Text()
        for step in steps:
            rows.append(f"{MARKS[step.status]} {step.title}\n")
        self._plan.update(rows if steps else "no plan yet")

    def watch_files(self, files: tuple[str, ...]) -> None:
        from textual.widgets import OptionList
        from textual.widgets.option_list import Option

        if self._files is None:
            self._files = OptionList(id="files")
            if self.is_mounted:  # else compose yields it
                self.mount(self._files, before=self._sandbox_title)
        self._files.clear_options()
        self._files.add_options([Option(path, id=path) for path in files])
        self._files.display = bool(files)

    def watch_sandbox(self, sandbox: tuple[str, str]) -> None:
        state, level = sandbox
        self._sandbox.update(Text(state))
        self._sandbox.set_classes(f"-{level}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.DiffRequested(event.option.id))
