"""Hooks: the person's commands run on the host at points of a session (before and after a
tool, when a request is sent, at the start, at the end, before and after an apply, before
a commit), told what is happening as JSON on stdin, answering by exit code.

Claude Code's contract, with one change: exit 0 allows (its JSON may still deny or add
context), exit 2 blocks with the hook's stderr shown to the model, and **any other
failure, a crash or a timeout blocks too**, and says so; a guard that breaks never lets
through what it guards. `config.py` reads them, `runner.py` runs them.
"""
