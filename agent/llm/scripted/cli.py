"""`kiln serve-scripted SCRIPT [--port N]`: serve a scripted model until Ctrl+C.

Lets a person replay a session by hand: point any OpenAI- or Anthropic-compatible client
(kiln itself: `--base-url`) at the printed URL. The script format is in `script.py`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import threading
from pathlib import Path

from agent.errors import UsageError
from agent.llm.scripted.server import Script, ScriptedServer


def main(args: argparse.Namespace) -> int:
    path = Path(args.script)
    try:
        script = Script.load(path)
    except FileNotFoundError:
        raise UsageError(f"{path} does not exist; pass the path of a JSON script.") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(
            f"{path} is not a valid script ({exc}); see `agent/llm/scripted/server.py` for the format."
        ) from None
    try:
        server = ScriptedServer(script, port=int(args.port or 0))
    except OSError as exc:
        raise UsageError(
            f"Cannot listen on 127.0.0.1:{args.port} ({exc.strerror}); pick another --port."
        ) from None
    with server:
        print(server.base_url, flush=True)
        print(
            f"serving {len(script.turns)} scripted turns as model {json.dumps(script.model)}; "
            "Ctrl+C stops",
            flush=True,
        )
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0
