"""The embedded model's server process: llama-cpp-python's server, its prompt cache bounded.

Run as `python -m agent.local.server_process FLAGS`, with `python -m llama_cpp.server`'s
flags. With `--cache true`, llama-cpp-python 0.3.36 saves the whole context after every
request, and each saved state carries a copy of the logits array (n_batch x vocab floats:
311 MB for Qwen2.5), although with `logits_all` false nothing ever reads it (sampling runs
inside llama.cpp). Its RAM cache counts only the KV part of a state, so a 256 MB cache
held over 1.5 GB, and copying the array cost every request a few hundred ms. Here a state
keeps the KV and the tokens, and the cache counts every byte it holds, so the same number
of states fits (the prompt-cache hits stay) and the process stays bounded.

Only this process imports llama_cpp; the version is pinned by `runtime.RUNTIME_REQUIREMENT`.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import sys
from collections.abc import Generator, Sequence
from typing import Any

import llama_cpp
import numpy as np
import numpy.typing as npt
from llama_cpp import llama_speculative
from llama_cpp.server.__main__ import main as serve

from agent.llm.cache_stats import usage_line

MAX_DRAFT = 8  # tokens proposed at most in one pass (the server's draft_model_num_pred_tokens)


class LeanStateLlama(llama_cpp.Llama):
    """A Llama whose saved states leave out the logits array when nothing reads it, and
    whose drafted tokens (prompt lookup, below) get logits without every prompt token's.

    llama-cpp-python turns `logits_all` on for any draft model: every prompt token then
    computes its logits (the output layer is a sixth of a 1.5B model's work) and each
    saved state copies them. Verifying a draft needs logits only for the pass that holds
    it: the last MAX_DRAFT + 1 positions of an evaluation get them, nothing else does.

    Each request's true counts go to the log as one line (`cache_stats.usage_line`):
    llama.cpp's own count a draft's pass as prompt and only single-token passes as output."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._logits_all = bool(kwargs.get("logits_all", False))
        self._evaluated = 0  # tokens evaluated since the request began

    def generate(
        self, tokens: Sequence[int], *args: Any, **kwargs: Any
    ) -> Generator[int, Sequence[int] | None, None]:
        prompt, self._evaluated = len(tokens), 0
        read: int | None = None  # the prompt's tokens evaluated (the rest came from the cache)
        generated, last = 0, None
        try:
            for token in super().generate(tokens, *args, **kwargs):
                read = self._evaluated if read is None else read
                generated, last = generated + 1, token
                yield token
        finally:  # the reply's last token is out: the caller stopped or the model did
            if last is not None and llama_cpp.llama_vocab_is_eog(self._model.vocab, last):
                generated -= 1  # the end-of-generation token is not part of the reply
            read = self._evaluated if read is None else read
            print(usage_line(prompt - read, read, generated), file=sys.stderr, flush=True)

    def eval(self, tokens: Sequence[int]) -> None:
        self._evaluated += len(tokens)
        if self._logits_all or self.draft_model is None:
            super().eval(tokens)
            return
        self._ctx.kv_cache_seq_rm(-1, self.n_tokens, -1)
        for start in range(0, len(tokens), self.n_batch):
            batch = tokens[start : start + self.n_batch]
            n_past, count = self.n_tokens, len(batch)
            self._batch.set_batch(batch=batch, n_past=n_past, logits_all=False)
            if start + count == len(tokens):  # the pass a draft is in, if any
                for position in range(max(0, count - MAX_DRAFT - 1), count):
                    self._batch.batch.logits[position] = True
            self._ctx.decode(self._batch)
            self.input_ids[n_past : n_past + count] = batch
            self.n_tokens += count
        self._requires_eval = False

    def save_state(self) -> llama_cpp.LlamaState:
        if self._logits_all:
            return super().save_state()
        ctx = self._ctx.ctx
        size = llama_cpp.llama_state_get_size(ctx)
        buffer = (ctypes.c_uint8 * size)()
        written = int(llama_cpp.llama_state_get_data(ctx, buffer, size))
        if written > size:
            raise RuntimeError("llama.cpp wrote past the state buffer it sized")
        return llama_cpp.LlamaState(
            input_ids=self.input_ids.copy(),
            scores=np.empty((0, self._n_vocab), dtype=np.single),
            n_tokens=self.n_tokens,
            llama_state=ctypes.string_at(buffer, written),
            llama_state_size=written,
            seed=self._seed,
        )

    def load_state(self, state: llama_cpp.LlamaState) -> None:
        if self._logits_all:
            super().load_state(state)
            return
        self.input_ids = state.input_ids.copy()
        self.n_tokens = state.n_tokens
        self._requires_eval = True
        self._seed = state.seed
        size = state.llama_state_size
        buffer = (ctypes.c_uint8 * size).from_buffer_copy(state.llama_state)
        if llama_cpp.llama_state_set_data(self._ctx.ctx, buffer, size) != size:
            raise RuntimeError("llama.cpp did not take the whole saved state")


class LookupDraft(llama_speculative.LlamaDraftModel):
    """Prompt lookup decoding: the tokens that followed the latest earlier occurrence of
    the context's last few tokens, proposed for the model to check in one pass. A reply
    that repeats its prompt (a module handed back to improve, the unchanged lines around
    an edit) then costs a pass per several tokens, not one per token.

    A pass of k tokens costs about as much as (k + 1) / 2 single steps on a CPU, so a wrong
    draft is not free: as many are proposed as the last draft had accepted (twice that
    when all were), and after a draft wholly refused none for a few tokens."""

    NGRAMS = (4, 3, 2)  # the longest match first
    PAUSE = 4  # tokens without a draft after one wholly refused

    def __init__(self, num_pred_tokens: int = MAX_DRAFT, **_: object) -> None:
        self.most = max(1, min(num_pred_tokens, MAX_DRAFT))
        self.size = 2  # tokens the next draft proposes
        self._asked_at = -1  # the context's length when the last draft was made
        self._proposed = 0
        self._paused = 0

    def __call__(self, input_ids: npt.NDArray[np.intc], /, **_: object) -> npt.NDArray[np.intc]:
        self._learn(len(input_ids))
        draft = _NOTHING
        if self._paused:
            self._paused -= 1
        else:
            draft = self._lookup(input_ids)
        self._asked_at, self._proposed = len(input_ids), len(draft)
        return draft

    def _learn(self, length: int) -> None:
        """How much of the last draft was taken (the context grew by that and one token)."""
        accepted = length - self._asked_at - 1
        if self._asked_at < 0 or not 0 <= accepted <= self._proposed:  # a new request
            self.size, self._paused = 2, 0
        elif self._proposed and accepted == self._proposed:
            self.size = min(self.most, 2 * self.size)
        elif self._proposed:
            self.size = max(1, accepted)
            if accepted == 0:
                self._paused = self.PAUSE
        self._proposed = 0

    def _lookup(self, ids: npt.NDArray[np.intc]) -> npt.NDArray[np.intc]:
        for size in self.NGRAMS:
            if len(ids) <= size:
                continue
            windows = np.lib.stride_tricks.sliding_window_view(ids[:-1], size)
            found = np.flatnonzero((windows == ids[-size:]).all(axis=1))
            if len(found):
                start = int(found[-1]) + size
                return ids[start : start + self.size].astype(np.intc)
        return _NOTHING


_NOTHING = np.array([], dtype=np.intc)


def held_bytes(state: llama_cpp.LlamaState) -> int:
    """What a saved state really keeps in memory: the KV bytes, the tokens and any logits."""
    return len(state.llama_state) + state.input_ids.nbytes + state.scores.nbytes


class HeldBytesCache(llama_cpp.LlamaRAMCache):
    """The RAM prompt cache with its capacity counted in the bytes its states hold."""

    @property
    def cache_size(self) -> int:
        return sum(held_bytes(state) for state in self.cache_state.values())


def map_big_buffers_apart() -> None:
    """Every buffer of 1 MB or more gets a mapping of its own, given back when freed.

    glibc raises its mmap threshold to the size of each mapped buffer freed (up to 32 MB);
    after that, saved states below that size came from the heap and left holes there that
    the process kept: the server grew by about 5 MB a task. Outside glibc, nothing to do.
    """
    m_mmap_threshold = -3  # mallopt's parameter number in glibc's malloc.h
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(ctypes.util.find_library("c")).mallopt(m_mmap_threshold, 1 << 20)


def main() -> None:
    map_big_buffers_apart()
    # The server builds its model and its cache through these module attributes.
    llama_cpp.__dict__.update(Llama=LeanStateLlama, LlamaRAMCache=HeldBytesCache)
    llama_speculative.__dict__.update(LlamaPromptLookupDecoding=LookupDraft)
    serve()


if __name__ == "__main__":
    main()
