"""`[lsp]`: on or off, kiln's servers changed or disabled, a person's own added."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.lsp.servers import LanguageServers, language_servers
from agent.lsp.specs import language_id, session_servers
from agent.settings.config import load_settings
from sandbox.language_servers import DEFAULTS


def test_the_defaults_serve_python_and_typescript() -> None:
    servers = LanguageServers(object(), session_servers({}))  # type: ignore[arg-type]
    assert servers.server_for("pkg/calc.py").command[0] == "pyright-langserver"  # type: ignore[union-attr]
    assert servers.server_for("web/App.TSX").name == "typescript"  # type: ignore[union-attr]
    assert servers.server_for("main.go") is None and servers.server_for("Makefile") is None
    assert language_id("a.tsx") == "typescriptreact" and language_id("x.mjs") == "javascript"


def test_a_table_changes_a_default_disables_one_and_adds_a_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "kiln").mkdir()
    (tmp_path / "kiln" / "config.toml").write_text(
        '[lsp.python]\ncommand = ["pylsp"]\n'
        "[lsp.typescript]\ndisabled = true\n"
        '[lsp.go]\ncommand = ["gopls", "serve"]\nextensions = ["go", ".GOX"]\n'
    )
    settings = load_settings(None, env={})
    servers = {s.name: s for s in session_servers(settings.lsp_servers)}
    assert servers["python"].command == ("pylsp",)
    assert servers["python"].extensions == DEFAULTS[0].extensions
    assert "typescript" not in servers
    assert servers["go"].command == ("gopls", "serve") and servers["go"].extensions == (
        ".go",
        ".gox",
    )
    assert settings.sources["lsp.go.command"].endswith("config.toml")


def test_a_server_of_ones_own_needs_its_command_and_endings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "kiln").mkdir()
    (tmp_path / "kiln" / "config.toml").write_text('[lsp.zig]\ncommand = ["zls"]\n')
    with pytest.raises(ConfigError, match=r"\[lsp\.zig\] needs `command`.*`extensions`"):
        load_settings(None, env={})


def test_enabled_false_means_no_servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "kiln").mkdir()
    (tmp_path / "kiln" / "config.toml").write_text("[lsp]\nenabled = false\n")
    assert language_servers(load_settings(None, env={}), object()) is None  # type: ignore[arg-type]
    assert (
        language_servers(load_settings(None, {"lsp.enabled": True}, env={}), object()) is not None
    )  # type: ignore[arg-type]
