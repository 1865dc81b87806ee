"""`kiln acp`'s entry: the ACP SDK is an extra, so its absence is one sentence."""

from __future__ import annotations

import argparse
import importlib.util

from agent.errors import UsageError


def main(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("acp") is None:
        raise UsageError(
            "kiln acp needs the Agent Client Protocol SDK: pip install 'kiln-code[protocols]'."
        )
    from agent.acp.server import main as serve

    return serve(args)
