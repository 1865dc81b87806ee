import datetime as dt
import unittest

from scheduler import Calendar, Day, common_free_slots, first_meeting, free_windows, slot_of, time_of
from scheduler.finder import meeting_starts

MON = dt.date(2024, 6, 3)
TUE = dt.date(2024, 6, 4)

BUSY = """
ana 2024-06-03 09:00-12:00
ana 2024-06-03 13:00-16:00
ben 2024-06-03 09:30-10:15
ben 2024-06-03 12:00-13:00
ana 2024-06-04 09:00-17:00
"""


class SlotTest(unittest.TestCase):
    def test_slots_of_a_day(self):
        day = Day(MON)
        self.assertEqual(day.slot_count, 16)
        self.assertEqual(slot_of(day, dt.time(10, 15)), 2)
        self.assertEqual(slot_of(day, dt.time(10, 15), round_up=True), 3)
        self.assertEqual(time_of(day, 15), dt.time(16, 30))

    def test_partly_busy_slots_count_as_busy(self):
        calendar = Calendar.from_text(BUSY)
        self.assertEqual(calendar.busy_slots("Ben", Day(MON)), {1, 2, 6, 7})


class FinderTest(unittest.TestCase):
    def test_common_free_windows(self):
        free = common_free_slots(Calendar.from_text(BUSY), ["ana", "ben"], Day(MON))
        self.assertEqual(free_windows(free), [(14, 16)])

    def test_meeting_starts(self):
        free = [True, True, False, True, True, True]
        self.assertEqual(meeting_starts(free, 2), [0, 3, 4])
        self.assertEqual(meeting_starts(free, 3), [3])

    def test_a_meeting_in_the_last_hour(self):
        found = first_meeting(Calendar.from_text(BUSY), ["ana", "ben"], 60, MON)
        self.assertEqual(found, (MON, dt.time(16, 0)))

    def test_a_short_meeting_fits_before_lunch(self):
        found = first_meeting(Calendar.from_text(BUSY), ["ben"], 45, MON)
        self.assertEqual(found, (MON, dt.time(10, 30)))

    def test_a_busy_day_moves_the_meeting_to_the_next_one(self):
        found = first_meeting(Calendar.from_text(BUSY), ["ana"], 480, TUE)
        self.assertEqual(found, (dt.date(2024, 6, 5), dt.time(9, 0)))

    def test_weekends_are_skipped(self):
        found = first_meeting(Calendar(), ["ana"], 30, dt.date(2024, 6, 8))
        self.assertEqual(found, (dt.date(2024, 6, 10), dt.time(9, 0)))

    def test_nobody_free(self):
        self.assertIsNone(first_meeting(Calendar.from_text(BUSY), ["ana"], 30, TUE, days=1))


if __name__ == "__main__":
    unittest.main()
