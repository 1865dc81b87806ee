"""Sandboxes: where every command the model asks for runs, on a copy of the repository.

`Sandbox` (in base.py) is the protocol; backends are chosen by name through
`sandbox.factory.create_sandbox`. This package never imports `agent` or `tui`.
"""
