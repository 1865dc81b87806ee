"""A streamed model reply: finished Markdown blocks above, the block being written below.

Textual's Markdown re-parses and re-wraps its last block on every append, so one long
paragraph or code block costs more with every token: measured at 2,000 tok/s, a 24k
character paragraph took about 35 ms a frame (parse, wrap for the height, wrap again to
paint) and the screen fell behind by two frames. Here the block being written is a
`StreamTail` that keeps its wrapped lines and wraps only the line being written, so a
fragment costs its own length. Once its block is complete (a blank line outside a code
fence, or the end of the reply) the text moves into the Markdown, which formats it once.

The Markdown widget and markdown-it (about 40 ms to import) load with the first block to
format. A whole reply drawn before they are loaded (a resumed session's last ones) is
painted as text in the tail too and formatted a frame later, so how the session ended is
on screen before they load; one drawn after (scrolling back) is formatted at once.
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING

from rich.cells import cell_len, chop_cells
from rich.segment import Segment
from rich.style import Style
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.widgets import Markdown

FENCE = "```"
MARKDOWN_MODULE = "textual.widgets._markdown"
# A whole reply drawn before the Markdown is loaded is formatted this long after it is
# mounted: a frame or two, so the text is on screen before the load holds the loop.
FORMAT_AFTER = 0.05  # seconds


class StreamTail(Widget):
    """Plain text, wrapped at word boundaries as it arrives (the Line API: no re-layout of
    the text, only a new height when a line is added)."""

    DEFAULT_CSS = "StreamTail { height: auto; padding: 0 1; }"

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.text = _plain(text)
        self._lines: list[str] = []  # wrapped and complete
        self._last = ""  # the line being written
        self._width = 0
        self._style = Style()

    def append(self, fragment: str) -> None:
        fragment = _plain(fragment)
        height = self._height()
        self.text += fragment
        if self._width:
            self._wrap(fragment)
        self.refresh(layout=self._height() != height)

    def settled_length(self) -> int:
        """How much of the text is complete blocks: up to its last blank line outside a
        code fence (0 when no block is complete yet)."""
        cut = self.text.rfind("\n\n")
        while cut > 0 and self.text.count(FENCE, 0, cut) % 2:
            cut = self.text.rfind("\n\n", 0, cut)
        return cut + 2 if cut > 0 else 0

    def drop_head(self, length: int) -> None:
        """Forget the first `length` characters (the Markdown above shows them now)."""
        self.text = self.text[length:]
        self._lines, self._last = [], ""
        if self._width:
            self._wrap(self.text)
        self.refresh(layout=True)

    def _height(self) -> int:
        return len(self._lines) + (1 if self._last else 0)

    def _wrap(self, fragment: str) -> None:
        width = max(self._width, 1)
        *done, rest = fragment.split("\n")
        for piece in done:
            self._last += piece
            self._break_long_line(width)
            self._lines.append(self._last)
            self._last = ""
        self._last += rest
        self._break_long_line(width)

    def _break_long_line(self, width: int) -> None:
        while cell_len(self._last) > width:
            head = chop_cells(self._last, width)[0]
            space = head.rfind(" ")
            cut = space if space > 0 else len(head)
            self._lines.append(self._last[:cut])
            self._last = self._last[cut:].removeprefix(" ")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width != self._width:  # a new width: wrap the whole text again
            self._width, self._lines, self._last = width, [], ""
            self._wrap(self.text)
        return self._height()

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style = self.rich_style  # once a paint: looking it up walks every ancestor
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        lines = self._lines
        text = lines[y] if y < len(lines) else self._last if y == len(lines) else ""
        return Strip([Segment(text, self._style)], cell_len(text)).extend_cell_length(
            self.size.width, self._style
        )


class AssistantReply(Vertical):
    """Model text appended fragment by fragment: complete blocks move into the Markdown,
    the block being written waits in a StreamTail. New text is painted in the tail first;
    a complete block then moves into the Markdown in one screen update (the Markdown gains
    what the tail loses), so nothing waits for formatting, blinks or shows twice."""

    DEFAULT_CSS = "AssistantReply { height: auto; }"

    def __init__(self, text: str = "", *, format_now: bool | None = None) -> None:
        """`text`: a whole reply's, or what was streamed so far; formatted at once when
        `format_now` (by default: when the Markdown is loaded already), else once painted."""
        super().__init__()
        self.markdown: Markdown | None = None  # made with the first block to format
        self.text_so_far = text
        self._handed = 0  # characters at the start of the tail given to the Markdown
        self._to_markdown = ""  # given, not yet appended
        self._settling: asyncio.Task[None] | None = None
        if format_now is None:
            format_now = MARKDOWN_MODULE in sys.modules
        if text and format_now:  # scrolling back: the person sees it formatted
            from textual.widgets import Markdown

            self.markdown = Markdown(text, classes="assistant-reply")
            text = ""
        self.tail = StreamTail(text)
        if text:  # the first reply drawn (a resumed session's): formatted once painted
            self._to_markdown = self.tail.text
            self._handed = len(self._to_markdown)

    def compose(self) -> ComposeResult:
        if self.markdown is not None:
            yield self.markdown
        yield self.tail

    def on_mount(self) -> None:
        if self._to_markdown:  # a timer, so the screen's next frame comes first
            self.set_timer(FORMAT_AFTER, self._start_settling)

    async def write(self, fragment: str) -> None:
        self.text_so_far += fragment
        self.tail.append(fragment)
        settled = self.tail.settled_length()
        if settled > self._handed:
            self._to_markdown += self.tail.text[self._handed : settled]
            self._handed = settled
            # The new text is painted (in the tail) first; formatting it follows.
            self.call_after_refresh(self._start_settling)

    def _start_settling(self) -> None:
        if self._to_markdown and (self._settling is None or self._settling.done()):
            self._settling = asyncio.create_task(self._settle())

    async def _settle(self) -> None:
        while self._to_markdown:
            blocks, self._to_markdown = self._to_markdown, ""
            with self.app.batch_update():  # the Markdown gains what the tail loses, at once
                await (await self._markdown()).append(blocks)
                self.tail.drop_head(len(blocks))
                self._handed -= len(blocks)

    async def _markdown(self) -> Markdown:
        """The Markdown above the tail, mounted the first time a block is formatted."""
        if self.markdown is None:
            from textual.widgets import Markdown

            self.markdown = Markdown(classes="assistant-reply")
            await self.mount(self.markdown, before=self.tail)
        return self.markdown

    async def finish(self) -> None:
        """The reply is complete: everything goes into the Markdown."""
        self._start_settling()
        if self._settling is not None:
            await self._settling
        rest = self.tail.text
        if rest:
            with self.app.batch_update():
                await (await self._markdown()).append(rest)
                self.tail.drop_head(len(rest))


def _plain(text: str) -> str:
    return text.replace("\r", "").replace("\t", "    ")
