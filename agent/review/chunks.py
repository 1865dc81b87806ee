"""A big change cut into parts the model reads one request at a time, so nothing is
skipped: whole files together while they fit the budget, a big file by groups of hunks,
a huge hunk by runs of its lines (each line keeps its number, so anchors still hold)."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.present import estimate_tokens
from agent.review.diffs import FileChange, Hunk, render, skipped_note


@dataclass
class Chunk:
    body: str
    paths: list[str] = field(default_factory=list)


def plan(changes: list[FileChange], budget_tokens: int) -> tuple[list[Chunk], list[str]]:
    """(the parts to review, in diff order; a note for each file not read line by line)."""
    notes = [note for change in changes if (note := skipped_note(change))]
    pieces: list[tuple[str, str]] = []  # (path, rendered text), each within the budget
    for change in changes:
        if change.reviewable:
            pieces += [(change.path, text) for text in _pieces(change, budget_tokens)]
    chunks: list[Chunk] = []
    size = 0
    for path, text in pieces:
        cost = estimate_tokens(text)
        if not chunks or size + cost > budget_tokens:
            chunks.append(Chunk(""))
            size = 0
        chunk = chunks[-1]
        chunk.body = f"{chunk.body}\n\n{text}" if chunk.body else text
        if path not in chunk.paths:
            chunk.paths.append(path)
        size += cost
    return chunks, notes


def _pieces(change: FileChange, budget: int) -> list[str]:
    whole = render(change)
    if estimate_tokens(whole) <= budget:
        return [whole]
    groups: list[list[Hunk]] = [[]]
    size = 0
    for hunk in _split_big_hunks(change.hunks, budget):
        cost = estimate_tokens(render(change, [hunk]))
        if groups[-1] and size + cost > budget:
            groups.append([])
            size = 0
        groups[-1].append(hunk)
        size += cost
    return [render(change, group) for group in groups if group]


def _split_big_hunks(hunks: list[Hunk], budget: int) -> list[Hunk]:
    out: list[Hunk] = []
    for hunk in hunks:
        text_cost = sum(estimate_tokens(line.text) + 3 for line in hunk.lines)
        if text_cost <= budget:
            out.append(hunk)
            continue
        part = Hunk(hunk.new_start, hunk.heading)
        size = 0
        for line in hunk.lines:
            cost = estimate_tokens(line.text) + 3
            if part.lines and size + cost > budget:
                out.append(part)
                part, size = Hunk(line.new_number or hunk.new_start, hunk.heading), 0
            part.lines.append(line)
            size += cost
        out.append(part)
    return out
