"""The side panel: the plan with its current phase, the files changed, the sandbox state,
the jobs the model keeps running.

Two widgets draw its text, each a block of lines in the panel's component styles
(kiln.tcss): the plan's part down to the files' title, and the sandbox's part; the files'
list is mounted between them with the first files changed, the jobs' lines below the
sandbox's with the first job (/jobs tells their uptime, ports and last lines). Each widget mounted costs the
first frame about half a millisecond: the panel's six labels were 3 ms of its CPU time, and
the files' hidden list 8 ms (an OptionList's styles and layout)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive, var
from textual.strip import Strip
from textual.widget import Widget

from agent.event_values import Phase, PlanStatus, PlanStep

if TYPE_CHECKING:
    from textual.widgets import OptionList

    from agent.events import Event

MARKS = {PlanStatus.PENDING: "○", PlanStatus.IN_PROGRESS: "◐", PlanStatus.DONE: "●"}
TITLE = "panel--title"
# A line of the panel: its text and the component class that styles it ("": the widget's
# own style, as for a blank line above a title).
Line = tuple[str, str]


class PanelLines(Widget):
    """Lines of text, each in a component style of the panel; built into content when drawn,
    so a new theme restyles them. Textual styles each component class as often as the
    widget itself, so each part names only the few it uses; a variant (the phase done or
    failed, the sandbox's error) is a class of the widget."""

    lines: reactive[tuple[Line, ...]] = reactive((), layout=True)

    def render(self) -> Content:
        return Content("\n").join(
            Content.styled(text, self.get_visual_style(style)) if style else Content(text)
            for text, style in self.lines
        )

    def render_line(self, y: int) -> Strip:
        # A blank line comes as one empty segment in the text's style; without it, the line
        # is the background alone, as the labels' margins drew it.
        line = super().render_line(y)
        return Strip([s for s in line if s.text], line.cell_length)

    def text(self) -> str:
        """The lines as shown, without their styles."""
        return "\n".join(text for text, _ in self.lines)


class PlanLines(PanelLines):
    COMPONENT_CLASSES = {TITLE, "panel--phase"}  # the steps in the widget's own colour


class SandboxLines(PanelLines):
    COMPONENT_CLASSES = {TITLE}  # the state in the widget's own colour


class JobLines(PanelLines):
    COMPONENT_CLASSES = {TITLE}  # each job in the widget's own colour


class SidePanel(Vertical):
    """Each section draws its reactives; an event that repeats what is shown redraws nothing
    (the files list keeps its highlight)."""

    # init=False: the sections are drawn once, when the panel is made.
    phase: var[str] = var("idle", init=False)
    plan: var[tuple[PlanStep, ...]] = var((), init=False)
    files: var[tuple[str, ...]] = var((), init=False)
    sandbox: var[tuple[str, str]] = var(("not started", "info"), init=False)  # (state, level)
    jobs: var[tuple[str, ...]] = var((), init=False)  # a line per running job

    class DiffRequested(Message):
        """The person chose a changed file: show what changed in it."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # Built here, not in compose: a watcher may run before the panel is mounted.
        self._plan = PlanLines(id="plan")  # PLAN, the phase, the steps, FILES CHANGED
        self._files: OptionList | None = None  # made with the first files changed
        self._sandbox = SandboxLines(id="sandbox")  # SANDBOX, its state
        self._jobs: JobLines | None = None  # JOBS, made with the first job
        self._job_lines: dict[str, str] = {}  # job id -> its line, while it runs
        self._plan.add_class("-phase-idle")
        self._draw_plan()
        self.watch_sandbox(self.sandbox)

    def compose(self) -> ComposeResult:
        yield self._plan
        if self._files is not None:
            yield self._files
        yield self._sandbox
        if self._jobs is not None:
            yield self._jobs

    def show(self, event: Event) -> None:
        # Imported here: the first frame draws the panel before any event type loads.
        from agent.events import FilesChanged, JobStarted, JobStopped, PhaseChanged, PlanUpdated

        if isinstance(event, PhaseChanged):
            self.set_phase(event.phase)
        elif isinstance(event, PlanUpdated):
            self.plan = event.steps
        elif isinstance(event, FilesChanged):
            self.set_files(event.paths)
        elif isinstance(event, JobStarted):
            from agent.present import short_command

            since = time.strftime("%H:%M:%S")
            self._job_lines[event.job_id] = (
                f"● {event.job_id} since {since}: {short_command(event.command, 40)}"
            )
            self.jobs = tuple(self._job_lines.values())
        elif isinstance(event, JobStopped):
            self._job_lines.pop(event.job_id, None)
            self.jobs = tuple(self._job_lines.values())

    def set_phase(self, phase: Phase | str) -> None:
        self.phase = phase.value if isinstance(phase, Phase) else phase

    def set_files(self, files: tuple[str, ...]) -> None:
        self.files = tuple(files)

    def set_sandbox(self, state: str, level: str = "info") -> None:
        self.sandbox = (state, level)

    def watch_phase(self, old: str, new: str) -> None:
        self._plan.remove_class(f"-phase-{old}")
        self._plan.add_class(f"-phase-{new}")
        self._draw_plan()

    def watch_plan(self) -> None:
        self._draw_plan()

    def _draw_plan(self) -> None:
        steps = [f"{MARKS[step.status]} {step.title}" for step in self.plan]
        rows = [*steps, ""] if steps else ["no plan yet"]  # a blank line under the steps
        self._plan.lines = (
            ("", ""),  # each title has a blank line above it
            ("PLAN", TITLE),
            (f"phase: {self.phase}", "panel--phase"),
            *((row, "") for row in rows),
            ("", ""),
            ("FILES CHANGED", TITLE),
        )

    def watch_files(self, files: tuple[str, ...]) -> None:
        from textual.widgets import OptionList
        from textual.widgets.option_list import Option

        if self._files is None:
            self._files = OptionList(id="files")
            if self.is_mounted:  # else compose yields it
                self.mount(self._files, before=self._sandbox)
        self._files.clear_options()
        self._files.add_options([Option(path, id=path) for path in files])
        self._files.display = bool(files)

    def watch_jobs(self, jobs: tuple[str, ...]) -> None:
        if self._jobs is None:
            self._jobs = JobLines(id="jobs")
            if self.is_mounted:  # else compose yields it
                self.mount(self._jobs)
        shown = jobs or ("none running: /jobs lists them",)
        self._jobs.lines = (("", ""), ("JOBS", TITLE), *((line, "") for line in shown))

    def watch_sandbox(self, sandbox: tuple[str, str]) -> None:
        state, level = sandbox
        self._sandbox.set_classes(f"-{level}")
        self._sandbox.lines = (("", ""), ("SANDBOX", TITLE), (state, ""))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.DiffRequested(event.option.id))
