import unittest

from till.basket import Basket, Offer
from till.receipt import WIDTH, money, receipt


class ReceiptTest(unittest.TestCase):
    def setUp(self):
        self.basket = Basket({"apple": 30, "bread": 145, "milk": 120}, {"apple": Offer(3, 60)})

    def test_money(self):
        self.assertEqual(money(1234), "12.34")
        self.assertEqual(money(150), "1.50")
        self.assertEqual(money(5), "0.05")

    def test_offer(self):
        self.basket.scan("apple", 4)
        self.assertEqual(self.basket.line_total("apple"), 90)

    def test_receipt(self):
        self.basket.scan("apple", 3)
        self.basket.scan("bread")
        self.basket.scan("milk")
        lines = receipt(self.basket).splitlines()
        self.assertTrue(all(len(line) == WIDTH for line in lines))
        self.assertEqual(lines[2], "apple x3" + " " * 20 + "0.60")
        self.assertEqual(lines[3], "  you saved" + " " * 17 + "0.30")
        self.assertEqual(lines[-1], "TOTAL" + " " * 23 + "3.25")


if __name__ == "__main__":
    unittest.main()
