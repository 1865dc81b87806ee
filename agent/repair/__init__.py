"""The repair engine: a small model's first try at a request, before its own tool loop.

Which functions may hold the bug (`suspects.py`, `localise.py`), the strategies that put
candidates in their place and let the tests judge them (`rewrites.py` with kiln's own
`variants.py`, `rarer.py` and `partial.py`; `implement.py` for a stub; `reproduce.py`
for a request with no failing test; `candidates.py` after a failing fix of the model's),
and the one entry point the loop calls (`first_try.py`). What the model is told for each
request lives in agent/prompts/.
"""
