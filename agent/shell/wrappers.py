"""What one command runs, seen through what only wraps another: `timeout 20 git push`,
`env -i FOO=1 git push`, `sudo -u me /usr/bin/git -C . push` are each a `git push`.

`unwrap` gives every spelling on the way (rules match any of them), the commands it runs
by words (`find -exec`), the scripts it hands to a shell (`sh -c`, `eval`, `watch`, a
here-document into `bash`, an `alias`'s text), to be parsed in turn, and why anything it runs cannot be
known. Options are read as each program reads them, so an option's value is never taken
for the command.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.shell.words import Form, Word
from sandbox.frozen import frozen


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


@frozen
class Wrapper:
    """A program that runs the command after its options (and `operands` more words)."""

    takes_value: frozenset[str] = frozenset()  # options followed by a value: -s SIG
    operands: int = 0  # words before the command: timeout's duration, taskset's mask
    runs_nothing: frozenset[str] = frozenset()  # options with which it runs no command
    assignments: bool = False  # NAME=value words before the command (env, sudo)


WRAPPERS = {
    "timeout": Wrapper(_names("-s --signal -k --kill-after"), operands=1),
    "env": Wrapper(_names("-u --unset -C --chdir -S --split-string"), assignments=True),
    "nice": Wrapper(_names("-n --adjustment")),
    "ionice": Wrapper(
        _names("-c --class -n --classdata"), runs_nothing=_names("-p --pid -P --pgid -u --uid")
    ),
    "xargs": Wrapper(
        _names(
            "-a --arg-file -d --delimiter -E --eof -I --replace -L --max-lines -n --max-args "
            "-P --max-procs -s --max-chars --process-slot-var"
        )
    ),
    "time": Wrapper(_names("-f --format -o --output")),
    "nohup": Wrapper(),
    "sudo": Wrapper(
        _names(
            "-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role "
            "-t --type -T --command-timeout -U --other-user"
        ),
        runs_nothing=_names("-l --list -v --validate -V --version -e --edit -K --remove-timestamp"),
        assignments=True,
    ),
    "doas": Wrapper(_names("-u -C"), runs_nothing=_names("-L")),
    "command": Wrapper(runs_nothing=_names("-v -V")),
    "builtin": Wrapper(),
    "exec": Wrapper(_names("-a")),
    "stdbuf": Wrapper(_names("-i --input -o --output -e --error")),
    "setsid": Wrapper(),
    "chrt": Wrapper(
        _names("-T --sched-runtime -P --sched-period -D --sched-deadline"),
        operands=1,
        runs_nothing=_names("-p --pid -m --max"),
    ),
    "taskset": Wrapper(operands=1, runs_nothing=_names("-p --pid")),
    "coproc": Wrapper(),
    "busybox": Wrapper(),
}
SHELLS = _names("sh bash zsh dash ksh mksh ash rbash yash posh fish csh tcsh")
_SHELL_VALUES = _names("-o +o -O +O --rcfile --init-file")
_GIT_VALUES = _names(
    "-C -c --git-dir --work-tree --namespace --super-prefix --config-env --exec-path --attr-source"
)
_FIND_RUNS = _names("-exec -execdir -ok -okdir")


@dataclass
class Unwrapped:
    forms: list[Form]
    runs: list[tuple[Word, ...]] = field(default_factory=list)  # commands it runs, by words
    scripts: list[str] = field(default_factory=list)  # shell text it runs, to parse again
    unknown: list[str] = field(default_factory=list)  # why something it runs is unknown


def unwrap(words: tuple[Word, ...], stdin: str | None = None) -> Unwrapped:
    """The spellings of the command `words` down to what it runs. `stdin` is the literal
    text a here-document or here-string feeds it (None when that is not known)."""
    out = Unwrapped([Form(words)])
    open_tail = False
    for _ in range(32):  # each turn takes at least one word off
        if not words or not words[0].literal:
            break
        name = words[0].text.rsplit("/", 1)[-1]
        if name != words[0].text and name:  # /usr/bin/git, ./git: matched as git
            words = (Word(name), *words[1:])
            _add(out, Form(words, open_tail))
        wrapper = WRAPPERS.get(name)
        if wrapper is not None:
            rest = _after_options(words, wrapper, out)
            if rest is None:
                break
            if name == "xargs":
                open_tail, rest = True, _replaced(words, rest)
            words = rest
            _add(out, Form(words, open_tail))
        elif name == "git":
            _add(out, Form(_git(words, out), open_tail))
            break
        elif name in SHELLS:
            _shell(words, stdin, out)
            break
        elif name == "eval" or (name == "watch" and len(words) > 1):
            rest = words[1:] if name == "eval" else _after_options(words, _WATCH, out) or ()
            _script(rest, f"`{name}`", out)
            break
        elif name == "find":
            out.runs.extend(_find_runs(words))
            break
        elif name == "alias":  # `alias p='git push'` runs its text wherever `p` is used
            for word in words[1:]:
                _script((Word(word.text.partition("=")[2], word.literal),), "`alias`", out)
            break
        else:
            break
    return out


_WATCH = Wrapper(_names("-n --interval -q --equexit"))


def _add(out: Unwrapped, form: Form) -> None:
    if form.words and form != out.forms[-1]:
        out.forms.append(form)


def _after_options(
    words: tuple[Word, ...], wrapper: Wrapper, out: Unwrapped
) -> tuple[Word, ...] | None:
    """The words after a wrapper's options and operands; None when it runs no command."""
    i = 1
    while i < len(words) and words[i].literal:
        text = words[i].text
        if text == "--":
            i += 1
            break
        name, has_value = text.partition("=")[::2], "=" in text
        if text.startswith("--"):
            if name[0] in wrapper.runs_nothing:
                return None
            if name[0] in ("--split-string",):  # env -S 'git push': a line of its own
                _script(words[i + (0 if has_value else 1) :], "`env -S`", out, first=name[1])
                return None
            i += 2 if name[0] in wrapper.takes_value and not has_value else 1
        elif text.startswith("-") and len(text) > 1:
            for k, letter in enumerate(text[1:], start=2):
                option = "-" + letter
                if option in wrapper.runs_nothing:
                    return None
                if option == "-S" and "-S" in wrapper.takes_value:
                    attached = text[k:]
                    _script(words[i + (0 if attached else 1) :], "`env -S`", out, first=attached)
                    return None
                if option in wrapper.takes_value:
                    i += 0 if text[k:] else 1  # -sKILL, or -s KILL
                    break
            i += 1
        elif wrapper.assignments and _is_assignment(text):
            i += 1
        else:
            break
    i += wrapper.operands
    return words[i:] if i < len(words) else None


def _is_assignment(text: str) -> bool:
    name, sep, _ = text.partition("=")
    return bool(sep) and name.replace("_", "a").isalnum() and not name[0].isdigit()


def _replaced(words: tuple[Word, ...], rest: tuple[Word, ...]) -> tuple[Word, ...]:
    """xargs -I{} puts its input where `{}` is: those words are known only when it runs."""
    marks = [w.text[2:] or "{}" for w in words if w.text.startswith(("-I", "-i", "--replace"))]
    marks = [m.removeprefix("=") or "{}" for m in marks]
    if not marks:
        return rest
    return tuple(Word(w.text, False) if any(m in w.text for m in marks) else w for w in rest)


def _git(words: tuple[Word, ...], out: Unwrapped) -> tuple[Word, ...]:
    """git with its global options taken off (`git -C . push` is `git push`), and an alias
    set on the line (`git -c alias.p=push p`) read as what it stands for."""
    aliases: dict[str, str | None] = {}  # None: set to what is known only when it runs
    i = 1
    while i < len(words) and words[i].literal and words[i].text.startswith("-"):
        option, has_value, value = words[i].text.partition("=")
        setting: Word | None = None
        if option.startswith("-c") and (option != "-c" or has_value):
            setting = Word(words[i].text[2:])  # -ckey=value
        elif option in ("-c", "--config-env") and not has_value:
            setting = words[i + 1] if i + 1 < len(words) else None
            i += 1
        elif option == "--config-env":
            setting = Word(value)
        elif option in _GIT_VALUES and not has_value:
            i += 1  # -C DIR, --git-dir DIR
        if setting is not None:
            key, _, body = setting.text.partition("=")
            if not setting.literal:
                aliases["*"] = None
            elif key.lower().startswith("alias."):  # --config-env: its value is a variable's
                aliases[key[len("alias.") :]] = None if option == "--config-env" else body
        i += 1
    rest = words[i:]
    if not rest or not rest[0].literal:
        return (words[0], *rest)
    alias = aliases.get(rest[0].text, aliases.get("*", ""))
    if alias is None:
        return (words[0], Word(rest[0].text, literal=False), *rest[1:])
    if alias.startswith("!"):
        _script((Word(alias[1:]), *rest[1:]), "a git alias", out)
    elif alias:
        rest = (*(Word(part) for part in alias.split()), *rest[1:])
    return (words[0], *rest)


def _shell(words: tuple[Word, ...], stdin: str | None, out: Unwrapped) -> None:
    """`sh -c SCRIPT`, `bash -lc SCRIPT`, or a shell reading its commands from its input;
    a shell given a script file runs what rules cannot see (the sandbox's part)."""
    i, from_c = 1, False
    while i < len(words) and words[i].literal:
        text = words[i].text
        if text in ("--", "-"):
            i += 1
            break
        if text in _SHELL_VALUES:
            i += 2
        elif text.startswith("--"):
            i += 1
        elif len(text) > 1 and text[0] in "-+":
            from_c = from_c or (text[0] == "-" and "c" in text[1:])
            i += 1
        else:
            break
    operands = words[i:]
    name = words[0].text
    if from_c:
        _script(operands[:1], f"`{name} -c`", out)
    elif not operands:
        if stdin is None:
            out.unknown.append(f"`{name}` reads commands from its input")
        else:
            out.scripts.append(stdin)


def _script(words: tuple[Word, ...], who: str, out: Unwrapped, first: str = "") -> None:
    """Words a shell reads again as a line: parsed when every one is literal."""
    if any(not word.literal for word in words):
        out.unknown.append(f"{who} is given a script known only when it runs")
    elif words or first:
        out.scripts.append(" ".join(([first] if first else []) + [w.text for w in words]))


def _find_runs(words: tuple[Word, ...]) -> list[tuple[Word, ...]]:
    """The commands of `find -exec CMD ... ;`, `{}` standing for each file found."""
    runs, i = [], 1
    while i < len(words):
        if words[i].text in _FIND_RUNS:
            end = i + 1
            while end < len(words) and words[end].text not in (";", "+"):
                end += 1
            run = tuple(Word(w.text, w.literal and "{}" not in w.text) for w in words[i + 1 : end])
            if run:
                runs.append(run)
            i = end
        i += 1
    return runs
