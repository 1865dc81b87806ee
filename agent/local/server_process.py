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

import llama_cpp
import numpy as np
from llama_cpp.server.__main__ import main as serve


class LeanStateLlama(llama_cpp.Llama):
    """A Llama whose saved states leave out the logits array when nothing reads it."""

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
    serve()


if __name__ == "__main__":
    main()
