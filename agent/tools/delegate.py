"""The `agent` tool: the model starts a child agent on a task, or takes a finished child's
changes. Beyond the coding group (it holds its limit of ten) and only in sessions whose
model reads and plans on its own: a small model's tool list stays as it was. The loop
answers it (agent/run/children.py), as it answers `finish`: a child needs the run."""

from __future__ import annotations

from agent.custom.agents import Agents
from agent.llm.base import ToolSpec

NAME = "agent"
MAX_LISTED_CHARS = 4000  # the definitions' lines in the tool's description


def agent_spec(agents: Agents) -> ToolSpec:
    """The tool as the model is told it, the session's definitions listed in it."""
    lines, size = [], 0
    for definition in agents.definitions:
        line = f"- {definition.name}: {' '.join(definition.description.split())[:300]}"
        size += len(line)
        if size > MAX_LISTED_CHARS:
            break
        lines.append(line)
    description = (
        "Start a helper agent on a self-contained task. It works in its own copy of the "
        "repository (your changes so far included) with a context of its own, and you read "
        "only its report. Several calls in one reply run at the same time: use them for "
        "independent searches or side jobs. A helper that changed files hands back its diff "
        "under an id; call this tool with `take` set to that id to apply those changes to "
        "your workspace, or leave them. Agents:\n" + "\n".join(lines)
    )
    names = [d.name for d in agents.definitions]
    return ToolSpec(
        NAME,
        description,
        {
            "type": "object",
            "properties": {
                "task": {
                    "type": "string",
                    "description": "What the helper should do or find out, with everything "
                    "it needs to know: it has not seen this conversation.",
                },
                "agent": {"type": "string", "enum": names, "description": "default: general"},
                "take": {
                    "type": "string",
                    "description": "Instead of a task: the id of a finished helper whose "
                    "changes to apply to your workspace.",
                },
            },
        },
    )
