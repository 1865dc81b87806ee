"""A command seen through what only wraps another: each wrapper with its options, a
program's folder, git's global options; every spelling on the way is kept for rules."""

from __future__ import annotations

import pytest

from agent.shell.parse import commands_in
from agent.shell.words import Word
from agent.shell.wrappers import unwrap


def last(line: str) -> str:
    (command,) = commands_in(line).commands
    return command.forms[-1].text


@pytest.mark.parametrize(
    "line",
    [
        "timeout 20 git push",
        "timeout -s KILL 20 git push",
        "timeout --signal=KILL -k 5 20 git push",
        "timeout -k5 --preserve-status 1m git push",
        "env git push",
        "env -i -u HOME FOO=1 -- git push",
        "env --unset HOME --chdir /tmp git push",
        "nice git push",
        "nice -n 5 git push",
        "nice -5 git push",
        "nice --adjustment=5 git push",
        "ionice -c 3 -n 7 git push",
        "time git push",
        "time -p git push",
        "nohup git push",
        "sudo git push",
        "sudo -u me -E -H git push",
        "sudo --user=me FOO=1 git push",
        "doas -u me git push",
        "command git push",
        "command -p git push",
        "exec git push",
        "exec -a name git push",
        "stdbuf -oL -e 0 git push",
        "setsid -f git push",
        "chrt -f 5 git push",
        "taskset -c 0 git push",
        "taskset 0x1 git push",
        "coproc git push",
        "busybox git push",
        "/usr/bin/git push",
        "./git push",
        "../bin/git push",
        "git -C . push",
        "git -C /repo -c user.name=x push",
        "git --git-dir=.git --work-tree . push",
        "git --no-pager -P --bare --literal-pathspecs push",
        "git -c alias.p=push p",
        "sudo -u me env -i nice -n 5 timeout 9 /usr/bin/git -C . push",
    ],
)
def test_what_a_wrapper_runs_is_the_command(line: str) -> None:
    assert last(line) == "git push"


def test_every_spelling_on_the_way_is_kept() -> None:
    (command,) = commands_in("sudo timeout 5 /usr/bin/git -C . push").commands
    assert [form.text for form in command.forms] == [
        "sudo timeout 5 /usr/bin/git -C . push",
        "timeout 5 /usr/bin/git -C . push",
        "/usr/bin/git -C . push",
        "git -C . push",
        "git push",
    ]


@pytest.mark.parametrize(
    "line",
    ["command -v git", "sudo -l git push", "chrt -p 5 1234", "taskset -p 1234", "timeout 5"],
)
def test_a_wrapper_that_runs_nothing_is_left_as_written(line: str) -> None:
    (command,) = commands_in(line).commands
    assert [form.text for form in command.forms] == [line]


def test_xargs_runs_its_command_with_words_from_its_input() -> None:
    (_, xargs) = commands_in("echo push | xargs -0 -n 1 git").commands
    ran = xargs.forms[-1]
    assert ran.text == "git" and ran.open_tail and not ran.known
    (_, replaced) = commands_in("ls | xargs -I{} git {} x").commands
    assert [w.literal for w in replaced.forms[-1].words] == [True, False, True]


def test_find_exec_runs_each_of_its_commands() -> None:
    line = ("find", ".", "-exec", "git", "push", "{}", ";", "-execdir", "rm", "x", "+")
    found = unwrap(tuple(Word(w) for w in line))
    assert [" ".join(w.text for w in run) for run in found.runs] == ["git push {}", "rm x"]
    assert "git push" in [
        c.forms[-1].text for c in commands_in("find . -exec git push \\;").commands
    ]


def test_env_split_string_and_git_aliases_run_shell_text() -> None:
    assert unwrap((Word("env"), Word("-S"), Word("git push"))).scripts == ["git push"]
    found = unwrap(tuple(Word(w) for w in ("git", "-c", "alias.p=!git push", "p")))
    assert found.scripts == ["git push"]


def test_an_alias_set_from_the_environment_is_unknown() -> None:
    (command,) = commands_in("git --config-env=alias.p=CMD p").commands
    assert not command.forms[-1].known
