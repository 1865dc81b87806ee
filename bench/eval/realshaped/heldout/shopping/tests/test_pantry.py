import pytest

from pantry.shopping import parse_recipe, scale, shopping_list
from pantry.units import UnitError, format_quantity, parse_quantity

PANCAKES = parse_recipe("""
Pancakes (serves 4)
- flour: 250 g
- milk: 500 ml
- Eggs: 2
- sugar: 1,5 g
""")
CAKE = parse_recipe("Sponge cake (serves 8)\n- flour: 200 g\n- eggs: 4\n- sugar: 200 g\n")


@pytest.mark.parametrize("text, expected", [("250 g", (250.0, "g")), ("1,5 kg", (1.5, "kg")), ("0.5L", (0.5, "l")), (" 3 ", (3.0, ""))])
def test_parse_quantity(text, expected):
    assert parse_quantity(text) == expected


@pytest.mark.parametrize("text", ["a pinch", "3 cups", ""])
def test_bad_quantities(text):
    with pytest.raises(UnitError):
        parse_quantity(text)


def test_format_quantity():
    assert format_quantity(1.5, "kg") == "1.5 kg"
    assert format_quantity(250.0, "g") == "250 g"
    assert format_quantity(2 / 3, "") == "0.67"
    assert format_quantity(3.0, "") == "3"


def test_parse_recipe():
    assert PANCAKES.name == "Pancakes" and PANCAKES.serves == 4
    assert PANCAKES.ingredients[2] == ("eggs", 2.0, "")


def test_scale():
    assert scale(PANCAKES, 2)[:2] == [("flour", 125.0, "g"), ("milk", 250.0, "ml")]


def test_shopping_list_adds_up_same_units():
    assert shopping_list([(PANCAKES, 4), (CAKE, 8)]) == [
        "eggs: 6", "flour: 450 g", "milk: 500 ml", "sugar: 201.5 g",
    ]


def test_bad_recipe():
    with pytest.raises(UnitError):
        parse_recipe("no title here\n- flour: 1 g")
