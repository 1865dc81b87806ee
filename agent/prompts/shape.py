"""The shape of a task, from the person's words alone: a question, or a change to make.

Small and general on purpose, so that anyone can predict it:

- a **change** is asked when a change verb (fix, add, make, implement...) is used as a
  command: it opens a sentence ("Fix it.", "please add..."), or follows "you" ("can you
  fix", "I want you to add") or "then". A verb inside a question ("How do I add a flag?", "What does
  add return?") asks nothing to be changed.
- otherwise it is a **question** when it opens with a question word (what, why, how,
  where, explain, describe...) or its last sentence ends with "?".
- anything else is a change: a bug report ("customers who sign up on the 31st break our
  billing") asks for a fix without saying "fix".

Other shapes (a stub to implement, a failing test to repair) are told apart by what the
repository holds, not by these words; `shape_of` is where their rules go.
"""

from __future__ import annotations

import re

from agent.events import TaskShape

CHANGE_VERBS = frozenset({
    "fix", "add", "make", "implement", "change", "update", "write", "create", "remove",
    "delete", "rename", "refactor", "replace", "support", "modify", "edit", "rewrite",
    "convert", "move", "improve", "optimise", "optimize", "repair", "correct", "build",
    "generate", "extend", "port", "migrate", "drop", "insert", "append", "patch", "adjust",
    "set", "solve", "complete", "finish",
})  # fmt: skip
QUESTION_OPENERS = frozenset({
    "what", "what's", "whats", "why", "how", "where", "where's", "which", "who", "whom",
    "whose", "when", "explain", "describe", "summarise", "summarize", "tell",
})  # fmt: skip
# Words a command may open with before its verb: "please fix", "now add", "then remove".
LEAD_INS = frozenset(["please", "now", "then", "also", "and", "so", "just", "kindly", "first"])

# Just before a verb inside a sentence, these make it a command: "can you fix", "could
# you please add", "describe it, then update the README", "I want you to add".
COMMAND_BEFORE = frozenset(["you", "please", "then"])

_SENTENCE = re.compile(r"[^.?!;:\n]+[.?!;:\n]*")
_WORD = re.compile(r"[a-z][a-z_'0-9-]*")


def shape_of(task: str) -> TaskShape:
    """The shape the person's words give `task`: QUESTION or CHANGE."""
    sentences = [s.strip() for s in _SENTENCE.findall(task.lower()) if s.strip()]
    if not sentences or any(_commands_a_change(s) for s in sentences):
        return TaskShape.CHANGE
    first_words = _WORD.findall(sentences[0])
    opens_as_question = bool(first_words) and first_words[0] in QUESTION_OPENERS
    if opens_as_question or sentences[-1].endswith("?"):
        return TaskShape.QUESTION
    return TaskShape.CHANGE


def _commands_a_change(sentence: str) -> bool:
    """A change verb used as a command in this sentence."""
    words = _WORD.findall(sentence)
    start = 0
    while start < len(words) and words[start] in LEAD_INS:
        start += 1
    if start < len(words) and words[start] in CHANGE_VERBS:
        return True
    for i, word in enumerate(words):
        if word not in CHANGE_VERBS or i == 0:
            continue
        if words[i - 1] in COMMAND_BEFORE or words[max(i - 2, 0) : i] == ["you", "to"]:
            return True
    return False
