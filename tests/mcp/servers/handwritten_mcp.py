"""A minimal MCP server written by hand: newline-delimited JSON-RPC on stdin and stdout.

Tools: `lookup` (answers a definition), `crash` (the process exits), `hang` (never
answers), `flood` (answers with one line longer than any client should read). Every request it gets is appended to the file named by MCP_LOG, if set, so a test
can tell whether a call reached it.
"""

import json
import os
import sys
import time

TOOLS = [
    {
        "name": "lookup",
        "description": "Look a word up in the project glossary.",
        "inputSchema": {
            "type": "object",
            "properties": {"word": {"type": "string"}},
            "required": ["word"],
        },
    },
    {"name": "crash", "description": "Exit at once.", "inputSchema": {"type": "object"}},
    {"name": "hang", "description": "Never answer.", "inputSchema": {"type": "object"}},
    {"name": "flood", "description": "Answer too much.", "inputSchema": {"type": "object"}},
]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(message):
    if os.environ.get("MCP_LOG"):
        with open(os.environ["MCP_LOG"], "a") as f:
            f.write(json.dumps(message) + "\n")


for line in sys.stdin:
    request = json.loads(line)
    log(request)
    method, rid = request.get("method"), request.get("id")
    if rid is None:
        continue  # a notification
    if method == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "result": {
                    "protocolVersion": request["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "glossary", "version": "1"},
                },
            }
        )
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        name = request["params"]["name"]
        if name == "crash":
            print("glossary: asked to crash", file=sys.stderr, flush=True)
            sys.exit(3)
        if name == "hang":
            time.sleep(3600)
        if name == "flood":
            text = "x" * (17 * 1024 * 1024)
            send(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "result": {"content": [{"type": "text", "text": text}]},
                }
            )
            time.sleep(3600)  # still alive: the client must stop it
        word = request["params"]["arguments"].get("word", "")
        text = f"glossary: {word} means a kiln-fired clay vessel"
        send({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": text}]}})
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no such method"}})
