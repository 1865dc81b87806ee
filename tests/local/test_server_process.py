"""The model server's process: saved states without the logits copy, a cache counted in bytes.

Needs llama-cpp-python (the `kiln local install` runtime); the round trip also needs the
installed weights, read from the person's data dir as it was before the tests' own.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

import pytest

from agent.llm.cache_stats import parse_requests
from agent.local.catalog import DEFAULT_MODEL, MODELS
from tests.conftest import import_or_skip_locally

# The runtime is what `kiln local install` builds; `.ci/setup` builds it the same way, so
# in CI these tests run (and fail when it is missing) rather than skip.
llama_cpp = import_or_skip_locally("llama_cpp", "the runtime of `kiln local install`")
# With the runtime there, these import or fail: numpy comes with it, and a module of
# kiln's own that no longer imports is a failure, never a skip.
np = importlib.import_module("numpy")
server_process = importlib.import_module("agent.local.server_process")

_DATA_HOME = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
WEIGHTS = _DATA_HOME / "kiln" / "models" / MODELS[DEFAULT_MODEL].file_name


def _state(kv_bytes: int, score_rows: int = 0) -> object:
    return llama_cpp.LlamaState(
        input_ids=np.zeros(100, dtype=np.intc),
        scores=np.zeros((score_rows, 1000), dtype=np.single),
        n_tokens=100,
        llama_state=bytes(kv_bytes),
        llama_state_size=kv_bytes,
        seed=1,
    )


def test_the_cache_counts_the_logits_a_state_carries_not_only_its_kv() -> None:
    cache = server_process.HeldBytesCache(capacity_bytes=100_000)
    cache[[1, 2, 3]] = _state(kv_bytes=30_000, score_rows=10)  # 40 KB of logits
    assert cache.cache_size == 30_000 + 400 + 40_000
    cache[[4, 5, 6]] = _state(kv_bytes=30_000, score_rows=10)
    # llama-cpp-python's own count (the KV only, 60 KB) would keep both: 141 KB held.
    assert list(cache.cache_state) == [(4, 5, 6)]
    assert cache.cache_size <= 100_000


@pytest.mark.skipif(not WEIGHTS.is_file(), reason="the embedded model is not installed")
def test_a_lean_state_restores_the_context_it_saved() -> None:
    llm = server_process.LeanStateLlama(
        str(WEIGHTS), n_ctx=512, n_threads=2, logits_all=False, verbose=False
    )
    prompt = "def add(a, b):\n    return"

    def greedy() -> str:
        reply = llm.create_completion(prompt, max_tokens=6, temperature=0.0)
        return str(reply["choices"][0]["text"])

    expected = greedy()  # read from nothing
    llm.reset()
    llm.eval(llm.tokenize(prompt.encode()))
    saved = llm.save_state()
    assert saved.scores.nbytes == 0, "the state must not carry the logits array"

    llm.reset()
    llm.eval(llm.tokenize(b"The capital of France is"))
    llm.load_state(saved)
    assert llm.n_tokens == saved.n_tokens
    # The prompt is found in the restored context: all but its last token are reused,
    # so a wrong KV restore shows as a different continuation.
    assert greedy() == expected


def _ids(*tokens: int) -> object:
    return np.array(tokens, dtype=np.intc)


def test_the_draft_is_what_followed_the_latest_match_of_the_longest_ending() -> None:
    draft = server_process.LookupDraft(num_pred_tokens=8)
    # The ending (7, 8, 9) came twice before; the latest occurrence is followed by 4, 5.
    context = _ids(7, 8, 9, 1, 2, 3, 7, 8, 9, 4, 5, 6, 0, 7, 8, 9)
    assert list(draft(context)) == [4, 5]  # two tokens to start with
    assert list(draft(_ids(1, 2, 3))) == []  # no ending seen before: no draft


def test_the_draft_grows_while_taken_and_pauses_once_refused() -> None:
    draft = server_process.LookupDraft(num_pred_tokens=8)
    prompt = list(range(100, 140))
    context = [*prompt, 100, 101]  # the reply starts repeating the prompt
    for size in (2, 4, 8, 8):
        proposed = list(draft(_ids(*context)))
        assert len(proposed) == size
        context += [*proposed, context[-1] + len(proposed) + 1]  # all taken, and one more
    proposed = list(draft(_ids(*context)))
    context += [999]  # none of it taken: the model said something else
    assert list(draft(_ids(*context))) == []  # paused for a few tokens
    for _ in range(server_process.LookupDraft.PAUSE - 1):
        context += [998]
        assert list(draft(_ids(*context))) == []


LINE = "total = sum(price * count for price, count in basket.items())"


def _drafting_llm() -> Any:
    return server_process.LeanStateLlama(
        str(WEIGHTS), n_ctx=1024, n_threads=2, logits_all=False, verbose=False,
        draft_model=server_process.LookupDraft(),
    )  # fmt: skip


@pytest.mark.skipif(not WEIGHTS.is_file(), reason="the embedded model is not installed")
def test_drafts_keep_the_states_lean_and_the_reply_whole() -> None:
    llm = _drafting_llm()
    prompt = f"Copy this line of Python exactly:\n{LINE}\nThe copy:\n"
    reply = llm.create_completion(prompt, max_tokens=40, temperature=0.0)
    assert LINE in str(reply["choices"][0]["text"])  # verified several tokens a pass
    assert llm.save_state().scores.nbytes == 0  # drafts do not bring the logits copy back


@pytest.mark.skipif(not WEIGHTS.is_file(), reason="the embedded model is not installed")
def test_each_request_logs_its_true_tokens_with_drafts_on(
    capfd: pytest.CaptureFixture[str],
) -> None:
    llm = _drafting_llm()
    prompt = f"Copy this line of Python exactly, twice:\n{LINE}\nThe copies:\n"
    replies = [llm.create_completion(prompt, max_tokens=60, temperature=0.0) for _ in range(2)]
    logged = parse_requests(capfd.readouterr().err)
    # What the completions themselves count: prompt and reply tokens, drafts or not.
    assert [(r.cached + r.evaluated, r.output) for r in logged] == [
        (reply["usage"]["prompt_tokens"], reply["usage"]["completion_tokens"]) for reply in replies
    ]
    assert logged[0].cached == 0 and logged[1].cached > 0  # the second found its prompt
