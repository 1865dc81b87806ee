"""An edit's block says on its one line how many problems its language server found; the
lines themselves are its output, drawn under it when opened."""

from __future__ import annotations

from agent.events import ToolCallFinished
from agent.lsp.diagnostics import Diagnostic, report
from tui.formatting import call_result


def finished(name: str, output: str) -> ToolCallFinished:
    return ToolCallFinished("c1", name, True, output, 0.25)


def test_an_edit_with_new_problems_says_how_many() -> None:
    found = [Diagnostic(3, 1, "error", '"widht" is not defined', "reportUndefinedVariable", "a.py")]
    told = report("pyright-langserver", found * 2)
    assert (
        call_result(finished("edit_file", f"Edited a.py.\n{told}")) == "ok · 2 new problems · 0.2s"
    )
    assert call_result(finished("write_file", f"Created a.py.\n{report('x', found)}")) == (
        "ok · 1 new problem · 0.2s"
    )
    assert call_result(finished("edit_file", "Edited a.py: replaced 1 place.")) == "ok · 0.2s"
    assert call_result(finished("run", told)) == "ok · 0.2s"  # only an edit's own report
