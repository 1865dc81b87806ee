"""True token counts for the local model: each reply's usage read back from the server log.

The model is the scripted server with the `no_usage` quirk (llama-cpp-python's server
streams no usage either); the log lines are verbatim from a llama-cpp-python 0.3.36 server,
written while the reply streams, as that server does.
"""

from __future__ import annotations

from pathlib import Path

from agent.events import Usage
from agent.llm.base import Completion
from agent.llm.cache_stats import parse_requests, usage_line
from agent.llm.scripted.server import ScriptedServer
from agent.llm.usage_log import LoggedUsageClient
from tests.llm.streams import TOOLS, USER, openai_client

ONE_REQUEST = """\
INFO:     127.0.0.1:49830 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 2544 prefix-match hit, remaining 73 prompt tokens to eval
llama_perf_context_print:        load time =   50980.72 ms
llama_perf_context_print: prompt eval time =    5712.41 ms /    73 tokens (   78.25 ms per token,    12.78 tokens per second)
llama_perf_context_print:        eval time =   77218.05 ms /   166 runs   (  465.17 ms per token,     2.15 tokens per second)
llama_perf_context_print:       total time =   83975.66 ms /   239 tokens
Llama._create_completion: cache save
"""
COLD_REQUEST = """\
llama_perf_context_print: prompt eval time =    9120.00 ms /   890 tokens (   10.25 ms per token,    97.59 tokens per second)
llama_perf_context_print:        eval time =     900.00 ms /    26 runs   (   34.62 ms per token,    28.89 tokens per second)
"""
SCRIPT = {"quirks": ["no_usage"], "turns": [{"text": "Looking at the code now."}]}


async def _reply_while_logging(log: Path, logged: str, wait_s: float = 1.0) -> Completion:
    with ScriptedServer(SCRIPT) as server:
        client = LoggedUsageClient(openai_client(server.base_url), log, wait_s=wait_s)
        stream = client.stream(USER, TOOLS)
        await anext(stream)  # the request is in: the server logs it while it answers
        with log.open("a") as f:
            f.write(logged)
        events = [event async for event in stream]
        await client.aclose()
    assert isinstance(events[-1], Completion)
    return events[-1]


def test_each_request_is_parsed_with_its_cached_read_and_generated_tokens() -> None:
    requests = parse_requests(COLD_REQUEST + ONE_REQUEST)
    assert [r.usage for r in requests] == [
        Usage(uncached_input=890, cached_input=0, output=26),
        Usage(uncached_input=73, cached_input=2544, output=166),
    ]


async def test_the_reply_carries_the_usage_the_server_logged_for_it(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text(COLD_REQUEST)  # an earlier request: before the offset, not counted
    completion = await _reply_while_logging(log, ONE_REQUEST)
    assert completion.usage == Usage(uncached_input=73, cached_input=2544, output=166)


async def test_kilns_own_line_is_read_before_llama_cpps_pass_counts(tmp_path: Path) -> None:
    # With drafts, llama.cpp counts a pass of several tokens as prompt: its lines below say
    # 73 + 150 read and 16 runs for a reply of 160 tokens. kiln's server says what was.
    drafted = ONE_REQUEST.replace("/    73 tokens", "/   223 tokens").replace(
        "/   166 runs", "/    16 runs"
    )
    logged = drafted.replace(
        "Llama._create_completion", usage_line(2544, 73, 160) + "\nLlama._create_completion"
    )
    assert [r.usage for r in parse_requests(COLD_REQUEST + logged)] == [
        Usage(uncached_input=73, cached_input=2544, output=160)
    ]
    log = tmp_path / "server.log"
    log.write_text("")
    completion = await _reply_while_logging(log, logged)
    assert completion.usage == Usage(uncached_input=73, cached_input=2544, output=160)


async def test_two_requests_in_the_log_cannot_be_told_apart_so_the_estimate_stays(
    tmp_path: Path,
) -> None:
    log = tmp_path / "server.log"
    log.write_text("")
    completion = await _reply_while_logging(log, COLD_REQUEST + ONE_REQUEST, wait_s=0.2)
    usage = completion.usage
    assert usage.cached_input == 0 and usage.uncached_input > 0
    assert usage.output not in (0, 26, 166)  # estimated from the streamed text


async def test_without_a_log_the_estimate_stays(tmp_path: Path) -> None:
    completion = await _reply_while_logging(tmp_path / "server.log", "", wait_s=0.2)
    assert completion.usage.cached_input == 0 and completion.usage.uncached_input > 0
