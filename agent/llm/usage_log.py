"""True token usage for kiln's own local server, read back from its log after each reply.

llama-cpp-python's server streams no usage, so the OpenAI client can only estimate prompt
and output tokens, and knows nothing of its KV cache. The server's verbose log has the
real figures per request (`cache_stats.py`). This wrapper notes where the log ends before
a request and, once the reply is complete, replaces the estimate with what the server
logged. When the log segment does not hold exactly one request (another client used the
server at the same time) it cannot tell whose figures are whose and keeps the estimate.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator
from pathlib import Path

from agent.llm.base import Completion, Message, ModelClient, ModelEvent, ToolSpec
from agent.llm.cache_stats import RequestStats, log_offset, parse_requests, read_since

# The log lines are written before the last chunk is sent; this only covers a slow disk.
LOG_WAIT_S = 1.0


class LoggedUsageClient:
    def __init__(self, inner: ModelClient, log: Path, wait_s: float = LOG_WAIT_S) -> None:
        self.inner = inner
        self.profile = inner.profile
        self.log = log
        self.wait_s = wait_s

    async def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> AsyncIterator[ModelEvent]:
        offset = log_offset(self.log)
        stream = self.inner.stream(messages, tools, max_tokens=max_tokens, temperature=temperature)
        async for event in stream:
            if isinstance(event, Completion):
                logged = await self._logged_request(offset)
                if logged is not None:
                    event = dataclasses.replace(event, usage=logged.usage)
            yield event

    async def _logged_request(self, offset: int) -> RequestStats | None:
        deadline = time.monotonic() + self.wait_s
        while True:
            requests = parse_requests(read_since(self.log, offset))
            if len(requests) > 1:
                return None
            if requests and requests[0].output is not None:
                return requests[0]
            if time.monotonic() >= deadline:
                return None
            await asyncio.sleep(0.05)

    async def aclose(self) -> None:
        await self.inner.aclose()
