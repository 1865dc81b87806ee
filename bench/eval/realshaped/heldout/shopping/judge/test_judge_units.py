from pantry.shopping import parse_recipe, shopping_list

PANCAKES = parse_recipe("Pancakes (serves 4)\n- flour: 500 g\n- milk: 250 ml\n- eggs: 2\n- butter: 30 g\n")
BREAD = parse_recipe("Bread (serves 1)\n- flour: 1 kg\n- water: 0.5 l\n- milk: 0.5 l\n- salt: 20 g\n")
SOUP = parse_recipe("Soup (serves 2)\n- stock: 0,75 l\n- water: 250 ml\n- butter: 0.02 kg\n")


def test_mixed_units_are_added_after_conversion():
    assert shopping_list([(PANCAKES, 4), (BREAD, 1)]) == [
        "butter: 30 g",
        "eggs: 2",
        "flour: 1.5 kg",
        "milk: 750 ml",
        "salt: 20 g",
        "water: 500 ml",
    ]


def test_totals_of_1000_or_more_are_shown_in_kg_or_l():
    assert shopping_list([(PANCAKES, 8), (BREAD, 1), (SOUP, 4)]) == [
        "butter: 100 g",
        "eggs: 4",
        "flour: 2 kg",
        "milk: 1 l",
        "salt: 20 g",
        "stock: 1.5 l",
        "water: 1 l",
    ]


def test_small_amounts_in_big_units_are_shown_in_g_or_ml():
    half = parse_recipe("Half loaf (serves 2)\n- flour: 1 kg\n- water: 0.35 l\n")
    assert shopping_list([(half, 1)]) == ["flour: 500 g", "water: 175 ml"]


def test_boundary_and_decimals():
    a = parse_recipe("A (serves 1)\n- rice: 999 g\n- oil: 0.2 l\n")
    b = parse_recipe("B (serves 1)\n- rice: 1 g\n- oil: 1.05 l\n")
    assert shopping_list([(a, 1), (b, 1)]) == ["oil: 1.25 l", "rice: 1 kg"]
