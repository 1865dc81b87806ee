"""Reading the measurements: the server's cache log and kiln's own event stream."""

from __future__ import annotations

import json
from pathlib import Path

from agent.events import Finished, StopReason, ToolCallStarted, Usage
from agent.llm.cache_stats import log_offset, parse_cache_stats, stats_since
from agent.local.trial import TrialResult, _read_events, summary

# Verbatim from a llama-cpp-python 0.3.36 server log: a cold request, then two warm ones.
LOG = """\
llama_perf_context_print: prompt eval time =       0.04 ms /    41 tokens (    0.00 ms per token, 1171428.57 tokens per second)
llama_perf_context_print:        eval time =     326.06 ms /    11 runs   (   29.64 ms per token,    33.74 tokens per second)
Llama.generate: 5 prefix-match hit, remaining 158 prompt tokens to eval
llama_perf_context_print: prompt eval time =       0.06 ms /   158 tokens (    0.00 ms per token, 2548387.10 tokens per second)
llama_perf_context_print:        eval time =     861.49 ms /    28 runs   (   30.77 ms per token,    32.50 tokens per second)
Llama.generate: 162 prefix-match hit, remaining 1 prompt tokens to eval
llama_perf_context_print: prompt eval time =       0.00 ms /     1 tokens (    0.00 ms per token,      inf tokens per second)
"""


def test_the_cache_share_is_read_per_request_from_the_server_log() -> None:
    stats = parse_cache_stats(LOG)
    assert (stats.requests, stats.cached_tokens, stats.evaluated_tokens) == (3, 167, 200)
    assert round(stats.cached_share, 3) == round(167 / 367, 3)


def test_only_requests_after_the_offset_count(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text(LOG.splitlines(keepends=True)[0])
    offset = log_offset(log)
    with log.open("a") as f:
        f.write("".join(LOG.splitlines(keepends=True)[2:4]))
    stats = stats_since(log, offset)
    assert (stats.requests, stats.cached_tokens, stats.evaluated_tokens) == (1, 5, 158)


def test_steps_tokens_and_recovered_calls_come_from_the_event_stream() -> None:
    events = [
        ToolCallStarted("c1", "shell", {"cmd": "ls"}, recovered_from_text=True),
        ToolCallStarted("c2", "edit", {"path": "a.py"}),
        Finished(
            "done",
            StopReason.DONE,
            steps=4,
            usage=Usage(uncached_input=900, cached_input=3100, output=120),
        ),
    ]
    stdout = "not json\n" + "\n".join(json.dumps(e.to_dict()) for e in events)
    result = TrialResult("t")
    _read_events(stdout, result)
    assert (result.status, result.steps, result.tool_calls, result.recovered_calls) == (
        "done",
        4,
        2,
        1,
    )
    assert (result.input_tokens, result.cached_tokens, result.output_tokens) == (4000, 3100, 120)
    assert summary([result, TrialResult("u", solved=True)]).startswith(
        "solved 1/2; tool calls recovered from text 1/2;"
    )
