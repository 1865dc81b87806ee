"""What a client sends that a server may refuse, as one small mutable record per client.

It starts from what kiln knows of the model (`facts.py`) and the profile's effort; when a
server refuses one of these, `llm/adapt.py` changes it once and the client sends the new
value from then on. A client of any wire API that holds a `choices` of this type can be
adapted (the chat-completions client does; another reads what applies to it).
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.llm.facts import ModelFacts, effort_for


@dataclass
class WireChoices:
    # the parameter that limits a reply: max_tokens, max_completion_tokens (A1), ...
    output_param: str = "max_tokens"
    # "any": the profile's or the request's; "none": never sent (only the model's default
    # is taken, A2); else a number sent with every request (Kimi's 1.0, F2)
    temperature: str = "any"
    effort: str = ""  # the reasoning effort sent; "" sends none
    reasoning_back: bool = False  # assistant messages' reasoning sent as reasoning_content
    extras_back: bool = False  # what the server attached to a reply (extra_content) sent back


def chat_choices(facts: ModelFacts, effort: str) -> WireChoices:
    """The choices of a chat-completions client for a model, before any refusal."""
    output = facts.output_param
    if output == "max_output_tokens":  # a Responses model's row, served here by request
        output = "max_completion_tokens"
    return WireChoices(
        output_param=output,
        temperature="none" if facts.temperature == "default" else facts.temperature,
        effort=effort_for(facts, effort) if facts.effort_as == "reasoning_effort" else "",
        # Sending reasoning back is never the default: R1-era servers refused it (E1).
        reasoning_back="reasoning_content" in facts.send_back,
        extras_back="thought_signature" in facts.send_back,
    )
