"""Capture a command's output with bounded memory: head + tail in RAM, everything on disk.

A command may print gigabytes; kiln keeps only `cap` bytes in memory (the first half and
a rolling last half) and streams the output to a file the person can page through, up to
`file_cap` bytes: a command printing forever must not fill the host's disk.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO


class OutputCapture:
    def __init__(self, cap: int, path: Path, file_cap: int = 64 << 20, shown_as: str = "") -> None:
        self.cap = max(cap, 64)
        self.path = path
        self.shown_as = shown_as or str(path)  # where the reader of the text can open it
        self.file_cap = file_cap
        self.total = 0
        self._head = bytearray()
        self._tail = bytearray()
        self._file: BinaryIO | None = path.open("wb")

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        if self._file is not None:
            room = self.file_cap - self.total
            if room > 0:
                self._file.write(chunk[:room])
            else:
                self._file.close()
                self._file = None
        self.total += len(chunk)
        half = self.cap // 2
        room = half - len(self._head)
        if room > 0:
            self._head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self._tail += chunk[-half:]
            # Trim only once the tail is twice as long as needed, so trimming is amortised.
            if len(self._tail) > 2 * half:
                del self._tail[:-half]

    def finish(self) -> tuple[str, bool, str | None]:
        """(capped text, truncated?, path of the full output or None when nothing was cut)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        half = self.cap // 2
        if self.total <= self.cap:
            text = (bytes(self._head) + bytes(self._tail)).decode("utf-8", "replace")
            self.path.unlink(missing_ok=True)
            return text, False, None
        tail = bytes(self._tail[-half:])
        omitted = self.total - len(self._head) - len(tail)
        kept = "full output" if self.total <= self.file_cap else f"its first {self.file_cap} bytes"
        marker = f"\n[... {omitted} bytes omitted; {kept} in {self.shown_as} ...]\n"
        head_text = bytes(self._head).decode("utf-8", "replace")
        tail_text = tail.decode("utf-8", "replace")
        return head_text + marker + tail_text, True, str(self.path)
