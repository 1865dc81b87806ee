"""Descriptive statistics for a series of measurements."""
