"""Waiting until what a screen was given is painted, from a task of its own.

A resumed session's end is drawn before the session loads, and the load then holds the
event loop for a few tenths of a second (imports, thousands of events decoded). Started
on a timer, the load came first whenever the timer ran out before the frame (a busy
machine): the person waited for the whole load to see anything. This waits for the frame
itself instead.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from textual.screen import Screen

PASSES = 4  # a replayed reply mounts its Markdown's blocks a step at a time
LONGEST_WAIT = 1.0  # seconds


async def handled(screen: Screen[Any]) -> None:
    """Return once every node on `screen` has handled the messages it had when called."""
    nodes = [screen.app, *screen.walk_children(with_self=True)]
    left = 0
    done = asyncio.Event()

    def one_done() -> None:
        nonlocal left
        left -= 1
        if left == 0:
            done.set()

    for node in nodes:
        if node.call_later(one_done):
            left += 1
    if left:
        await done.wait()


async def painted(screen: Screen[Any]) -> None:
    """Return once what `screen` was given is mounted, laid out and painted: its nodes have
    handled their messages (again while that mounted more of them), then its layout was
    refreshed and drawn. Call it from another task (a worker): the screen's own would wait
    on itself. (A node's "after refresh" callbacks run once its messages are handled,
    which can be before the screen's next frame: waiting on one, the session's load
    started first and the resumed screen was drawn a quarter of a second late.)"""
    count = -1
    for _ in range(PASSES):
        await handled(screen)
        now = len(list(screen.walk_children()))
        if now == count:
            break
        count = now
    if not screen.is_current:  # under a dialog: nothing of it is drawn until it is shown
        return
    laid_out = asyncio.Event()
    signal = screen.screen_layout_refresh_signal  # published once a layout is drawn
    signal.subscribe(screen.app, lambda _screen: laid_out.set(), immediate=True)
    try:
        screen.refresh(layout=True)
        with contextlib.suppress(TimeoutError):  # the app closing draws nothing more
            await asyncio.wait_for(laid_out.wait(), LONGEST_WAIT)
    finally:
        signal.unsubscribe(screen.app)
