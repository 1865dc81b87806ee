"""The streamed reply: the tail wraps as text arrives, exactly as if wrapped whole, and
complete blocks (never half a code fence) move into the Markdown."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tui.widgets.reply import AssistantReply, StreamTail

TEXT = (
    "The bug is in add: it subtracts. " * 9
    + "\nA line break.\n\n```python\ndef add(a, b):\n\n    return a + b\n```\n\nAfter the fence "
    + "a-very-long-word-that-does-not-fit-in-one-line-of-forty-cells-at-all and more."
)


class _One(App[None]):
    def __init__(self, reply: AssistantReply | None = None) -> None:
        super().__init__()
        self.reply = reply or AssistantReply()

    def compose(self) -> ComposeResult:
        yield self.reply


def _wrapped(tail: StreamTail) -> list[str]:
    return [*tail._lines, *([tail._last] if tail._last else [])]


def test_wrapping_as_text_arrives_equals_wrapping_it_whole() -> None:
    whole, pieces = StreamTail(), StreamTail()
    whole.get_content_height(None, None, 40)  # type: ignore[arg-type]
    pieces.get_content_height(None, None, 40)  # type: ignore[arg-type]
    whole.append(TEXT)
    for start in range(0, len(TEXT), 7):
        pieces.append(TEXT[start : start + 7])
    assert _wrapped(pieces) == _wrapped(whole)
    assert all(len(line) <= 40 for line in _wrapped(whole))
    assert "A line break." in _wrapped(whole)


def test_settled_blocks_end_at_a_blank_line_outside_a_fence() -> None:
    tail = StreamTail()
    tail.append("one paragraph\n\n```\ncode\n\nstill code")
    assert tail.text[: tail.settled_length()] == "one paragraph\n\n"
    tail.append("\n```\n\nnext")
    assert tail.text[: tail.settled_length()].endswith("still code\n```\n\n")


async def test_the_reply_ends_with_every_word_in_the_markdown() -> None:
    app = _One()
    inside_the_fence = TEXT.index("return")
    async with app.run_test(size=(60, 40)) as pilot:
        for start in range(0, inside_the_fence, 11):
            await app.reply.write(TEXT[start : min(start + 11, inside_the_fence)])
        await pilot.pause()
        await pilot.pause()
        source = app.reply.markdown.source
        assert source.startswith("The bug") and "python" not in source  # the fence is open
        assert app.reply.tail.text.startswith("```python")
        await app.reply.write(TEXT[inside_the_fence:])
        await app.reply.finish()
        await pilot.pause()
        assert app.reply.markdown.source == TEXT and app.reply.tail.text == ""
        assert app.reply.tail.size.height == 0


def _painted_text(app: App[None]) -> str:
    """The screen's rows as the next full frame paints them."""
    update = app.screen._compositor.render_update(full=True)
    return "\n".join("".join(s.text for s in line) for line in update.strips)  # type: ignore[union-attr]


async def test_a_whole_reply_is_painted_as_text_first_then_formatted() -> None:
    """A resumed session's last reply: on screen before the Markdown loads, formatted next."""
    whole = "The fix is **in add**: it subtracts.\n\n- one\n- two\n"
    app = _One(AssistantReply(whole, format_now=False))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert app.reply.markdown is None and app.reply.tail.text == whole
        assert "**in add**" in _painted_text(app)  # the words, as written
        await pilot.pause(0.2)
        assert app.reply.markdown is not None and app.reply.markdown.source == whole
        assert app.reply.tail.text == ""
        painted = _painted_text(app)
        assert "in add: it subtracts" in painted and "**" not in painted  # formatted


async def test_a_whole_reply_is_formatted_at_once_when_asked() -> None:
    app = _One(AssistantReply("Plain **words**.", format_now=True))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert app.reply.markdown is not None and app.reply.tail.text == ""
        assert "Plain words." in _painted_text(app)
