"""tracker: a tiny task tracker whose projects can be moved around as CSV files."""
