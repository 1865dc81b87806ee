"""`kiln COMMAND ...` builds only that command's parser: it parses as the whole one does."""

from __future__ import annotations

import pytest

from agent import cli

ARGVS = [
    ["run", "fix it", "--repo", "/tmp", "--apply", "--output-format", "json", "--model", "m"],
    ["batch", "tasks.jsonl", "--out", "dir"],
    ["sessions", "show", "abc123", "--requests"],
    ["review", "HEAD~1", "--output-format", "json"],
    ["sandbox", "run", "--timeout", "5", "ls"],
    ["local", "status"],
    ["eval", "bench/eval", "--runs", "2", "--only", "a,b"],
]


def test_the_command_names_are_every_command_the_parser_has() -> None:
    parser = cli._build_parser()
    assert parser._subparsers is not None
    choices = parser._subparsers._group_actions[0].choices
    assert isinstance(choices, dict) and set(choices) == cli.COMMANDS


@pytest.mark.parametrize("argv", ARGVS, ids=lambda argv: argv[0])
def test_one_commands_parser_parses_as_the_whole_one(argv: list[str]) -> None:
    whole = cli._build_parser().parse_args(argv)
    assert vars(cli._build_parser(argv[0]).parse_args(argv)) == vars(whole)
    with pytest.raises(SystemExit):  # and refuses what the whole one refuses
        cli._build_parser(argv[0]).parse_args([argv[0], "--no-such-flag", *argv[1:]])
