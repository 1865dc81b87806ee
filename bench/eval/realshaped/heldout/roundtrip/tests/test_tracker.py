import unittest
from datetime import date

from tracker.export import export_tasks
from tracker.importer import ImportProblem, import_tasks
from tracker.model import Task


class ExportTest(unittest.TestCase):
    def test_export_without_dates(self):
        tasks = [Task(2, "Write docs", tags=("docs", "v2")), Task(1, "Fix login, again", "doing")]
        self.assertEqual(
            export_tasks(tasks),
            'id,title,status,due,done_on,tags\n1,"Fix login, again",doing,,,\n2,Write docs,todo,,,docs;v2\n',
        )


class ImportTest(unittest.TestCase):
    def test_import_hand_written_file(self):
        text = "id,title,status,due,done_on,tags\n1,Ship it,done,2024-03-01,2024-02-28,release\n\n2,Plan,,2024-04-01,,\n"
        self.assertEqual(import_tasks(text), [
            Task(1, "Ship it", "done", date(2024, 3, 1), date(2024, 2, 28), ("release",)),
            Task(2, "Plan", "todo", date(2024, 4, 1)),
        ])

    def test_only_id_and_title_are_required(self):
        self.assertEqual(import_tasks("title,id\nA,7\n"), [Task(7, "A")])

    def test_problems_name_the_line(self):
        cases = {
            "id,title\nx,A\n": "line 2: bad id",
            "id,title\n1,A\n1,B\n": "line 3: duplicate id 1",
            "id,title,due\n1,A,soon\n": "line 2: bad due date 'soon'",
            "id,title,status\n1,A,blocked\n": "line 2: unknown status",
            "title\nA\n": "missing column",
        }
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaises(ImportProblem) as caught:
                    import_tasks(text)
                self.assertIn(message, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
