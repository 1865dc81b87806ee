"""A course gradebook: scores by category, weighted averages, letter grades, class stats."""

from gradebook.book import Gradebook
from gradebook.scales import GRADE_POINTS, LETTER_MINIMUMS, grade_points, letter_for
from gradebook.students import Student
from gradebook.weights import DEFAULT_WEIGHTS, category_average, weighted_average

__all__ = [
    "DEFAULT_WEIGHTS",
    "GRADE_POINTS",
    "LETTER_MINIMUMS",
    "Gradebook",
    "Student",
    "category_average",
    "grade_points",
    "letter_for",
    "weighted_average",
]
