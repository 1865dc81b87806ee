"""A scrolling log that mounts only the entries near the viewport.

Every block of a session stays as data (`entries.py`); widgets exist for one contiguous
run of entries, `lo` to `hi`, at most `WINDOW` of them. Scrolling near the top mounts the
batch before `lo` (the view kept where it was), near the bottom the batch after `hi`;
the far end of the window is unmounted as the other end grows. Mounting is what a long
session costs: a Textual log that mounts every message took 4.9 s for 1,000 of them, and
0.5 s with a 200-message window. A search or a jump goes over all the entries and mounts
the window around the one it finds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from tui.widgets.entries import Entry, ToolEntry

if TYPE_CHECKING:
    from textual.widgets import Collapsible

WINDOW = 100  # entries mounted at most
# While the view follows new content, fewer: a screen and a margin. Every line a streamed
# reply adds lays the mounted blocks out again, so the lag at step 1,000 is step 10's.
FOLLOWING = 25
# Mounted first of many entries at once (a resumed session): at most this many, fewer when
# their text fills a screen and a half (a long last reply alone does); the rest as the
# person scrolls up (or at once, when these do not fill the view).
FIRST = 15
BATCH = 25  # entries mounted at once at an edge; a resumed session's last screen and more


class WindowedLog(VerticalScroll):
    """Stays pinned to the bottom while new content arrives, unless the person scrolls up."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.entries: list[Entry] = []
        self.lo = 0  # the first mounted entry
        self.hi = 0  # one past the last mounted entry
        self._filling = False
        # One change of the window at a time (a batch mounting at an edge while a search
        # moves the window would leave `lo` and `hi` naming widgets that are gone); a
        # batch's scroll correction is dropped once a jump has moved the view since.
        self._changing = asyncio.Lock()
        self._jumps = 0
        self._jumping = False  # a jump's scroll is due: no batch mounts before it lands
        self._found: Entry | None = None
        # The labels at either end of the window, mounted when first shown: an empty
        # transcript's two hidden widgets only slowed the first frame.
        self._earlier = Static("", classes="window-edge")
        self._later = Static("", classes="window-edge")

    def on_mount(self) -> None:
        self.anchor()

    @property
    def mounted(self) -> list[Widget]:
        """The entries' widgets on the screen now, in order."""
        return [w for e in self.entries[self.lo : self.hi] if (w := e.widget) is not None]

    def _following(self) -> bool:
        # Anchored and not scrolled away: Textual's own test for keeping to the bottom.
        return self.is_anchored and not self._anchor_released

    # --- adding ---------------------------------------------------------------------

    async def append(self, entry: Entry) -> None:
        """A new entry at the end, mounted when the window reaches the end."""
        async with self._changing:
            await self._append(entry)

    async def _append(self, entry: Entry) -> None:
        self.entries.append(entry)
        at_end = self.hi == len(self.entries) - 1
        if at_end and (self._following() or self.hi - self.lo < WINDOW):
            await self._mount(self.hi, self.hi + 1)
            self.hi += 1
            if self.hi - self.lo > WINDOW:  # whatever the view: the far end goes
                keep = FOLLOWING if self._following() else WINDOW
                await self._unmount(self.lo, self.hi - keep)
                self.lo = self.hi - keep
            elif self.hi - self.lo > FOLLOWING and self._following():
                stop = self._trim_point()
                await self._unmount(self.lo, stop)
                self.lo = stop
        self._label()

    def _trim_point(self) -> int:
        """How far the top may be unmounted while following: down to FOLLOWING blocks, as
        long as what stays fills a screen and a half (a tall terminal keeps more)."""
        remaining = self.virtual_size.height
        floor = self.size.height * 3 // 2
        stop = self.lo
        for entry in self.entries[self.lo : self.hi - FOLLOWING]:
            height = entry.widget.outer_size.height if entry.widget is not None else 0
            if remaining - height < floor:
                break
            remaining -= height
            stop += 1
        return stop

    async def extend(self, entries: Sequence[Entry]) -> None:
        """Many entries at once (a resumed session): only the last are mounted, about a
        screen and a half of them; the rest mounts as the person scrolls up."""
        if not entries:
            return
        async with self._changing:
            await self._extend(entries)

    async def _extend(self, entries: Sequence[Entry]) -> None:
        at_end = self.hi == len(self.entries)
        self.entries.extend(entries)
        if at_end:
            start = self._first_to_mount()
            await self._unmount(self.lo, self.hi)
            self.lo = start
            await self._mount(start, len(self.entries))
            self.hi = len(self.entries)
        self._label()

    def _first_to_mount(self) -> int:
        """Where mounting many entries at once starts: the last, as many as fill a screen
        and a half by their text, at most FIRST. Mounting is what resuming costs: a long
        last reply alone fills the screen, and the fourteen blocks above it were 40% of
        the time to paint a resumed 1,000-step session."""
        width = self.scrollable_content_region.width
        wanted = self.size.height * 3 // 2 if width else 0
        start, rows = len(self.entries), 0
        while start > self.hi and len(self.entries) - start < FIRST:
            if wanted and rows >= wanted:
                break  # not laid out yet (no width): FIRST of them
            start -= 1
            rows += self.entries[start].rows(width)
        return start

    async def prepend(self, entries: Sequence[Entry]) -> None:
        """Entries before all the others (a resumed session's start, read after its end):
        data only; they mount as the person scrolls up."""
        async with self._changing:
            self.entries[:0] = entries
            self.lo += len(entries)
            self.hi += len(entries)
            self._label()

    # --- mounting and unmounting ----------------------------------------------------

    async def _mount(self, start: int, stop: int, *, before_all: bool = False) -> None:
        widgets = []
        for entry in self.entries[start:stop]:
            entry.widget = entry.build()
            if entry is self._found:
                entry.widget.add_class("-found")
            widgets.append(entry.widget)
        if not widgets:
            return
        if before_all and self._earlier.parent is self:
            await self.mount_all(widgets, after=self._earlier)
        elif before_all:
            await self.mount_all(widgets, before=self.children[0] if self.children else None)
        elif self._later.parent is self:
            await self.mount_all(widgets, before=self._later)
        else:
            await self.mount_all(widgets)

    async def _unmount(self, start: int, stop: int) -> None:
        widgets = []
        for entry in self.entries[start:stop]:
            if entry.widget is not None:
                widgets.append(entry.widget)
                entry.widget = None
        if widgets:
            await self.remove_children(widgets)

    def _label(self) -> None:
        later = len(self.entries) - self.hi
        self._earlier.display = self.lo > 0
        self._later.display = later > 0
        if self.lo:
            self._placed(self._earlier, first=True)
            self._earlier.update(f"↑ {self.lo} earlier blocks: scroll up to see them")
        if later:
            self._placed(self._later, first=False)
            self._later.update(f"↓ {later} later blocks: scroll down to see them")

    def _placed(self, edge: Static, *, first: bool) -> None:
        """An edge's label mounted, the first time it is shown, before or after every block."""
        if edge.parent is None:
            self.mount(edge, before=self.children[0] if first and self.children else None)

    def _offset(self, anchor: Widget | None) -> tuple[Widget, float] | None:
        """Where `anchor` is in the view now, to keep it there (`_settle`)."""
        if anchor is None:
            return None
        return anchor, anchor.virtual_region.y - self.scroll_y

    # --- scrolling ------------------------------------------------------------------

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._check_edges()

    def _check_edges(self) -> None:
        if not self._filling and not self._jumping and self._edge() is not None:
            self._filling = True
            self.call_later(self._fill)

    def _edge(self) -> str | None:
        """Which edge of the window the view is near and has more beyond it, if any."""
        rows = max(self.scrollable_content_region.height, 1)
        if (
            self.lo > 0
            and self.scroll_y <= rows
            and (not self._following() or not self.max_scroll_y)
        ):
            return "top"  # while following, only when the blocks do not fill the view
        if self.hi < len(self.entries) and self.scroll_y >= self.max_scroll_y - rows:
            return "bottom"
        return None

    async def _fill(self) -> None:
        """One batch at the edge the view is near; the next, if still near, once the view
        is laid out again (a handler never waits for its own refresh)."""
        kept = None
        jumps = self._jumps
        try:
            async with self._changing:
                edge = None if self._jumping else self._edge()
                if edge == "top":
                    kept = await self._mount_earlier()
                elif edge == "bottom":
                    kept = await self._mount_later()
        finally:
            self.call_after_refresh(self._settle, kept if jumps == self._jumps else None)

    def _settle(self, kept: tuple[Widget, float] | None) -> None:
        if kept is not None and kept[0].is_attached:
            anchor, offset = kept
            self.scroll_to(y=anchor.virtual_region.y - offset, animate=False, immediate=True)
        self._filling = False
        self._check_edges()

    async def _mount_earlier(self) -> tuple[Widget, float] | None:
        start = max(0, self.lo - BATCH)
        kept = self._offset(self.entries[self.lo].widget or self._earlier)
        await self._mount(start, self.lo, before_all=True)
        self.lo = start
        if self.hi - self.lo > WINDOW:  # the far end, below the view: nothing moves
            await self._unmount(self.lo + WINDOW, self.hi)
            self.hi = self.lo + WINDOW
        self._label()
        return kept

    async def _mount_later(self) -> tuple[Widget, float] | None:
        stop = min(len(self.entries), self.hi + BATCH)
        kept = self._offset(self.entries[self.hi - 1].widget if self.hi > self.lo else None)
        await self._mount(self.hi, stop)
        self.hi = stop
        if self.hi - self.lo > WINDOW:  # the far end, above the view: kept in place
            await self._unmount(self.lo, self.hi - WINDOW)
            self.lo = self.hi - WINDOW
        self._label()
        return kept

    # --- finding --------------------------------------------------------------------

    def find(self, query: str, before: int | None = None) -> int | None:
        """The last entry before `before` (default: the end) whose text holds `query`,
        case-insensitively, mounted or not."""
        wanted = query.lower()
        start = len(self.entries) if before is None else min(before, len(self.entries))
        for index in range(start - 1, -1, -1):
            if wanted in self.entries[index].text().lower():
                return index
        return None

    async def reveal(self, index: int, *, expand: bool = False) -> Widget:
        """Mount the window around entry `index`, scroll it into view and mark it (a tool
        call opened too when `expand`); the view stops following new content."""
        self._jumping = True
        async with self._changing:
            self._jumps += 1
            widget = await self._reveal(index, expand=expand)
        self.call_after_refresh(self._landed, widget)
        return widget

    def _landed(self, widget: Widget) -> None:
        self._jumping = False
        self.scroll_to_widget(widget, top=True, animate=False, immediate=True)
        self._check_edges()

    async def _reveal(self, index: int, *, expand: bool) -> Widget:
        entry = self.entries[index]
        self.release_anchor()
        if self._found is not None and self._found.widget is not None:
            self._found.widget.remove_class("-found")
        self._found = entry
        if isinstance(entry, ToolEntry) and expand:
            entry.collapsed = False
        if not self.lo <= index < self.hi:
            await self._unmount(self.lo, self.hi)
            self.lo = max(0, index - BATCH)
            self.hi = min(len(self.entries), index + BATCH)
            await self._mount(self.lo, self.hi)
            self._label()
        widget = entry.widget
        assert widget is not None
        widget.add_class("-found")
        if isinstance(entry, ToolEntry) and not entry.collapsed and entry.block is not None:
            entry.block.collapsed = False
        return widget

    # By name, not `@on(Collapsible.Toggled)`: the class loads with the first tool call.
    def on_collapsible_expanded(self, message: Collapsible.Expanded) -> None:
        self._toggled(message)

    def on_collapsible_collapsed(self, message: Collapsible.Collapsed) -> None:
        self._toggled(message)

    def _toggled(self, message: Collapsible.Toggled) -> None:
        """Remember a tool call opened or closed, for when its block is built again."""
        for entry in self.entries[self.lo : self.hi]:
            if entry.widget is message.collapsible and isinstance(entry, ToolEntry):
                entry.collapsed = message.collapsible.collapsed
