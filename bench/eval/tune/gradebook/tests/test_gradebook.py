import unittest

from gradebook import Gradebook, category_average, letter_for, weighted_average


def course() -> Gradebook:
    book = Gradebook("CS 101")
    book.enroll("s1", "Ada Lovelace")
    book.enroll("s2", "Alan Turing")
    book.enroll("s3", "Grace Hopper")
    for sid, homework, midterm, final in (
        ("s1", [95, 100, 60], 92, 96),
        ("s2", [80, 90, 85], 86, 90),
        ("s3", [70, 75, 80], 78, 79),
    ):
        for score in homework:
            book.record(sid, "homework", score)
        book.record(sid, "midterm", midterm)
        book.record(sid, "final", final)
    return book


class ScaleTest(unittest.TestCase):
    def test_letters_at_the_boundaries(self):
        self.assertEqual(letter_for(93), "A")
        self.assertEqual(letter_for(89.5), "A-")
        self.assertEqual(letter_for(80), "B-")
        self.assertEqual(letter_for(59.4), "F")

    def test_plus_grades(self):
        self.assertEqual(letter_for(88), "B+")
        self.assertEqual(letter_for(79), "C+")
        self.assertEqual(letter_for(68), "D+")


class WeightsTest(unittest.TestCase):
    def test_drop_lowest(self):
        self.assertEqual(category_average([60, 100, 95], drop=1), 97.5)
        self.assertEqual(category_average([60], drop=1), 60)
        self.assertIsNone(category_average([]))

    def test_missing_categories_are_reweighted(self):
        self.assertAlmostEqual(weighted_average({"midterm": [80], "final": [90]}), 86.15, places=2)


class GradebookTest(unittest.TestCase):
    def test_points_are_kept_as_percentages(self):
        book = Gradebook("CS 101")
        book.enroll("s9", "Kim Lee").record("Quizzes", 8, out_of=10)
        self.assertEqual(book.students["s9"].scores["quizzes"], [80.0])

    def test_final_letters(self):
        book = course()
        self.assertEqual([book.letter(s) for s in ("s1", "s2", "s3")], ["A", "B+", "C+"])

    def test_class_gpa(self):
        self.assertEqual(course().class_gpa(), 3.2)

    def test_csv_export_is_sorted_by_surname(self):
        lines = course().to_csv().splitlines()
        self.assertEqual(lines[0], "id,name,average,letter")
        self.assertEqual([line.split(",")[0] for line in lines[1:]], ["s3", "s1", "s2"])


if __name__ == "__main__":
    unittest.main()
