"""Recipes and the shopping list for a week of them.

A recipe file looks like:

    Pancakes (serves 4)
    - flour: 250 g
    - milk: 500 ml
    - eggs: 2
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pantry.units import UnitError, format_quantity, parse_quantity

_TITLE = re.compile(r"^(.+?)\s*\(serves (\d+)\)\s*$")


@dataclass
class Recipe:
    name: str
    serves: int
    ingredients: list[tuple[str, float, str]] = field(default_factory=list)


def parse_recipe(text: str) -> Recipe:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    match = _TITLE.match(lines[0]) if lines else None
    if not match:
        raise UnitError("a recipe starts with 'Name (serves N)'")
    recipe = Recipe(match.group(1), int(match.group(2)))
    for line in lines[1:]:
        name, sep, quantity = line.lstrip("- ").partition(":")
        if not sep:
            raise UnitError(f"expected '- ingredient: quantity', got {line!r}")
        amount, unit = parse_quantity(quantity)
        recipe.ingredients.append((name.strip().lower(), amount, unit))
    return recipe


def scale(recipe: Recipe, servings: int) -> list[tuple[str, float, str]]:
    factor = servings / recipe.serves
    return [(name, amount * factor, unit) for name, amount, unit in recipe.ingredients]


def shopping_list(plan: list[tuple[Recipe, int]]) -> list[str]:
    """One line per ingredient, alphabetical, adding up what every planned meal needs."""
    totals: dict[str, list] = {}
    for recipe, servings in plan:
        for name, amount, unit in scale(recipe, servings):
            if name in totals:
                totals[name][0] += amount
            else:
                totals[name] = [amount, unit]
    return [f"{name}: {format_quantity(amount, unit)}" for name, (amount, unit) in sorted(totals.items())]
