"""Custom commands and skills read from their files: front matter without a YAML library,
the four places (first wins), namespaces, a built-in's name refused once, `$ARGUMENTS`,
the skills' metadata for the prefix (sorted, capped) and read_skill kept inside its folder."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agent import commands
from agent.approval import Mode
from agent.custom import skills as skills_mod
from agent.custom.commands import load
from agent.custom.frontmatter import split
from agent.settings.config import load_settings
from agent.settings.paths import config_dir


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """~/.claude is the test's own, never the person's."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_front_matter_fields_lists_and_blocks() -> None:
    matter = split(
        '---\ndescription: "Review SQL"\nargument-hint: [FILE]\nallowed-tools:\n'
        "  - read_file\n  - search\nmodel: small # a comment is kept as text\nnotes: |\n"
        "  one\n  two\n---\n\nBody $ARGUMENTS\n"
    )
    assert matter.problem == ""
    assert matter.text("description") == "Review SQL"
    assert matter.fields["argument-hint"] == ["FILE"]
    assert matter.text("argument-hint") == "[FILE]"
    assert matter.text("allowed-tools") == "read_file, search"
    assert matter.text("notes") == "one two"
    assert matter.body == "Body $ARGUMENTS"
    assert split("no front matter").body == "no front matter"
    assert "no closing" in split("---\ndescription: x\n").problem
    assert "line 2" in split("---\nthis is not a field\n---\nbody").problem


def test_commands_from_the_four_places_first_wins_namespaced(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(
        repo / ".claude/commands/review-sql.md", "---\ndescription: SQL\n---\nLook at $ARGUMENTS"
    )
    _write(repo / ".kiln/commands/review-sql.md", "kiln's own wins")
    _write(repo / ".claude/commands/frontend/component.md", "Make a component $1 in $2")
    _write(config_dir() / "commands/mine.md", "---\nargument-hint: [X]\n---\nMine")
    _write(Path.home() / ".claude/commands/theirs.md", "# Theirs\nbody")
    found = load(repo, commands.BY_NAME)
    assert [c.name for c in found.commands] == [
        "frontend:component",
        "mine",
        "review-sql",
        "theirs",
    ]
    review = found.get("review-sql")
    assert review is not None and review.body == "kiln's own wins"
    assert review.origin == ".kiln/commands/review-sql.md"
    mine = found.get("mine")
    assert mine is not None and mine.origin == f"{config_dir()}/commands/mine.md"
    assert mine.argument_hint == "[X]"
    theirs = found.get("theirs")
    assert theirs is not None and theirs.help == "Theirs (custom: ~/.claude/commands/theirs.md)"
    component = found.get("frontend:component")
    assert component is not None
    assert component.expand('"a button" src/ui') == "Make a component a button in src/ui"


def test_expansion_fills_arguments_and_keeps_what_has_no_place() -> None:
    from agent.custom.commands import CustomCommand

    command = CustomCommand("x", "Review $ARGUMENTS, first $1, tenth $10.", "x.md")
    assert command.expand("a.sql b.sql") == "Review a.sql b.sql, first a.sql, tenth ."
    assert command.expand("$1 literally") == "Review $1 literally, first $1, tenth ."
    plain = CustomCommand("y", "Tidy up.", "y.md")
    assert plain.expand("") == "Tidy up."
    assert plain.expand("src/") == "Tidy up.\n\nARGUMENTS: src/"


def test_a_builtin_name_wins_said_once_and_bad_front_matter_still_runs(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo / ".claude/commands/diff.md", "Show me a diff")
    _write(repo / ".claude/commands/broken.md", "---\ndescription: broken\nLook at $ARGUMENTS\n")
    found = load(repo, commands.BY_NAME)
    assert [c.name for c in found.commands] == ["broken"]
    said = "\n".join(found.notes)
    assert said.count(".claude/commands/diff.md") == 1 and "kiln's own command" in said
    assert ".claude/commands/broken.md" in said and "no closing" in said
    broken = found.get("broken")
    assert broken is not None and "Look at here" in broken.expand("here")


def test_a_repository_link_out_of_it_is_not_read(tmp_path: Path) -> None:
    secret = _write(tmp_path / "secret.txt", "host secret")
    repo = tmp_path / "repo"
    (repo / ".claude/commands").mkdir(parents=True)
    (repo / ".claude/commands/leak.md").symlink_to(secret)
    assert load(repo, commands.BY_NAME).commands == ()


async def test_commands_list_complete_help_and_run_a_custom_command(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(
        repo / ".claude/commands/review-sql.md",
        "---\ndescription: review a query\nargument-hint: [FILE]\nmodel: big\n---\n"
        "Review the SQL in $ARGUMENTS.",
    )
    settings = load_settings(repo, {}, env={})
    known = commands.Commands(settings, Mode.ASK, repo=repo)
    assert [c.name for c in known.completions("/rev")] == ["review", "review-sql"]
    [help_text] = [o async for o in known.run("/help")]
    assert isinstance(help_text, commands.Say)
    assert "/review-sql [FILE]" in help_text.text
    assert "review a query (custom: .claude/commands/review-sql.md)" in help_text.text
    [out] = [o async for o in known.run("/review-sql orders.sql")]
    assert isinstance(out, commands.RunTask)
    assert out.task == "Review the SQL in orders.sql."
    assert ".claude/commands/review-sql.md" in out.text and "model big" in out.text
    assert known.custom_task("/diff") is None and known.custom_task("hello") is None


def _skill(root: Path, folder: str, front: str, body: str = "Body.") -> Path:
    return _write(root / folder / "SKILL.md", f"---\n{front}\n---\n{body}\n")


def test_skills_sorted_capped_and_the_bad_ones_named(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _skill(repo / ".claude/skills", "zeta", "name: zeta\ndescription: Last one.")
    _skill(repo / ".kiln/skills", "alpha", "name: alpha\ndescription: First one.")
    _skill(config_dir() / "skills", "alpha", "name: alpha\ndescription: Shadowed.")
    _skill(repo / ".claude/skills", "nodesc", "name: nodesc")
    _skill(repo / ".claude/skills", "Bad", "name: Bad Name\ndescription: x")
    found = skills_mod.load(repo)
    assert [s.name for s in found.skills] == ["alpha", "zeta"]
    assert found.skills[0].description == "First one."
    said = "\n".join(found.notes)
    assert ".claude/skills/nodesc/SKILL.md" in said and "no description" in said
    assert "Bad Name" in said
    section = skills_mod.prompt_section(found)
    assert section.index("- alpha: First one.") < section.index("- zeta: Last one.")
    assert "Body." not in section
    assert skills_mod.prompt_section(skills_mod.Skills()) == ""


def test_very_many_skills_are_capped_with_a_note(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for n in range(skills_mod.MAX_LISTED + 5):
        _skill(repo / ".claude/skills", f"s{n:03}", f"name: s{n:03}\ndescription: skill {n}")
    section = skills_mod.prompt_section(skills_mod.load(repo))
    assert section.count("\n- s") == skills_mod.MAX_LISTED
    assert "[5 more skills are not listed here" in section
    wordy = [
        skills_mod.Skill(
            f"w{n:03}", "x" * 400, tmp_path, "here", skills_mod.Place(tmp_path, "here")
        )
        for n in range(60)
    ]
    section = skills_mod.prompt_section(skills_mod.Skills(tuple(wordy)))
    assert len(section) < skills_mod.MAX_LISTED_CHARS + 600
    assert "more skills are not listed here" in section


def test_read_skill_reads_the_body_and_its_files_never_outside(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _skill(
        repo / ".claude/skills",
        "sql-style",
        "name: sql-style\ndescription: SQL style.",
        "Use CTEs.",
    )
    _write(repo / ".claude/skills/sql-style/reference/joins.md", "Prefer explicit JOIN.")
    _write(tmp_path / "repo/secret.txt", "no")
    tools = skills_mod.SkillTools(skills_mod.load(repo))
    assert [s.name for s in tools.specs] == ["read_skill"] and tools.allowed("read_skill")

    def call(**arguments: str) -> skills_mod.ToolResult:
        return asyncio.run(tools.call("read_skill", dict(arguments)))

    page = call(name="sql-style")
    assert page.ok and "Use CTEs." in page.output and "reference/joins.md" in page.output
    assert "description:" not in page.output  # the front matter is in the prompt already
    assert call(name="sql-style", path="reference/joins.md").output == "Prefer explicit JOIN."
    assert not call(name="sql-style", path="../../../secret.txt").ok
    assert not call(name="nope").ok


def test_config_show_lists_the_commands_and_skills_with_where_each_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from agent.config_cli import main as config_show

    _write(
        tmp_path / ".claude/commands/review-sql.md", "---\nargument-hint: [FILE]\n---\nReview $1\n"
    )
    _write(
        tmp_path / ".kiln/skills/sql-style/SKILL.md",
        "---\nname: sql-style\ndescription: How we write SQL\n---\nbody\n",
    )
    _write(tmp_path / ".kiln/skills/broken/SKILL.md", "no front matter\n")
    _write(
        tmp_path / ".claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: Reviews.\ntools: Read, Grep\nhooks: x\n---\nReview.\n",
    )
    config_show(argparse.Namespace(repo=str(tmp_path)))
    out = capsys.readouterr().out
    assert "agents.reviewer" in out and "'read-only'" in out
    assert "(.claude/agents/reviewer.md)" in out and "agents.explore" in out
    assert "# The agent .claude/agents/reviewer.md asks for hooks: not granted" in out
    assert "commands./review-sql" in out and "'[FILE]'" in out
    assert "(.claude/commands/review-sql.md)" in out
    assert (
        "skills.sql-style" in out
        and "'How we write SQL'" in out
        and "(.kiln/skills/sql-style)" in out
    )
    assert "# The skill .kiln/skills/broken/SKILL.md is left out" in out
