"""How much of the prompt the local server took from its KV cache, read from its log.

llama-cpp-python's server reports no cached-token counts in its usage, but with verbose
logs it prints, per request, "Llama.generate: N prefix-match hit" (tokens reused) and
"prompt eval time = ... / M tokens" (tokens it had to read). That is enough to measure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_PREFIX = re.compile(r"Llama\.generate: (\d+) prefix-match hit")
_EVAL = re.compile(r"prompt eval time\s*=\s*[\d.]+ ms /\s*(\d+) tokens")


@dataclass(frozen=True)
class CacheStats:
    requests: int = 0
    cached_tokens: int = 0
    evaluated_tokens: int = 0

    @property
    def prompt_tokens(self) -> int:
        return self.cached_tokens + self.evaluated_tokens

    @property
    def cached_share(self) -> float:
        return self.cached_tokens / self.prompt_tokens if self.prompt_tokens else 0.0


def parse_cache_stats(log_text: str) -> CacheStats:
    requests = cached = evaluated = 0
    pending = 0  # the prefix reused by the request whose eval line comes next
    for line in log_text.splitlines():
        if match := _PREFIX.search(line):
            pending = int(match.group(1))
        elif match := _EVAL.search(line):
            requests += 1
            evaluated += int(match.group(1))
            cached += pending
            pending = 0
    return CacheStats(requests, cached, evaluated)


def log_offset(log: Path) -> int:
    return log.stat().st_size if log.is_file() else 0


def stats_since(log: Path, offset: int) -> CacheStats:
    """The stats of the requests logged after `offset` (from `log_offset` before a run)."""
    if not log.is_file():
        return CacheStats()
    with log.open("rb") as f:
        f.seek(offset)
        return parse_cache_stats(f.read().decode("utf-8", "replace"))
