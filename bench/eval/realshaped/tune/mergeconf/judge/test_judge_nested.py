import copy
import json

from layered.merge import get, load_layers, merge


def test_nested_sections_merge_key_by_key():
    base = {"db": {"host": "x", "port": 5432}}
    assert merge(base, {"db": {"port": 6543}}) == {"db": {"host": "x", "port": 6543}}


def test_merging_goes_all_the_way_down():
    base = {"log": {"handlers": {"file": {"path": "/var/log/app", "level": "info"}}, "format": "plain"}}
    override = {"log": {"handlers": {"file": {"level": "debug"}, "console": {"level": "warn"}}}}
    assert merge(base, override) == {
        "log": {
            "handlers": {"file": {"path": "/var/log/app", "level": "debug"}, "console": {"level": "warn"}},
            "format": "plain",
        }
    }


def test_non_dicts_replace():
    base = {"plugins": ["a", "b"], "db": {"host": "x"}, "name": "app", "limits": 3}
    override = {"plugins": ["c"], "db": "sqlite:///x.db", "name": {"short": "a"}}
    assert merge(base, override) == {"plugins": ["c"], "db": "sqlite:///x.db", "name": {"short": "a"}, "limits": 3}


def test_nested_inputs_are_not_modified():
    base = {"db": {"host": "x", "opts": {"ssl": True}}}
    override = {"db": {"opts": {"timeout": 5}}}
    base_before, override_before = copy.deepcopy(base), copy.deepcopy(override)
    result = merge(base, override)
    assert base == base_before and override == override_before
    result["db"]["opts"]["ssl"] = False
    assert base["db"]["opts"]["ssl"] is True


def test_three_layers_from_files(tmp_path):
    site = tmp_path / "site.json"
    user = tmp_path / "user.json"
    site.write_text(json.dumps({"db": {"host": "db.internal"}}))
    user.write_text(json.dumps({"db": {"user": "me"}}))
    config = load_layers([site, user], defaults={"db": {"host": "localhost", "port": 5432}})
    assert config == {"db": {"host": "db.internal", "port": 5432, "user": "me"}}
    assert get(config, "db.port") == 5432
