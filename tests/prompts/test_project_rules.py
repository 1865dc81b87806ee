"""Must hold: AGENTS.md (and KILN.md, CLAUDE.md) reach the model in the stable prefix, the
same bytes in every request; a rules file that is a link is not followed."""

from __future__ import annotations

from pathlib import Path

from agent.approval import Mode
from agent.llm.base import ModelProfile
from agent.llm.openai_compat import OpenAICompatClient
from agent.llm.scripted.server import ScriptedServer
from agent.prompts.rules import project_rules
from agent.session import Session
from agent.settings.config import load_settings
from tests.scripted import FIX_SCRIPT, ScriptedPerson


def test_rules_are_read_in_order_and_links_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("Use tabs.\n")
    (tmp_path / "AGENTS.md").write_text("Run `make check` before finishing.\n")
    secret = tmp_path.parent / "secret.txt"
    secret.write_text("do not read me")
    (tmp_path / "KILN.md").symlink_to(secret)
    rules = project_rules(tmp_path)
    assert rules.index("AGENTS.md") < rules.index("CLAUDE.md")
    assert "make check" in rules and "Use tabs." in rules and "do not read me" not in rules
    assert project_rules(tmp_path / "nowhere") == ""


async def test_the_rules_sit_in_every_requests_system_prompt(
    docker_ready: None, buggy_repo: Path
) -> None:
    (buggy_repo / "AGENTS.md").write_text("Keep functions pure.\n")
    with ScriptedServer(FIX_SCRIPT) as server:
        profile = ModelProfile(base_url=server.base_url, model="scripted", max_retries=0)
        session = Session(
            load_settings(buggy_repo, env={}), buggy_repo, ScriptedPerson(), Mode.FULL_AUTO,
            client=OpenAICompatClient(profile),
        )  # fmt: skip
        try:
            async for _ in session.run("fix add"):
                pass
        finally:
            await session.close()
        systems = {
            r.body["messages"][0]["content"]
            for r in server.requests
            if r.path.endswith("/chat/completions")
        }
    (system,) = systems  # one system prompt, byte for byte, in every request
    assert "Project rules from AGENTS.md" in system and "Keep functions pure." in system
    assert "## Repository map" in system and "calc.py" in system.split("## Repository map")[1]
