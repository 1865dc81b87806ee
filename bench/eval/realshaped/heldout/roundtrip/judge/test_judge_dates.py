import unittest
from datetime import date

from tracker.export import export_tasks
from tracker.importer import ImportProblem, import_tasks
from tracker.model import Task

TASKS = [
    Task(1, "Ship it", "done", date(2024, 3, 4), date(2024, 3, 1), ("release",)),
    Task(2, "Plan Q2", "todo", date(2024, 4, 12)),
    Task(3, "Someday", "doing"),
]


class IsoExportTest(unittest.TestCase):
    def test_export_writes_iso_dates(self):
        self.assertEqual(
            export_tasks(TASKS),
            "id,title,status,due,done_on,tags\n"
            "1,Ship it,done,2024-03-04,2024-03-01,release\n"
            "2,Plan Q2,todo,2024-04-12,,\n"
            "3,Someday,doing,,,\n",
        )

    def test_round_trip(self):
        self.assertEqual(import_tasks(export_tasks(TASKS)), TASKS)


class OldExportsTest(unittest.TestCase):
    def test_day_month_year_dates_still_import(self):
        old = "id,title,status,due,done_on,tags\n1,Ship it,done,04/03/2024,01/03/2024,release\n2,Plan Q2,todo,12/04/2024,,\n"
        self.assertEqual(import_tasks(old), TASKS[:2])

    def test_day_first_even_when_ambiguous(self):
        tasks = import_tasks("id,title,due\n1,A,05/06/2024\n2,B,31/12/2024\n")
        self.assertEqual([t.due for t in tasks], [date(2024, 6, 5), date(2024, 12, 31)])

    def test_mixed_files(self):
        tasks = import_tasks("id,title,due\n1,A,2024-06-05\n2,B,05/06/2024\n")
        self.assertEqual(tasks[0].due, tasks[1].due)

    def test_impossible_dates_are_still_problems(self):
        for bad in ("31/02/2024", "13/13/2024", "2024-02-31", "soon"):
            with self.subTest(bad=bad):
                with self.assertRaises(ImportProblem) as caught:
                    import_tasks(f"id,title,due\n1,A,2024-01-01\n2,B,{bad}\n")
                self.assertIn("line 3", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
