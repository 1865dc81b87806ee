"""The side panel: the plan with its current phase, the files changed, the sandbox state."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from agent.events import Event, FilesChanged, Phase, PhaseChanged, PlanStatus, PlanUpdated

MARKS = {PlanStatus.PENDING: "○", PlanStatus.IN_PROGRESS: "◐", PlanStatus.DONE: "●"}


class SidePanel(Vertical):
    class FileChosen(Message):
        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def compose(self) -> ComposeResult:
        yield Label("PLAN", classes="panel-title")
        yield Label("phase: idle", id="phase")
        yield Static("no plan yet", id="plan")
        yield Label("FILES CHANGED", classes="panel-title")
        yield OptionList(id="files")
        yield Label("SANDBOX", classes="panel-title")
        yield Static("not started", id="sandbox")

    def on_mount(self) -> None:
        self.query_one("#files", OptionList).display = False

    def show(self, event: Event) -> None:
        if isinstance(event, PhaseChanged):
            self.set_phase(event.phase)
        elif isinstance(event, PlanUpdated):
            rows = Text()
            for step in event.steps:
                rows.append(f"{MARKS[step.status]} {step.title}\n")
            plan = self.query_one("#plan", Static)
            plan.update(rows if event.steps else "no plan yet")
        elif isinstance(event, FilesChanged):
            self.set_files(event.paths)

    def set_phase(self, phase: Phase | str) -> None:
        label = self.query_one("#phase", Label)
        value = phase.value if isinstance(phase, Phase) else phase
        label.update(f"phase: {value}")
        label.set_classes(f"-phase-{value}")

    def set_files(self, files: tuple[str, ...]) -> None:
        options = self.query_one("#files", OptionList)
        options.clear_options()
        options.add_options([Option(path, id=path) for path in files])
        options.display = bool(files)

    def set_sandbox(self, state: str, level: str = "info") -> None:
        sandbox = self.query_one("#sandbox", Static)
        sandbox.update(Text(state))
        sandbox.set_classes(f"-{level}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.FileChosen(event.option.id))
