"""rotlog PATH [--keep N]: rotate one log file, for cron."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rotlog.rotate import rotate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rotlog")
    parser.add_argument("log", type=Path)
    parser.add_argument("--keep", type=int, default=7)
    args = parser.parse_args(argv)
    written = rotate(args.log, args.keep)
    print(f"rotated to {written.name}" if written else "nothing to rotate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
