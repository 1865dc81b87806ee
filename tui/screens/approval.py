"""The question before a write: the diff (unified or side by side), then approve, reject
with an optional reason for the model, or always allow this kind for the session."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from agent.approval import UNVERIFIED, Action, ApprovalRequest, Decision, Verdict
from tui.screens import DIALOG_CSS
from tui.widgets.diff_view import DiffView

TITLES = {
    Action.EDIT: "Allow this edit in the sandbox?",
    Action.COMMAND: "Allow this command in the sandbox?",
    Action.APPLY: "Write these changes to your working tree?",
    Action.MCP: "Call this MCP tool? It runs outside the sandbox.",
}
INTERRUPTED = "interrupted by the person (Esc)"


class ApprovalScreen(ModalScreen[Decision]):
    CSS_PATH = DIALOG_CSS

    BINDINGS = [
        Binding("y", "approve", "approve"),
        Binding("n", "reject", "reject…"),
        Binding("a", "always", "always"),
        Binding("v", "toggle_view", "unified / side by side"),
        Binding("escape", "interrupt", "interrupt", priority=True),
    ]

    def __init__(self, request: ApprovalRequest) -> None:
        super().__init__(classes=f"-{request.action.value}")
        self.request = request

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="dialog"):
            yield Label(_title(request), id="question")
            yield Label(Text(request.summary), id="summary")
            with VerticalScroll(id="diff-scroll"):
                if request.command:
                    yield Static(Text(f"$ {request.command}"), id="command")
                if request.diff or not request.command:
                    yield DiffView(request.diff, id="diff")
            yield Input(
                placeholder="Why not? (optional, goes back to the model) · Enter rejects",
                id="reason",
            )
            with Horizontal(id="choices"):
                yield Button(Text("Approve [y]"), id="approve", variant="success")
                yield Button(Text("Reject [n]"), id="reject", variant="error")
                yield Button(Text("Always this session [a]"), id="always", variant="primary")
                if request.diff:
                    yield Button(Text("Side by side [v]"), id="toggle")

    def on_mount(self) -> None:
        self.query_one("#reason", Input).display = False
        self.query_one("#diff-scroll").focus()

    def action_approve(self) -> None:
        self.dismiss(Decision(Verdict.APPROVE))

    def action_always(self) -> None:
        self.dismiss(Decision(Verdict.ALWAYS))

    def action_reject(self) -> None:
        if self.request.action is Action.APPLY:  # nothing goes back to the model: no reason
            self.dismiss(Decision(Verdict.REJECT))
            return
        reason = self.query_one("#reason", Input)
        reason.display = True
        reason.focus()

    def action_toggle_view(self) -> None:
        diffs = self.query(DiffView)
        if not diffs:
            return
        view = diffs.first()
        view.split = not view.split
        label = "Unified [v]" if view.split else "Side by side [v]"
        self.query_one("#toggle", Button).label = Text(label)

    def action_interrupt(self) -> None:
        reason = self.query_one("#reason", Input)
        if reason.has_focus:  # Esc while typing a reason backs out of rejecting
            reason.display = False
            self.query_one("#diff-scroll").focus()
            return
        self.dismiss(Decision(Verdict.REJECT, INTERRUPTED))
        interrupt = getattr(self.app, "action_interrupt", None)
        if interrupt is not None:
            interrupt()

    @on(Input.Submitted, "#reason")
    def _reject_with_reason(self, event: Input.Submitted) -> None:
        self.dismiss(Decision(Verdict.REJECT, event.value.strip()))

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        actions = {
            "approve": self.action_approve,
            "reject": self.action_reject,
            "always": self.action_always,
            "toggle": self.action_toggle_view,
        }
        if event.button.id in actions:
            actions[event.button.id]()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Letters go to the reason box while it has focus, not to the shortcuts.
        if action in ("approve", "reject", "always", "toggle_view"):
            return not self.query_one("#reason", Input).has_focus
        return True


def _title(request: ApprovalRequest) -> str:
    """The question; an apply of a change that finished without evidence says so first."""
    unverified = any(flag.startswith(UNVERIFIED) for flag in request.flags)
    if request.action is Action.APPLY and unverified:
        return "Unverified: nothing shows this change works. Write it to your working tree anyway?"
    return TITLES.get(request.action, "Allow this?")
