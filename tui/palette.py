"""The command palette (Ctrl+P) offers the same actions as the slash commands."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from agent import commands
from agent.commands import Commands


class SlashHost(Protocol):
    """What the palette needs of the app (KilnApp), without importing it."""

    def run_slash(self, line: str) -> None: ...

    def fill_prompt(self, line: str) -> None: ...

    def kiln_theme_names(self) -> list[str]: ...

    @property
    def commands(self) -> Commands: ...


class SlashCommandProvider(Provider):
    def _entries(self) -> Iterator[tuple[str, str, str]]:
        """(what the palette shows, the slash command it runs, help); a custom command that
        takes words ends in a space: it goes to the prompt, to be finished there."""
        app = cast(SlashHost, self.app)
        for command in commands.COMMANDS:
            if command.name == "mode":
                for mode in commands.INTERACTIVE_MODES:
                    yield f"mode: {mode.value}", f"/mode {mode.value}", command.help
            elif command.name == "theme":
                for name in app.kiln_theme_names():
                    yield f"theme: {name}", f"/theme {name}", command.help
            else:
                yield f"/{command.name}", f"/{command.name}", command.help
        for command in app.commands.custom_listed:
            line = f"/{command.name} " if command.arg else f"/{command.name}"
            yield f"/{command.name}", line, command.help

    async def discover(self) -> Hits:
        for shown, line, help_text in self._entries():
            yield DiscoveryHit(shown, self._action(line), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for shown, line, help_text in self._entries():
            score = matcher.match(shown)
            if score > 0:
                yield Hit(score, matcher.highlight(shown), self._action(line), help=help_text)

    def _action(self, line: str) -> Callable[[], None]:
        app = cast(SlashHost, self.app)
        if line.endswith(" "):
            return partial(app.fill_prompt, line)
        return partial(app.run_slash, line)
