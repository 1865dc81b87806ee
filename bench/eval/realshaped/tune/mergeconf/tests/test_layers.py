import json

import pytest

from layered.merge import ConfigError, get, load_layers, merge


def test_later_layer_wins():
    assert merge({"a": 1, "b": 2}, {"b": 3, "c": 4}) == {"a": 1, "b": 3, "c": 4}


def test_merge_leaves_arguments_alone():
    base, override = {"a": 1}, {"a": 2}
    merge(base, override)
    assert base == {"a": 1} and override == {"a": 2}


def test_load_layers_in_order(tmp_path):
    site = tmp_path / "site.json"
    user = tmp_path / "user.json"
    site.write_text(json.dumps({"theme": "dark", "editor": "vi"}))
    user.write_text(json.dumps({"editor": "nano"}))
    config = load_layers([site, tmp_path / "missing.json", user], defaults={"theme": "light", "lines": 80})
    assert config == {"theme": "dark", "editor": "nano", "lines": 80}


def test_broken_layer_is_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(ConfigError, match="bad.json"):
        load_layers([bad])


def test_top_level_must_be_object(tmp_path):
    bad = tmp_path / "list.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ConfigError):
        load_layers([bad])


def test_get_dotted():
    config = {"db": {"host": "h", "port": 5432}, "debug": False}
    assert get(config, "db.port") == 5432
    assert get(config, "debug") is False
    assert get(config, "db.user", "postgres") == "postgres"
    assert get(config, "debug.level") is None
