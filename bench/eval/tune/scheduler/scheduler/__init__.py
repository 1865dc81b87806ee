"""Find meeting times: working days cut into slots, people's busy times, free windows."""

from scheduler.calendar import Busy, Calendar, parse_busy
from scheduler.finder import common_free_slots, first_meeting, free_windows
from scheduler.slots import SLOT_MINUTES, Day, slot_of, time_of

__all__ = [
    "SLOT_MINUTES",
    "Busy",
    "Calendar",
    "Day",
    "common_free_slots",
    "first_meeting",
    "free_windows",
    "parse_busy",
    "slot_of",
    "time_of",
]
