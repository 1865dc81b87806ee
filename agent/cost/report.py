"""`kiln cost`'s arithmetic: a session's stored requests, per step and per model.

Each request was priced when it was made, with the prices then in force (config, the
table, or a local model's price per hour); this only adds them up. One unknown price makes
the sum it belongs to unknown: a total that silently leaves a request out is not a total.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agent.events import Usage
from sandbox.frozen import frozen

UNRECORDED = "(not recorded)"  # a request stored without its model (an older kiln)


@frozen
class CostLine:
    role: str
    model: str
    usage: Usage
    cost_usd: float | None  # None: unknown
    requests: int = 1
    step: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "model": self.model,
            "step": self.step,
            "requests": self.requests,
            "uncached_input_tokens": self.usage.uncached_input,
            "cached_input_tokens": self.usage.cached_input,
            "cache_write_tokens": self.usage.cache_write,
            "output_tokens": self.usage.output,
            "reasoning_tokens": self.usage.reasoning,
            "cost_usd": self.cost_usd,
            "cost_known": self.cost_usd is not None,
        }


def per_request(rows: Iterable[dict[str, Any]]) -> list[CostLine]:
    """One line per stored request, in order."""
    return [
        CostLine(
            role=row.get("role") or "main",
            model=row.get("model") or UNRECORDED,
            usage=Usage(
                row["uncached"],
                row["cached"],
                row["cache_write"],
                row["output"],
                row.get("reasoning") or 0,
            ),
            # An older kiln stored the session's running total here, not the request's.
            cost_usd=row["cost_usd"] if row.get("model") else None,
            step=row.get("step"),
        )
        for row in rows
    ]


def summed(lines: Iterable[CostLine], role: str = "", model: str = "") -> CostLine:
    usage, cost, count = Usage(), 0.0, 0
    known = True
    for line in lines:
        usage, count = usage + line.usage, count + line.requests
        if line.cost_usd is None:
            known = False
        else:
            cost += line.cost_usd
    return CostLine(role, model, usage, cost if known else None, count)


def per_model(lines: list[CostLine]) -> list[CostLine]:
    """One line per (role, model): the main and the fast model are metered apart."""
    keys = list(dict.fromkeys((line.role, line.model) for line in lines))
    return [
        summed((x for x in lines if (x.role, x.model) == key), role=key[0], model=key[1])
        for key in keys
    ]


def money(cost_usd: float | None) -> str:
    return "unknown" if cost_usd is None else f"${cost_usd:.6f}"


HEADER = (
    f"{'role':<5} {'model':<28} {'uncached':>9} {'cached':>9} {'write':>8} {'output':>8} "
    f"{'thinking':>8} {'cost':>12}"
)


def text_line(line: CostLine, head: str) -> str:
    """`thinking`: of the output, the reasoning tokens (paid as output)."""
    u = line.usage
    return (
        f"{head}{line.role:<5} {line.model[:28]:<28} {u.uncached_input:>9} {u.cached_input:>9} "
        f"{u.cache_write:>8} {u.output:>8} {u.reasoning:>8} {money(line.cost_usd):>12}"
    )


def text_report(lines: list[CostLine]) -> list[str]:
    """Per step, then per model, then the session: what `kiln cost` prints."""
    out = [f"{'#':>3} {'step':>4}  {HEADER}"]
    for number, line in enumerate(lines, 1):
        step = "-" if line.step is None else str(line.step)
        out.append(text_line(line, f"{number:>3} {step:>4}  "))
    out += ["", f"{'requests':>8}  {HEADER}"]
    for line in per_model(lines):
        out.append(text_line(line, f"{line.requests:>8}  "))
    total = summed(lines, role="all")
    out.append(text_line(total, f"{total.requests:>8}  "))
    return out
