import json

from todo.cli import main


def write(path, items):
    path.write_text(json.dumps(items))


ITEMS = [
    {"id": 1, "title": "no date one", "done": False, "due": None},
    {"id": 2, "title": "taxes", "done": False, "due": "2024-04-15"},
    {"id": 3, "title": "dentist", "done": False, "due": "2024-03-02"},
    {"id": 4, "title": "no date two", "done": False, "due": None},
    {"id": 5, "title": "renew passport", "done": True, "due": "2024-01-10"},
    {"id": 6, "title": "call bank", "done": False, "due": "2024-03-02"},
]


def lines(capsys, path, *argv):
    assert main(["--file", str(path), "list", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_sort_by_due_puts_undated_last(tmp_path, capsys):
    path = tmp_path / "todo.json"
    write(path, ITEMS)
    assert lines(capsys, path, "--sort", "due") == [
        "  3 [ ] dentist  (due 2024-03-02)",
        "  6 [ ] call bank  (due 2024-03-02)",
        "  2 [ ] taxes  (due 2024-04-15)",
        "  1 [ ] no date one",
        "  4 [ ] no date two",
    ]


def test_sort_by_due_with_all(tmp_path, capsys):
    path = tmp_path / "todo.json"
    write(path, ITEMS)
    assert [line.split()[0] for line in lines(capsys, path, "--all", "--sort", "due")] == ["5", "3", "6", "2", "1", "4"]


def test_default_and_explicit_id_order_unchanged(tmp_path, capsys):
    path = tmp_path / "todo.json"
    write(path, ITEMS)
    by_id = ["1", "2", "3", "4", "6"]
    assert [line.split()[0] for line in lines(capsys, path)] == by_id
    assert [line.split()[0] for line in lines(capsys, path, "--sort", "id")] == by_id
