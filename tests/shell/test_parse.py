"""What a shell line would run, found by parsing it: every command wherever the shell
would run one, the scripts it hands to a shell parsed again, and what cannot be known
said rather than guessed."""

from __future__ import annotations

import pytest

from agent.shell.parse import MAX_DEPTH, commands_in


def runs(line: str) -> list[str]:
    """Each command's last spelling: what it runs, its wrappers taken off."""
    parsed = commands_in(line)
    assert parsed.unknown == "", parsed.unknown
    return [command.forms[-1].text for command in parsed.commands]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("make; git push", ["make", "git push"]),
        ("make | git push", ["make", "git push"]),
        ("make |& git push", ["make", "git push"]),
        ("make & git push", ["make", "git push"]),
        ("make && git push", ["make", "git push"]),
        ("make || git push", ["make", "git push"]),
        ("make\ngit push", ["make", "git push"]),
        ("make &&\n  git push 2>&1 &> log", ["make", "git push"]),
        ("(make) | { git push; }", ["make", "git push"]),
        ("! git push", ["git push"]),
    ],
)
def test_each_command_of_a_list_or_pipeline(line: str, expected: list[str]) -> None:
    assert runs(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        "if git push; then :; fi",
        "if true; then git push; fi",
        "if false; then :; elif true; then :; else git push; fi",
        "for i in 1; do git push; done",
        "for ((i=0; i<1; i++)); do git push; done",
        "while git push; do :; done",
        "until git push; do :; done",
        "case x in x) git push;; esac",
        "f() { git push; }",
        "function f { git push; }",
        "echo $(git push)",
        "echo `git push`",
        'echo "a $(git push) b"',
        "cat <(git push)",
        "tee >(git push) < x",
        "X=$(git push)",
        "export X=$(git push)",
        "echo hi > $(git push)",
        "[[ $(git push) ]]",
        "for f in $(git push); do :; done",
        "echo $(echo $(git push))",
    ],
)
def test_a_command_is_found_wherever_the_shell_runs_one(line: str) -> None:
    assert "git push" in runs(line)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("git 'push'", "git push"),
        ('git "push"', "git push"),
        ('g"i"t pu\\sh', "git push"),
        ("$'\\x67it' push", "git push"),
        ('git "a \\"b\\""', 'git a "b"'),
        ('FOO="a b" BAR=1 git push', "git push"),
    ],
)
def test_words_are_read_as_the_shell_reads_them(line: str, expected: str) -> None:
    assert runs(line) == [expected]


@pytest.mark.parametrize(
    "line",
    [
        "sh -c 'git push'",
        "bash -lc 'git push'",
        "bash -o pipefail -ec 'make && git push'",
        "zsh -c 'git push'",
        "dash -c 'git push'",
        "env sh -c 'git push'",
        "sh -c \"bash -c 'git push'\"",
        "eval 'git push'",
        "eval git push",
        "bash <<'EOF'\ngit push\nEOF\n",
        "bash <<< 'git push'",
        "watch -n 1 git push",
        "git -c alias.p='!git push' p",
        "shopt -s expand_aliases; alias p='git push'\np",
    ],
)
def test_a_script_handed_to_a_shell_is_parsed_again(line: str) -> None:
    assert "git push" in runs(line)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("git push $(", "does not parse"),
        ("if true; then git push", "does not parse"),
        ('sh -c "$SCRIPT"', "`sh -c` is given a script known only when it runs"),
        ('eval "$X"', "`eval` is given a script known only when it runs"),
        ("echo git push | sh", "`sh` reads commands from its input"),
        ("bash <<EOF\ngit $X\nEOF\n", "`bash` reads commands from its input"),
    ],
)
def test_what_cannot_be_known_is_said(line: str, why: str) -> None:
    assert why in commands_in(line).unknown


def test_nesting_past_the_bound_is_said_and_within_it_is_read() -> None:
    def nest(depth: int) -> str:
        line = "git push"
        for _ in range(depth):
            line = "sh -c " + "'" + line.replace("'", "'\\''") + "'"
        return line

    inside = commands_in(nest(MAX_DEPTH))
    assert inside.unknown == ""
    assert inside.commands[-1].forms[-1].text == "git push"
    assert "more than" in commands_in(nest(MAX_DEPTH + 1)).unknown


def test_a_script_file_is_not_read() -> None:
    """What a script the model wrote does is the sandbox's part: no rule sees inside it."""
    assert runs("bash do.sh") == ["bash do.sh"]
    assert runs("./do.sh --fast") == ["do.sh --fast"]


def test_words_known_only_when_it_runs_are_marked() -> None:
    (echo, git) = commands_in("echo *.py && $GIT push").commands
    assert [w.literal for w in echo.forms[0].words] == [True, False]
    assert [w.literal for w in git.forms[0].words] == [False, True]
    (braces,) = commands_in("git {push,pull}").commands
    assert not braces.forms[0].known
