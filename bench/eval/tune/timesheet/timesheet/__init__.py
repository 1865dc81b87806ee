"""Time tracking: entries, a weekly sheet, and the report printed from it."""
