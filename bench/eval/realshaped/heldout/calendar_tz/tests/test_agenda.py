import unittest
from datetime import date, datetime, timedelta, timezone

from agenda.events import Event, EventError, load_events, parse_event
from agenda.views import day_view, render_week, week_view

UTC = timezone.utc
LONDON_WINTER = timezone(timedelta(0))
TEXT = """\
# week 9
2024-03-01T09:00:00Z 30 Standup
2024-02-26T14:00:00+01:00 90 Planning
2024-03-01T12:00:00Z 60 Lunch with Sam
"""


class EventsTest(unittest.TestCase):
    def test_parse_converts_to_utc(self):
        event = parse_event("2024-02-26T14:00:00+01:00 90 Planning")
        self.assertEqual(event, Event(datetime(2024, 2, 26, 13, 0, tzinfo=UTC), 90, "Planning"))

    def test_errors(self):
        for line in ("2024-03-01T09:00:00 30 naive", "2024-03-01T09:00:00Z x y", "2024-03-01T09:00:00Z 0 zero", "nope"):
            with self.assertRaises(EventError):
                parse_event(line)

    def test_load_sorts(self):
        self.assertEqual([e.title for e in load_events(TEXT)], ["Planning", "Standup", "Lunch with Sam"])


class ViewsTest(unittest.TestCase):
    def setUp(self):
        self.events = load_events(TEXT)

    def test_day_view(self):
        self.assertEqual(day_view(self.events, date(2024, 3, 1), UTC), ["09:00-09:30 Standup", "12:00-13:00 Lunch with Sam"])

    def test_day_view_shows_local_times(self):
        plus2 = timezone(timedelta(hours=2))
        self.assertEqual(day_view(self.events, date(2024, 3, 1), plus2)[0], "11:00-11:30 Standup")

    def test_week_view(self):
        week = week_view(self.events, date(2024, 2, 26), LONDON_WINTER)
        self.assertEqual(len(week), 7)
        self.assertEqual(week[date(2024, 2, 26)], ["13:00-14:30 Planning"])
        self.assertEqual(len(week[date(2024, 3, 1)]), 2)
        self.assertEqual(week[date(2024, 3, 3)], [])

    def test_week_must_start_on_monday(self):
        with self.assertRaises(ValueError):
            week_view(self.events, date(2024, 2, 27), UTC)

    def test_render_week(self):
        text = render_week(week_view(self.events, date(2024, 2, 26), UTC))
        self.assertTrue(text.startswith("Mon 26 Feb\n  13:00-14:30 Planning\nTue 27 Feb\n  -\n"))


if __name__ == "__main__":
    unittest.main()
