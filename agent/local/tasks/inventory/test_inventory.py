import unittest

from inventory import Inventory


class InventoryTests(unittest.TestCase):
    def test_add_once(self):
        inv = Inventory()
        inv.add("apple", 3)
        self.assertEqual(inv.count("apple"), 3)

    def test_add_twice_accumulates(self):
        inv = Inventory()
        inv.add("apple", 3)
        inv.add("apple", 4)
        self.assertEqual(inv.count("apple"), 7)

    def test_remove(self):
        inv = Inventory()
        inv.add("pear", 5)
        inv.remove("pear", 2)
        self.assertEqual(inv.count("pear"), 3)
        with self.assertRaises(ValueError):
            inv.remove("pear", 10)


if __name__ == "__main__":
    unittest.main()
