"""The shape of a task, from the person's words alone: a question, or a change to make.

Small and general on purpose, so that anyone can predict it:

- a **change** is asked when a change verb (fix, add, make, implement, rip out...) is used
  as a command: it opens a sentence ("Fix it.", "please add..."), follows "you" ("can you
  fix", "I want you to add"), "then", "can we" or a comma in a sentence that asks nothing
  ("if it's dead, rip it out"). A verb inside a question ("How do I add a flag?", "What does add
  return?") asks nothing to be changed.
- a **report of wrong behaviour** is a change whatever its wording, a question included:
  what something does "instead of" what it should, what "should" or is "supposed to"
  happen, what crashes, raises, breaks, fails or is wrong ("why does this crash on empty
  lines? it should skip them" asks for a fix).
- "how come" opens a report of behaviour that surprised the person: a change. So does
  "would it be possible to..." and "I'd like it ..." (a feature asked for), and "why" ("any idea why", "is there
  a reason") asking the cause of what the code does ("why does parse return None?", "why
  is my export missing a row?"), unless it is about a choice of the team's ("why do we pin
  numpy?") or asks for the reasons behind one ("is that deliberate?", "just curious",
  "I assume there's a reason").
- a question whether a piece of the code could do more ("could the CLI also accept a
  directory?", "can fetch_prices take a list?") asks for it: a change. One about what the
  person or kiln can do ("can I run...", "could you tell me...") is a question.
- a request that says only an answer is wanted ("don't change anything", "no edits",
  "just tell me") is a question, whatever else it says.
- otherwise it is a **question** when it opens with a question word (what, why, how,
  where, explain, "walk me through"...) or its last sentence ends with "?". "When I
  run X, it..." sets a scene: "when" opens a question only in a sentence that asks one.
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
    "set", "solve", "complete", "finish", "rip", "strip", "clean", "tidy", "bump",
    "upgrade", "handle", "allow", "accept", "skip", "ignore", "revert", "restore", "split",
    "merge", "expose", "document", "deduplicate", "simplify", "speed", "cache", "validate",
    "stop", "put", "switch", "cap", "limit", "increase", "decrease", "raise", "lower",
    "dedupe", "enable", "disable", "rework",
})  # fmt: skip
QUESTION_OPENERS = frozenset({
    "what", "what's", "whats", "why", "how", "where", "where's", "which", "who", "whom",
    "whose", "when", "explain", "describe", "summarise", "summarize", "tell",
})  # fmt: skip
# The patterns here are strings that `re` compiles on first use and keeps in its cache: a
# request needs a few of them, and compiling all of them at import took 3 ms of every start.
#
# Wrong behaviour reported: a change, whatever the wording.
_WRONG = (
    r"\binstead of\b|\bsupposed to\b|\w\s+should(?:n'?t| not)?\b(?!\s+(?:i|we)\b)|^shouldn'?t\b"
    r"|^how come\b|^why (?:is|are|does|do|did|was|were|would|will|can)(?:n'?t| not)\b"
    r"|^why (?:is|are|does|do)\b[^?]*\b(?:still|missing|gone|lost|duplicated|twice)\b"
    r"|^expected\b|\bbut got\b|\bsteps to reproduce\b|\bexpected:|\bactual:"
    r"|\b(?:crash(?:es|ed|ing)?|raises?|throws?|breaks?|broken|wrong|incorrect(?:ly)?"
    r"|fails?|failing|off[- ]by[- ]one|off by (?:a|an|one|\d+)|doesn'?t work|isn'?t working"
    r"|not working|hangs?|takes forever|defeats the purpose)\b"
)
# "I'd like it bumped to 8 hours", "we want this cached": a change wished for.
_WISHED = (
    r"\b(?:i'?d|i would|we'?d|we would) (?:like|love|prefer)\b(?! to (?:know|understand|learn|"
    r"see|ask|hear|check))|\b(?:i|we) (?:want|need) (?:it|this|that|them)\b"
)
# "walk me through the webhook": an explanation asked for without a question word.
_EXPLAIN_ASKED = (
    r"^(?:walk me through|help me understand|give me an overview"
    r"|(?:i'?d|i would) like to (?:know|understand|learn))\b"
)
# "When I run X, it ignores --since": a clause setting the scene, not a question word.
_SCENE = r"^(?:when|whenever|if|after|once)\s+(?:i|we|you|they|it|someone|users?|people)\b"
# "why does X return None?", "any idea why the build hangs?": asking the cause of what the
# code does is a report of it, unless the person asks for the reasons behind a choice.
_WHY = r"^(?:why|any idea why|is there a reason(?: why)?)\b\s*"
_CHOICE_OF_OURS = r"^why (?:do|did|are|were|is|does|would|should) (?:we|you|i|they)\b"
_REASONS_ASKED = (
    r"\b(?:reasons?|reasoning|rationale|deliberate(?:ly)?|intentional(?:ly)?|on purpose"
    r"|by design|assume|understand|curious|confirm(?:ing)?|explains?|expected behaviou?r)\b"
)
# A path of code such as `LruCache::insert`: its colons are not the sentence's.
_CODE_PATH = r"\b[\w.]+(?:::[\w.]+)+"
# "don't change anything, just tell me": only an answer is wanted, whatever else is said.
_ONLY_AN_ANSWER = (
    r"\b(?:do not|don'?t|dont)\s+(?:change|fix|edit|modify|touch)\s+(?:anything|it|this|that)\b"
    r"(?!\s+else)(?!\s+(?:but|and|to|in|so)\b)"
    r"|\bno (?:edits|code changes)\b|\bjust (?:tell me|explain|curious)\b"
    r"|\bno (?:fix|change)(?:es|s)? (?:needed|wanted|please)\b|\b(?:only|just) want to understand\b"
    r"|\bnot (?:asking|looking) for (?:a )?(?:change|fix)"
)
# "could the CLI also accept...", "can fetch_prices take...": more asked of the code.
_CAPABILITY = r"^(?:could|can)\s+(?!i\b|we\b|you\b|someone\b|one\b)\S"
# "would it be possible to export...", "is it possible to add...": a feature asked for.
_POSSIBLE = r"^(?:would|is|will)\s+it\s+(?:be\s+)?possible\s+to\b"
# "can we make...", "should we drop...": a change proposed as a question.
_PROPOSED = ("can", "could", "should", "shall")
# Words a command may open with before its verb: "please fix", "now add", "then remove".
LEAD_INS = frozenset(["please", "now", "then", "also", "and", "so", "just", "kindly", "first"])

# Just before a verb inside a sentence, these make it a command: "can you fix", "could
# you please add", "describe it, then update the README", "I want you to add".
COMMAND_BEFORE = frozenset(["you", "please", "then", "just"])
# Code quoted in backticks: its dots and question marks are not the sentence's.
_CODE_SPAN = r"`[^`\n]*`"
_ONLY_CODE = r"[\s.?!;:]*(?:code[\s.?!;:]*)*"  # a "sentence" of quoted code alone

_OBJECTS = frozenset(["it", "them"])
# Before a verb, these make it a statement or a question, not a command.
_SUBJECTS = frozenset([
    "i", "we", "you", "they", "it", "he", "she", "do", "does", "did", "will", "would", "can",
    "could", "should", "might", "must", "may", "shall", "not", "never", "to", "i'll", "we'll",
])  # fmt: skip
_SENTENCE = r"[^.?!;:\n]+[.?!;:\n]*"
_WORD = r"[a-z][a-z_'0-9-]*"


def shape_of(task: str) -> TaskShape:
    """The shape the person's words give `task`: QUESTION or CHANGE."""
    words = re.sub(_CODE_PATH, "code", re.sub(_CODE_SPAN, "code", task.lower()))
    sentences = [s.strip() for s in re.findall(_SENTENCE, words) if not re.fullmatch(_ONLY_CODE, s)]
    if re.search(_ONLY_AN_ANSWER, task.lower()):
        return TaskShape.QUESTION
    if not sentences or any(_commands_a_change(s) for s in sentences):
        return TaskShape.CHANGE
    if any(
        re.search(_WRONG, s)
        or re.match(_CAPABILITY, s)
        or re.match(_POSSIBLE, s)
        or re.search(_WISHED, s)
        for s in sentences
    ):
        return TaskShape.CHANGE
    first, first_words = sentences[0], re.findall(_WORD, sentences[0])
    if _asks_a_cause(first, words):
        return TaskShape.CHANGE
    opens_as_question = bool(first_words) and first_words[0] in QUESTION_OPENERS
    if re.match(_SCENE, first) and not first.endswith("?"):
        opens_as_question = False
    opens_as_question = opens_as_question or bool(re.match(_EXPLAIN_ASKED, first))
    if opens_as_question or sentences[-1].endswith("?"):
        return TaskShape.QUESTION
    return TaskShape.CHANGE


def _asks_a_cause(first: str, words: str) -> bool:
    """ "why does X ...?" about what the code does, not the reasons for a choice."""
    opener = re.match(_WHY, first)
    if opener is None or re.match(_CHOICE_OF_OURS, first):
        return False
    return not re.search(_REASONS_ASKED, words[opener.end() :])


def _commands_a_change(sentence: str) -> bool:
    """A change verb used as a command in this sentence."""
    words = re.findall(_WORD, sentence)
    start = 0
    while start < len(words) and words[start] in LEAD_INS:
        start += 1
    if start < len(words) and words[start] in CHANGE_VERBS:
        return True
    if words[:2] in ([w, "we"] for w in _PROPOSED) and words[2:3] and words[2] in CHANGE_VERBS:
        return True
    for i, word in enumerate(words):
        if word not in CHANGE_VERBS or i == 0:
            continue
        if words[i - 1] in COMMAND_BEFORE or words[max(i - 2, 0) : i] == ["you", "to"]:
            return True
    # "if they match merge them", "and fix it so it accepts +": a bare change verb taking
    # "it" or "them", not after a subject or "to" ("should I fix it?", "how to bump it").
    for i, word in enumerate(words[:-1]):
        after_subject = i > 0 and words[i - 1] in _SUBJECTS
        if word in CHANGE_VERBS and words[i + 1] in _OBJECTS and not after_subject:
            return True
    # "if it's dead, rip it out": a verb opening the clause after a comma, in a sentence
    # that asks nothing.
    if not sentence.rstrip().endswith("?"):
        for clause in sentence.split(",")[1:]:
            first = [w for w in re.findall(_WORD, clause)[:3] if w not in LEAD_INS][:1]
            if first and first[0] in CHANGE_VERBS:
                return True
    return False


# A change that leaves what the code does as it is: its evidence is the tests passing before
# and after it (agent/run/evidence.py), not a test that failed before. Said outright...
_KEEP_SAID = (
    r"\bno (?:behaviou?r|functional|logic) changes?\b|\bsame behaviou?r\b(?! as\b)"
    r"|\bwithout changing (?:the |its |any )?(?:behaviou?r|logic|output|api)\b"
    r"|\bbehaviou?r[- ]preserving\b|\bpure refactor|\b(?:formatting|whitespace|indentation) only\b"
    r"|\bkeep(?:ing)? (?:the |its )?(?:exported )?(?:api|interface|route|output|behaviou?r)s? "
    r"(?:the same|unchanged)\b"
)
# ... or asked as work on names, structure or text around the code: a verb of that work...
_KEEP_VERB = (
    # (a verb, not the noun of "lost in the refactor"; a formatter run, not a colour)
    r"(?<!the )(?<!a )(?<!that )\b(?:renam\w*|refactor\w*|re-?format\w*|lint\w*|tidy"
    r"|clean(?:s|ed|ing)? up|reorgani[sz]\w*|sort the imports|gofmt|isort|rustfmt"
    r"|(?:dedup\w*|deduplicat\w*) (?:the )?(?:code|helpers?|functions?|logic|imports?)"
    r"|(?:run|with|using|apply|through|via) (?:black|prettier))\b"
    r"|\b(?:extract|split|move|pull)\b[^.?!\n]{0,60}\binto (?:a |an |its |their )?(?:own |new |shared )?"
    r"(?:module|file|package|helper|function|class|method)s?\b"
)
# ... or an addition or fix of text that does not run: docs, comments, hints, typos.
_KEEP_TEXT = (
    r"\b(?:add|write|update|fix|improve|correct|document|clean)\w*\s+(?:\S+\s+){0,3}?"
    r"(?:docstrings?|comments?|docs|documentation|readme|type hints?|annotations?|typos?)\b"
)
# Words that ask for something to work differently, whatever else the request says.
_BEHAVING = (
    r"\b(?:implement\w*|support\w*|handle[sd]?|allow\w*|accept\w*|returns?|raises?|validat\w*"
    r"|cach\w*|optimi[sz]\w*|speed|faster|enable\w*|disable\w*|skip\w*|ignor\w*|exclud\w*"
    r"|treat\w*|new (?:flag|option|command|feature))\b"
)
# "add a docstring", "add type hints": an addition that changes nothing that runs.
_ADD_KEEPING = (
    r"\badd\w*\s+(?:\w+\s+){0,3}?(?:docstrings?|comments?|type hints?|annotations?|docs)\b"
)


def keeps_behaviour(task: str) -> bool:
    """A change asked to leave behaviour as it is: a rename, a refactor, docs, comments,
    formatting, type hints, said as such. Conservative (a change taken for one that keeps
    behaviour would count tests that passed before as evidence): a report of wrong
    behaviour, a feature's verbs, or an `add` of anything but docs or hints makes it False."""
    lower = re.sub(_CODE_SPAN, "code", task.lower())
    if re.search(_WRONG, lower) or re.search(_BEHAVING, lower):
        return False
    adds = re.findall(r"\badd\w*\b", lower)
    if len(adds) > len(re.findall(_ADD_KEEPING, lower)):
        return False
    if re.search(_KEEP_SAID, lower) or re.search(_KEEP_VERB, lower):
        return True
    text = re.search(_KEEP_TEXT, lower)
    if text is None:
        return False
    # "update the docs and the parser so...": the text, and code besides it; "... and bump
    # the engines": another change, asked with it.
    rest = lower[text.end() :]
    more = re.match(r"\s+and\s+(?:the\s+|its\s+)?(\w+)", rest)
    if more is not None and not re.search(_KEEP_TEXT, f"add {more.group(1)}"):
        return False
    for also in re.finditer(r"(?:\band|\bthen|\balso|,)\s+(\w+)", rest):
        if also.group(1) in CHANGE_VERBS and not re.match(_KEEP_TEXT, rest[also.start(1) :]):
            return False
    return True


_TESTS = r"\b(?:tests?|unit ?tests?|test cases?|coverage|specs?)\b"


def asks_for_tests(task: str) -> bool:
    """The request asks for tests, not for code to behave differently ("add tests for the
    parser", "cover parse_size with unit tests"); a report of wrong behaviour never is."""
    lower = task.lower()
    return bool(re.search(_TESTS, lower)) and not re.search(_WRONG, lower)
