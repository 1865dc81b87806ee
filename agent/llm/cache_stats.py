"""True token counts of the local server's requests, read from its verbose log.

llama-cpp-python's server sends no usage while streaming (and ignores
`stream_options.include_usage`), but with verbose logs it prints, per request,
"Llama.generate: N prefix-match hit" (tokens reused from its KV cache), then
"prompt eval time = ... / M tokens" (tokens it had to read) and "eval time = ... / K runs"
(tokens it generated). Both lines are written before the reply's last chunk is sent, so a
client that saw its reply end finds its own request complete in the log.

Those counts are llama.cpp's passes, not a request's tokens: a pass of several tokens (a
draft checked at once) counts as prompt, and only single-token passes as generated. So
kiln's server process writes its own line per request (`usage_line`) once the reply's
last token is out, and where the log has those lines they are the only ones read.
"""

from __future__ import annotations

import re
from pathlib import Path

from agent.events import Usage
from sandbox.frozen import frozen

_PREFIX = re.compile(r"Llama\.generate: (\d+) prefix-match hit")
_PROMPT_EVAL = re.compile(r"prompt eval time\s*=\s*[\d.]+ ms /\s*(\d+) tokens")
_EVAL = re.compile(r"[:\s]eval time\s*=\s*[\d.]+ ms /\s*(\d+) runs")
_USAGE = re.compile(r"^kiln usage: (\d+) cached, (\d+) evaluated, (\d+) generated$", re.M)


def usage_line(cached: int, evaluated: int, generated: int) -> str:
    """What kiln's server process logs for one request: its prompt tokens reused from the
    KV cache and read anew, and the tokens of its reply."""
    return f"kiln usage: {cached} cached, {evaluated} evaluated, {generated} generated"


@frozen
class RequestStats:
    """One request as the server logged it."""

    cached: int  # prompt tokens reused from the KV cache
    evaluated: int  # prompt tokens read anew
    output: int | None = None  # generated tokens; None until the eval line is logged

    @property
    def usage(self) -> Usage:
        return Usage(
            uncached_input=self.evaluated, cached_input=self.cached, output=self.output or 0
        )


@frozen
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


def parse_requests(log_text: str) -> list[RequestStats]:
    own = [RequestStats(*map(int, match.groups())) for match in _USAGE.finditer(log_text)]
    if own:
        return own
    requests: list[RequestStats] = []
    pending = 0  # the prefix reused by the request whose prompt-eval line comes next
    for line in log_text.splitlines():
        if match := _PREFIX.search(line):
            pending = int(match.group(1))
        elif match := _PROMPT_EVAL.search(line):
            requests.append(RequestStats(pending, int(match.group(1))))
            pending = 0
        elif (match := _EVAL.search(line)) and requests and requests[-1].output is None:
            last = requests[-1]
            requests[-1] = RequestStats(last.cached, last.evaluated, int(match.group(1)))
    return requests


def parse_cache_stats(log_text: str) -> CacheStats:
    requests = parse_requests(log_text)
    return CacheStats(
        len(requests), sum(r.cached for r in requests), sum(r.evaluated for r in requests)
    )


def log_offset(log: Path) -> int:
    return log.stat().st_size if log.is_file() else 0


def read_since(log: Path, offset: int) -> str:
    if not log.is_file():
        return ""
    with log.open("rb") as f:
        f.seek(offset)
        return f.read().decode("utf-8", "replace")


def stats_since(log: Path, offset: int) -> CacheStats:
    """The stats of the requests logged after `offset` (from `log_offset` before a run)."""
    return parse_cache_stats(read_since(log, offset))
