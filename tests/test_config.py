from __future__ import annotations

from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.settings.config import describe, load_settings


def test_layers_later_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".kiln.toml").write_text(
        '[models.main]\nmodel = "repo-model"\nbase_url = "http://127.0.0.1:1/v1"\n'
        '[tests]\ncommand = "pytest -q"\n[limits]\nmax_steps = 7\n'
    )
    settings = load_settings(tmp_path, env={"KILN_MODEL": "env-model"})
    assert settings.models["main"].model == "env-model"
    assert settings.models["main"].base_url == "http://127.0.0.1:1/v1"
    assert settings.tests.command == "pytest -q"
    assert settings.limits.max_steps == 7
    flags = load_settings(tmp_path, {"models.main.model": "flag-model"}, env={"KILN_MODEL": "e"})
    assert flags.models["main"].model == "flag-model"
    sources = {key: source for key, _, source in describe(flags)}
    assert sources["models.main.model"] == "flag"
    assert sources["tests.command"].endswith(".kiln.toml")
    assert sources["limits.max_tokens"] == "default"


def test_bad_value_names_file_and_key(tmp_path: Path) -> None:
    (tmp_path / ".kiln.toml").write_text('[limits]\nmax_steps = "many"\n')
    with pytest.raises(ConfigError) as err:
        load_settings(tmp_path, env={})
    assert ".kiln.toml" in err.value.message and "limits.max_steps" in err.value.message


def test_unknown_key_and_bad_toml(tmp_path: Path) -> None:
    (tmp_path / ".kiln.toml").write_text("[sandbox]\nimagee = 'x'\n")
    with pytest.raises(ConfigError, match=r"sandbox\.imagee"):
        load_settings(tmp_path, env={})
    (tmp_path / ".kiln.toml").write_text("[sandbox\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(tmp_path, env={})
