"""The gradebook of one course: students, their final grades, and a CSV export."""

from __future__ import annotations

import csv
import io
import statistics

from gradebook.scales import grade_points, letter_for
from gradebook.students import Student
from gradebook.weights import DEFAULT_WEIGHTS, weighted_average


class Gradebook:
    def __init__(self, course: str, weights: dict[str, float] | None = None):
        self.course = course
        self.weights = dict(weights or DEFAULT_WEIGHTS)
        self.students: dict[str, Student] = {}

    def enroll(self, student_id: str, name: str) -> Student:
        student = Student(student_id, name)
        self.students[student_id] = student
        return student

    def record(self, student_id: str, category: str, points: float, out_of: float = 100.0) -> None:
        self.students[student_id].record(category, points, out_of)

    def average(self, student_id: str) -> float:
        return weighted_average(self.students[student_id].scores, self.weights)

    def letter(self, student_id: str) -> str:
        return letter_for(self.average(student_id))

    def class_gpa(self) -> float:
        points = [grade_points(self.letter(sid)) for sid in self.students]
        return round(statistics.mean(points), 2)

    def distribution(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for sid in self.students:
            letter = self.letter(sid)
            counts[letter] = counts.get(letter, 0) + 1
        return dict(sorted(counts.items()))

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["id", "name", "average", "letter"])
        ordered = sorted(self.students.values(), key=lambda s: (s.surname, s.name))
        for student in ordered:
            average = self.average(student.student_id)
            writer.writerow([student.student_id, student.name, f"{average:.1f}", letter_for(average)])
        return out.getvalue()
