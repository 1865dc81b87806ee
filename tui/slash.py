"""What each slash command (and each command-palette entry) does in the Textual app."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import work

from agent.errors import KilnError
from tui import commands
from tui.diff_parse import files_in
from tui.screens.diff import DiffScreen

if TYPE_CHECKING:
    from tui.app import KilnApp

KEYS_HELP = [
    "Enter sends · Ctrl+J or Shift+Enter adds a line · Up/Down browse history",
    "Esc interrupts the current step · Shift+Tab cycles the mode · Ctrl+P command palette",
    "Ctrl+C twice quits (the sandbox is removed)",
]


class SlashCommands:
    """Mixed into KilnApp; every command ends in a note or a screen, never silently."""

    def run_slash(self: KilnApp, line: str) -> None:
        self._slash(line)

    @work(group="slash", exit_on_error=False)
    async def _slash(self: KilnApp, line: str) -> None:
        parsed = commands.parse(line)
        if parsed is None:
            return
        if parsed.name not in commands.BY_NAME:
            await self.say(f"There is no /{parsed.name}; /help lists the commands.", "warning")
            return
        handler = getattr(self, f"_cmd_{parsed.name}")
        try:
            await handler(parsed.arg)
        except KilnError as exc:
            await self.say(exc.message, "error")

    async def say(self: KilnApp, message: str, level: str = "info") -> None:
        await self.main.transcript.note(message, level)

    async def _need_session(self: KilnApp) -> bool:
        if self.session is None:
            await self.say("The session is not ready yet (see the sandbox state).", "warning")
            return False
        return True

    async def _cmd_mode(self: KilnApp, arg: str) -> None:
        names = ", ".join(m.value for m in commands.INTERACTIVE_MODES)
        if not arg:
            await self.say(f"Mode: {self.meter_state.mode} (choose from {names}).")
            return
        mode = commands.parse_mode(arg)
        if mode is None:
            await self.say(f"`{arg}` is not a mode; choose from {names}.", "warning")
            return
        self.set_mode(mode)
        await self.say(f"Mode: {mode.value}.")

    async def _cmd_model(self: KilnApp, arg: str) -> None:
        rows = [
            f"{name}: {p.model or '(server default)'} at {p.base_url or '(default)'}"
            for name, p in self.settings.models.items()
        ]
        if not arg:
            current = self.session.profile.model if self.session and self.session.client else ""
            head = f"In use: {current}. " if current else ""
            listing = "\n".join(rows) or "No model profiles are configured."
            await self.say(
                f"{head}/model NAME switches to a profile or a model at this server.\n{listing}"
            )
            return
        if self.session is None or self.running:
            await self.say("Switch the model when the session is idle.", "warning")
            return
        try:
            profile = await self.session.switch_model(arg)
        except KilnError as exc:
            await self.say(exc.message, "error")
            return
        self.meter_state.model = profile.model
        self.main.redraw_meter_now()
        await self.say(f"Model: {profile.model} at {profile.base_url}.")

    async def _cmd_diff(self: KilnApp, arg: str) -> None:
        if await self._need_session():
            assert self.session is not None
            diff = await self.session.diff()
            self.push_screen(
                DiffScreen(f"Changes in the sandbox ({len(files_in(diff))} files)", diff)
            )

    async def _cmd_apply(self: KilnApp, arg: str) -> None:
        """The session shows the combined diff and asks (unless full-auto) before writing."""
        if not await self._need_session():
            return
        assert self.session is not None
        if not (await self.session.diff()).strip():
            await self.say("The sandbox has no changes to apply.")
            return
        already = len(self.session.events)
        written = await self.session.apply()
        for event in self.session.events[already:]:  # the question and its answer
            await self.show(event)
        if written:
            await self.say(f"Applied to your working tree: {', '.join(written)}.", "success")
        else:
            await self.say("Not applied; your working tree is unchanged.")

    async def _cmd_undo(self: KilnApp, arg: str) -> None:
        if await self._need_session():
            assert self.session is not None
            await self.say(f"Undone: {await self.session.undo()}")

    async def _cmd_review(self: KilnApp, arg: str) -> None:
        await self.say("Commit review is coming later; it is not in this build yet.", "warning")

    async def _cmd_cost(self: KilnApp, arg: str) -> None:
        await self.say("\n".join(self.meter_state.summary_lines()))

    async def _cmd_compact(self: KilnApp, arg: str) -> None:
        await self.say(
            "Compaction on demand is coming later; it is not in this build yet.", "warning"
        )

    async def _cmd_sessions(self: KilnApp, arg: str) -> None:
        from agent.store.db import Store

        store = Store()
        try:
            rows = store.sessions(15)
        finally:
            store.close()
        lines = [
            f"{r.id}  {time.strftime('%Y-%m-%d %H:%M', time.localtime(r.updated))}  "
            f"{r.status or 'open':9} ${r.cost_usd:.4f}  {r.title[:50]}"
            for r in rows
        ]
        lines.append("Reopen one with `kiln --resume ID`.")
        await self.say("\n".join(lines) if rows else "No stored sessions yet.")

    async def _cmd_theme(self: KilnApp, arg: str) -> None:
        names = self.kiln_theme_names()
        if not arg:
            await self.say(f"Theme: {self.theme} (choose from {', '.join(names)}).")
        elif arg not in self.available_themes:
            await self.say(f"There is no theme `{arg}`; choose from {', '.join(names)}.", "warning")
        else:
            self.theme = arg  # remembered by the theme-changed signal
            await self.say(f"Theme: {arg}.")

    async def _cmd_help(self: KilnApp, arg: str) -> None:
        await self.say("\n".join([*commands.help_lines(), "", *KEYS_HELP]))

    async def _cmd_quit(self: KilnApp, arg: str) -> None:
        self.action_quit_kiln()
