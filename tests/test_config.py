from __future__ import annotations

from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.settings import trust
from agent.settings.config import describe, load_settings


def test_layers_later_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".kiln.toml").write_text(
        '[models.main]\nmodel = "repo-model"\nbase_url = "http://127.0.0.1:1/v1"\n'
        '[tests]\ncommand = "pytest -q"\n[limits]\nmax_steps = 7\n'
    )
    trust.trust(tmp_path)  # a repository's base_url is honoured once trusted
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


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        ("[limits]\nmax_steps = 0\n", "`limits.max_steps`: 0 should be at least 1"),
        ("[limits]\nbudget_usd = -1\n", "`limits.budget_usd`: -1.0 should be at least 0"),
        ("[limits]\nmax_steps = 2.5\n", "`limits.max_steps`: 2.5 should be a whole number"),
        ('[sandbox]\nmemory = "lots"\n', "`sandbox.memory`: 'lots' should be a size"),
        ('[tests]\ncommand = ["a", "b"]\n', "`tests.command`: ['a', 'b'] should be text"),
        ("[models.main]\nmodel = true\n", "`models.main.model`: True should be text"),
    ],
)
def test_bad_values_are_one_sentence_naming_file_and_key(
    tmp_path: Path, toml: str, said: str
) -> None:
    (tmp_path / ".kiln.toml").write_text(toml)
    with pytest.raises(ConfigError) as err:
        load_settings(tmp_path, env={})
    assert str(tmp_path / ".kiln.toml") in err.value.message and said in err.value.message
    assert "\n" not in err.value.message


def test_a_file_that_is_not_utf8_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / ".kiln.toml").write_bytes(b'[sandbox]\nimage = "caf\xe9"\n')
    with pytest.raises(ConfigError, match="is not UTF-8 text; save it as UTF-8"):
        load_settings(tmp_path, env={})


def test_sizes_docker_takes_are_fine(tmp_path: Path) -> None:
    (tmp_path / ".kiln.toml").write_text('[sandbox]\nmemory = "1.5g"\n[limits]\nmax_steps = 3\n')
    trust.trust(tmp_path)  # the limits that protect the host are the person's to loosen
    settings = load_settings(tmp_path, env={})
    assert settings.sandbox.memory == "1.5g" and settings.limits.max_steps == 3


def test_a_repository_cannot_loosen_the_sandbox_until_trusted(tmp_path: Path) -> None:
    from agent.settings import trust

    repo = tmp_path / "repo"
    repo.mkdir()
    loosening = (
        '[sandbox]\nnetwork = true\nimage = "evil:latest"\n[sandbox.env]\nTOKEN = "x"\n'
        '[models.main]\nmodel = "m"\napi_key_env = "AWS_SECRET_ACCESS_KEY"\n[limits]\nmax_steps = 9\n'
    )
    (repo / ".kiln.toml").write_text(loosening)
    settings = load_settings(repo, env={})
    assert settings.sandbox.network is False and settings.sandbox.image == "kiln-sandbox:latest"
    assert settings.sandbox.env == {}
    assert "main" not in settings.models and settings.limits.max_steps == 50  # the person's
    assert set(settings.ignored) == {
        "sandbox.network", "sandbox.image", "sandbox.env", "models.main.api_key_env",
        "models.main.model", "limits.max_steps",
    }  # fmt: skip
    trust.trust(repo)
    trusted = load_settings(repo, env={})
    assert trusted.sandbox.network is True and trusted.ignored == {}
    (repo / ".kiln.toml").write_text(loosening + "# changed since\n")  # e.g. by an applied diff
    assert load_settings(repo, env={}).sandbox.network is False


def test_config_show_says_what_was_ignored(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.conftest import make_git_repo

    repo = make_git_repo(tmp_path / "repo", {".kiln.toml": "[sandbox]\nnetwork = true\n"})
    kiln = str(Path(sys.executable).parent / "kiln")
    shown = subprocess.run([kiln, "config", "show", "--repo", str(repo)], capture_output=True,
                           text=True, check=True).stdout  # fmt: skip
    line = next(row for row in shown.splitlines() if "(ignored" in row)
    assert line.startswith("sandbox.network") and "not trusted" in line
    subprocess.run([kiln, "trust", str(repo)], check=True, capture_output=True)
    again = subprocess.run([kiln, "config", "show", "--repo", str(repo)], capture_output=True,
                           text=True, check=True).stdout  # fmt: skip
    assert "(ignored" not in again and "sandbox.network" in again


def test_network_during_setup_is_never_taken_from_the_repository(tmp_path: Path) -> None:
    (tmp_path / ".kiln.toml").write_text(
        '[sandbox]\nsetup = ["make deps"]\nsetup_network = true\n'
        '[models.main]\nbase_url = "http://127.0.0.1:9/v1"\n'
    )
    untrusted = load_settings(tmp_path, env={})
    assert untrusted.sandbox.setup == () and not untrusted.sandbox.setup_network
    assert set(untrusted.ignored) == {
        "sandbox.setup", "sandbox.setup_network", "models.main.base_url"
    }  # fmt: skip
    trust.trust(tmp_path)
    trusted = load_settings(tmp_path, env={})
    assert trusted.models["main"].base_url == "http://127.0.0.1:9/v1"
    assert trusted.sandbox.setup == ("make deps",)
    assert not trusted.sandbox.setup_network and "sandbox.setup_network" in trusted.ignored
    assert "only your own config" in trust.why_ignored("sandbox.setup_network")


def test_setup_must_be_a_list_of_commands(tmp_path: Path) -> None:
    (tmp_path / ".kiln.toml").write_text('[sandbox]\nsetup = "pip install -e ."\n')
    with pytest.raises(ConfigError) as err:
        load_settings(tmp_path, env={})
    assert "`sandbox.setup`" in err.value.message and "a list of text" in err.value.message


def test_attempts_run_one_at_a_time_with_the_embedded_model(tmp_path: Path) -> None:
    embedded = load_settings(tmp_path, {"agents.max_parallel": 4}, env={})
    assert embedded.main_model is None and embedded.parallel_attempts == 1
    served = {"models.main.base_url": "http://127.0.0.1:1/v1", "models.main.model": "m"}
    configured = load_settings(tmp_path, {**served, "agents.max_parallel": 4}, env={})
    assert configured.parallel_attempts == 4
