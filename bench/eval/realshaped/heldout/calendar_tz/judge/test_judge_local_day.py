import unittest
from datetime import date, timedelta, timezone

from agenda.events import load_events
from agenda.views import day_view, render_week, week_view

NEW_YORK = timezone(timedelta(hours=-5))
BERLIN = timezone(timedelta(hours=1))
TEXT = """\
2024-03-01T14:00:00Z 30 Standup
2024-03-02T04:30:00Z 60 Late call
2024-03-01T23:30:00Z 45 Early run
2024-03-04T03:00:00Z 30 Sunday night deploy
"""


class LocalDayTest(unittest.TestCase):
    def setUp(self):
        self.events = load_events(TEXT)

    def test_late_evening_event_stays_on_its_local_day(self):
        self.assertEqual(
            day_view(self.events, date(2024, 3, 1), NEW_YORK),
            ["09:00-09:30 Standup", "18:30-19:15 Early run", "23:30-00:30 Late call"],
        )
        self.assertEqual(day_view(self.events, date(2024, 3, 2), NEW_YORK), [])

    def test_positive_offset(self):
        self.assertEqual(day_view(self.events, date(2024, 3, 2), BERLIN), ["00:30-01:15 Early run", "05:30-06:30 Late call"])
        self.assertEqual(day_view(self.events, date(2024, 3, 1), BERLIN), ["15:00-15:30 Standup"])

    def test_week_view_uses_local_days(self):
        week = week_view(self.events, date(2024, 2, 26), NEW_YORK)
        self.assertEqual(week[date(2024, 3, 1)], ["09:00-09:30 Standup", "18:30-19:15 Early run", "23:30-00:30 Late call"])
        self.assertEqual(week[date(2024, 3, 2)], [])
        self.assertEqual(week[date(2024, 3, 3)], ["22:00-22:30 Sunday night deploy"])

    def test_event_leaves_the_week_when_its_local_day_is_outside(self):
        week = week_view(self.events, date(2024, 3, 4), NEW_YORK)
        self.assertEqual(sum(len(lines) for lines in week.values()), 0)
        text = render_week(week_view(self.events, date(2024, 2, 26), BERLIN))
        self.assertIn("Sat 02 Mar\n  00:30-01:15 Early run\n  05:30-06:30 Late call\n", text)


if __name__ == "__main__":
    unittest.main()
