"""A plain JSON-RPC client for `kiln acp`, written by hand (no SDK): newline-delimited
JSON on the agent's stdin and stdout, every line it printed kept for inspection."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

KILN = str(Path(sys.executable).parent / "kiln")


class PlainAcpClient:
    def __init__(self, *args: str, stderr: BinaryIO | None = None) -> None:
        self.process = subprocess.Popen(
            [KILN, "acp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr or subprocess.DEVNULL,
        )
        self.lines: list[bytes] = []  # every line the agent wrote to stdout
        self._incoming: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            self._incoming.put(json.loads(line))
        self._incoming.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        self.process.stdin.flush()

    def start_request(self, method: str, params: dict[str, Any]) -> int:
        self._next_id += 1
        self.send({"id": self._next_id, "method": method, "params": params})
        return self._next_id

    def receive(self, timeout: float = 120) -> dict[str, Any]:
        message = self._incoming.get(timeout=timeout)
        if message is None:
            raise EOFError("kiln acp closed its stdout")
        return message

    def request(
        self, method: str, params: dict[str, Any], seen: list[dict[str, Any]] | None = None
    ) -> Any:
        """Send a request; gather what arrives before its answer into `seen`."""
        request_id = self.start_request(method, params)
        while True:
            message = self.receive()
            if message.get("id") == request_id and "method" not in message:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]
            if seen is not None:
                seen.append(message)

    def answer(self, request: dict[str, Any], result: dict[str, Any]) -> None:
        self.send({"id": request["id"], "result": result})

    def close(self, timeout: float = 60) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout)
