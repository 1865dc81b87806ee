"""After "always": offer to remember the permission rule the answer implies.

"Always" alone lasts for this kind of action, this session. The rule it implies is
narrower and lasts: `allow = ["run: npm test*"]` in the person's own config.toml, written
only when they say yes. No Textual at import: line mode uses this module too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from agent.approval import ApprovalRequest
from agent.errors import KilnError
from agent.permissions import implied_rule
from agent.settings import paths


def rule_for(request: ApprovalRequest) -> str | None:
    if request.flags:
        return None
    return implied_rule(request.action, request.command, request.path)


def question(rule: str) -> tuple[str, str]:
    return (
        "Also remember this as a rule in your config?",
        f'[permissions] allow = ["{rule}"]  in {paths.user_config_file()}',
    )


async def remember(rule: str) -> str:
    """The sentence to show once written, or why it was not."""
    from agent.settings.remember import remember_rule

    try:
        where = await asyncio.to_thread(remember_rule, rule)
    except KilnError as exc:
        return exc.message
    return f"Remembered allow `{rule}` in {where}; it holds from the next session on."


async def offer_in_tui(app: Any, request: ApprovalRequest) -> None:
    rule = rule_for(request)
    if rule is None:
        return
    from tui.screens.confirm import ConfirmScreen

    answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    title, detail = question(rule)

    def answered(yes: bool | None) -> None:
        if not answer.done():
            answer.set_result(bool(yes))

    app.push_screen(ConfirmScreen(title, detail, yes="Remember [y]"), callback=answered)
    if await answer:
        app.notify(await remember(rule))


async def offer_in_line(
    ask: Callable[[str], Awaitable[str]], say: Callable[[str], None], request: ApprovalRequest
) -> None:
    rule = rule_for(request)
    if rule is None:
        return
    title, detail = question(rule)
    say(f"{title}\n  {detail}")
    if (await ask("Remember it? [y/N]: ")).strip().lower() in ("y", "yes"):
        say(await remember(rule))
