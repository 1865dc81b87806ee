"""Line mode's offer after "always": the rule is shown, and written only on yes."""

from __future__ import annotations

import tomllib

from agent.approval import Action, ApprovalRequest
from agent.settings import paths
from tui.rule_offer import offer_in_line


async def test_the_rule_is_shown_and_written_only_on_yes() -> None:
    request = ApprovalRequest(
        "r1", Action.COMMAND, "run `npm test -- -k x`", command="npm test -- -k x"
    )
    said: list[str] = []
    answers = iter(["n", "y"])

    async def ask(prompt: str) -> str:
        said.append(prompt)
        return next(answers)

    await offer_in_line(ask, said.append, request)
    assert '[permissions] allow = ["run: npm test*"]' in said[0]
    assert not paths.user_config_file().exists()
    await offer_in_line(ask, said.append, request)
    assert said[-1].startswith("Remembered allow `run: npm test*` in ")
    assert tomllib.loads(paths.user_config_file().read_text()) == {
        "permissions": {"allow": ["run: npm test*"]}
    }
    flagged = ApprovalRequest("r2", Action.APPLY, "apply", flags=("changes .kiln.toml",))
    await offer_in_line(ask, said.append, flagged)  # nothing offered: no rule for an apply
