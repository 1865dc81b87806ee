from datetime import date

from todo import store
from todo.cli import main


def run(capsys, path, *argv):
    code = main(["--file", str(path), *argv])
    return code, capsys.readouterr().out


def test_add_and_list(tmp_path, capsys):
    path = tmp_path / "todo.json"
    assert run(capsys, path, "add", "buy milk") == (0, "added 1\n")
    run(capsys, path, "add", "file taxes", "--due", "2024-04-15")
    code, out = run(capsys, path, "list")
    assert out.splitlines() == ["  1 [ ] buy milk", "  2 [ ] file taxes  (due 2024-04-15)"]


def test_done_hides_item_unless_all(tmp_path, capsys):
    path = tmp_path / "todo.json"
    run(capsys, path, "add", "a")
    run(capsys, path, "add", "b")
    assert run(capsys, path, "done", "1") == (0, "done 1\n")
    assert run(capsys, path, "list")[1].splitlines() == ["  2 [ ] b"]
    assert run(capsys, path, "list", "--all")[1].splitlines() == ["  1 [x] a", "  2 [ ] b"]


def test_done_unknown_id(tmp_path, capsys):
    code = main(["--file", str(tmp_path / "t.json"), "done", "9"])
    assert code == 1
    assert "no item 9" in capsys.readouterr().err


def test_store_round_trip(tmp_path):
    path = tmp_path / "t.json"
    items = []
    store.add(items, "x", date(2024, 1, 2))
    store.save(path, items)
    assert store.load(path) == items
