"""A language server that only publishes (no pull, no tsserver): an error on each line
holding the word FIXME, a second and a half late for a text holding SLOW; it crashes on a
text holding CRASH. Run in the sandbox as an `[lsp.NAME]` server of the tests' own, it
takes kiln's client down the path gopls and most servers take."""

import json
import sys
import time


def read() -> dict:
    length = 0
    while (line := sys.stdin.buffer.readline().strip()) != b"":
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(sys.stdin.buffer.read(length))


def send(message: dict) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


while True:
    message = read()
    method, params = message.get("method"), message.get("params") or {}
    if method == "initialize":
        send({"id": message["id"], "result": {"capabilities": {"textDocumentSync": 1}}})
    elif method == "shutdown":
        send({"id": message["id"], "result": None})
    elif method == "exit":
        break
    elif method in ("textDocument/didOpen", "textDocument/didChange"):
        document = params["textDocument"]
        text = document.get("text") or params["contentChanges"][-1]["text"]
        found = [
            {
                "range": {"start": {"line": n, "character": 0}, "end": {"line": n, "character": 1}},
                "severity": 1,
                "code": "fixme",
                "message": "FIXME left in",
            }
            for n, line in enumerate(text.splitlines())
            if "FIXME" in line
        ]
        if "SLOW" in text:
            time.sleep(1.5)
        if "CRASH" in text:
            sys.exit("crashed on purpose")
        said = {"uri": document["uri"], "version": document["version"], "diagnostics": found}
        send({"method": "textDocument/publishDiagnostics", "params": said})
