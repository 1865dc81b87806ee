"""The TUI's Approver: each question becomes a modal; the loop waits for its answer."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App

from agent.approval import ApprovalRequest, Decision, Verdict


class TuiApprover:
    def __init__(self, app: App[Any]) -> None:
        self.app = app

    async def decide(self, request: ApprovalRequest) -> Decision:
        answer: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()

        def answered(decision: Decision | None) -> None:
            if not answer.done():
                answer.set_result(decision or Decision(Verdict.REJECT))

        from tui.screens.approval import ApprovalScreen  # loads the diff view: not at start

        screen = ApprovalScreen(request)
        self.app.push_screen(screen, callback=answered)
        try:
            decision = await answer
        except asyncio.CancelledError:
            # The step was interrupted while the question was open: take the question away.
            if screen in self.app.screen_stack:
                screen.dismiss(Decision(Verdict.REJECT))
            raise
        if decision.verdict is Verdict.ALWAYS:
            from tui.rule_offer import offer_in_tui

            await offer_in_tui(self.app, request)
        return decision
