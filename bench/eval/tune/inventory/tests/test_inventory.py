import datetime as dt
import unittest

from inventory import BatchItem, Lot, OutOfStock, PerishableItem, SimpleItem, Warehouse

MAY_1 = dt.date(2024, 5, 1)


def milk() -> PerishableItem:
    item = PerishableItem("MILK-1L", "Milk 1 l", reorder_point=10)
    item.receive(Lot("M2", 12, received=dt.date(2024, 4, 28), expires=dt.date(2024, 5, 6)))
    item.receive(Lot("M1", 5, received=dt.date(2024, 4, 25), expires=dt.date(2024, 5, 2)))
    item.receive(Lot("M0", 8, received=dt.date(2024, 4, 20), expires=dt.date(2024, 4, 30)))
    return item


class SimpleItemTest(unittest.TestCase):
    def test_pick_and_reorder(self):
        screws = SimpleItem("SCR-4", "Screw 4 mm", quantity=100, reorder_point=20)
        self.assertEqual(screws.pick(85), [("-", 85)])
        self.assertEqual(screws.available(), 15)
        self.assertTrue(screws.needs_reorder())

    def test_out_of_stock(self):
        with self.assertRaises(OutOfStock) as caught:
            SimpleItem("SCR-4", "Screw", quantity=3).pick(4)
        self.assertEqual((caught.exception.wanted, caught.exception.available), (4, 3))


class BatchItemTest(unittest.TestCase):
    def test_first_in_first_out_within_one_lot(self):
        paint = BatchItem("PNT-W", "White paint")
        paint.receive(Lot("B", 10, received=dt.date(2024, 3, 2)))
        paint.receive(Lot("A", 10, received=dt.date(2024, 2, 1)))
        self.assertEqual(paint.pick(4), [("A", 4)])
        self.assertEqual(paint.available(), 16)

    def test_a_pick_spanning_lots(self):
        paint = BatchItem("PNT-W", "White paint")
        paint.receive(Lot("A", 5, received=dt.date(2024, 2, 1)))
        paint.receive(Lot("B", 10, received=dt.date(2024, 3, 2)))
        self.assertEqual(paint.pick(8), [("A", 5), ("B", 3)])
        self.assertEqual([lot.quantity for lot in paint.lots], [0, 7])


class PerishableItemTest(unittest.TestCase):
    def test_expired_lots_are_not_available(self):
        self.assertEqual(milk().available(MAY_1), 17)

    def test_first_expiring_first_out(self):
        item = milk()
        self.assertEqual(item.pick(9, MAY_1), [("M1", 5), ("M2", 4)])
        self.assertEqual(item.available(MAY_1), 8)

    def test_cannot_pick_expired_units(self):
        with self.assertRaises(OutOfStock):
            milk().pick(20, MAY_1)

    def test_write_off(self):
        item = milk()
        self.assertEqual(item.write_off(MAY_1), 8)
        self.assertEqual([lot.code for lot in item.lots], ["M2", "M1"])


class WarehouseTest(unittest.TestCase):
    def test_ship_an_order_and_reorder(self):
        house = Warehouse()
        house.add(milk())
        house.add(SimpleItem("SCR-4", "Screw 4 mm", quantity=50, reorder_point=20))
        picked = house.ship({"MILK-1L": 10, "SCR-4": 10}, on=MAY_1)
        self.assertEqual(picked["MILK-1L"], [("M1", 5), ("M2", 5)])
        self.assertEqual(house.reorder_list(MAY_1), ["MILK-1L"])

    def test_an_order_that_cannot_ship_changes_nothing(self):
        house = Warehouse()
        house.add(milk())
        house.add(SimpleItem("SCR-4", "Screw 4 mm", quantity=5))
        with self.assertRaises(OutOfStock):
            house.ship({"MILK-1L": 3, "SCR-4": 6}, on=MAY_1)
        self.assertEqual(house["MILK-1L"].available(MAY_1), 17)
        self.assertFalse(house.can_ship({"SCR-4": 6}))


if __name__ == "__main__":
    unittest.main()
