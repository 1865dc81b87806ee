"""One typed settings model: defaults < repo `.kiln.toml` < XDG `config.toml` < KILN_* env < flags.

Every value remembers where it came from, so `kiln config show` can say so. A bad file
gets one sentence naming the file, the key and what is wrong.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tomllib
from dataclasses import field
from pathlib import Path
from typing import Any

from agent.errors import ConfigError
from agent.hooks.config import Hook
from agent.llm.profile import EFFORT_WORDS, WIRE_APIS, ModelProfile, Prices
from agent.permissions import PermissionRules
from agent.settings import paths, repo_keys, rules_layer, trust
from sandbox.config import SandboxConfig
from sandbox.frozen import frozen


@frozen
class TestsSettings:
    """`[tests]`: which command runs the tests, whether edits run them, and for how long."""

    command: str = field(
        default="",
        metadata={
            "doc": "The test command. Empty: the command the task names, else one kiln "
            "detects (pytest, unittest, npm test, go test, cargo test, make test) whose program "
            "the sandbox has."
        },
    )
    run_after_edits: bool = field(
        default=True, metadata={"doc": "Run the tests after each step that edited files."}
    )
    timeout_s: float = field(
        default=600.0, metadata={"doc": "Seconds one test run may take before it is stopped."}
    )
    max_finish_refusals: int = field(
        default=3,
        metadata={
            "doc": "How many times `finish` while the tests fail is answered with the "
            "test digest instead of ending the run."
        },
    )


@frozen
class Limits:
    """`[limits]`: what a run may spend (steps, calls, tokens, dollars, time) before it stops,
    and how many repeats, fruitless edits or malformed replies end it."""

    max_steps: int = field(default=50, metadata={"doc": "Model turns a run may take."})
    max_tool_calls: int = field(default=200, metadata={"doc": "Tool calls a run may make."})
    max_tokens: int = field(
        default=0,
        metadata={
            "doc": "Tokens a session may use, prompt and output of every request; "
            "0: no token budget."
        },
    )
    budget_usd: float = field(
        default=0.0,
        metadata={
            "doc": "US dollars a session may spend; 0: no dollar budget. A warning at "
            "80%, at 100% the run stops before its next request."
        },
    )
    timeout_s: float = field(
        default=0.0,
        metadata={
            "doc": "Wall-clock seconds a run may take; 0: none (a small model's run gets 180)."
        },
    )
    repeat_limit: int = field(
        default=4, metadata={"doc": "The same call this many times in a row stops the run."}
    )
    no_progress_edits: int = field(
        default=4,
        metadata={
            "doc": "Edits in a row that leave the test result as it was (or fail to "
            "apply) stop the run (`no_progress`)."
        },
    )
    format_error_limit: int = field(
        default=3,
        metadata={
            "doc": "Unusable tool calls in a row (unknown tool, bad JSON, a missing "
            "argument) before the run stops."
        },
    )


@frozen
class ContextSettings:
    """`[context]`: the repo map's size in the prompt and when the conversation is compacted."""

    map_tokens: int = field(
        default=1500,
        metadata={"doc": "Tokens of the repo map in the stable prompt prefix; 0: none."},
    )
    compact_at: float = field(
        default=0.8,
        metadata={
            "doc": "The share of the context window (less the reply's) at which the "
            "conversation is compacted."
        },
    )


@frozen
class McpServer:
    """`[mcp_servers.NAME]` (Codex's form) or an entry of a trusted repository's `.mcp.json`
    (Claude Code's): a stdio server (`command`) or a streamable HTTP one (`url`)."""

    command: str = field(default="", metadata={"doc": "The program of a stdio server."})
    args: tuple[str, ...] = field(default=(), metadata={"doc": "Its arguments."})
    env: dict[str, str] = field(
        default_factory=dict, metadata={"doc": "Variables set for a stdio server."}
    )
    url: str = field(
        default="",
        metadata={"doc": "The URL of a streamable HTTP server (instead of `command`)."},
    )
    headers: dict[str, str] = field(
        default_factory=dict, metadata={"doc": "HTTP headers sent to `url`."}
    )
    bearer_token_env_var: str = field(
        default="", metadata={"doc": "The variable holding the bearer token sent to `url`."}
    )
    allow: tuple[str, ...] = field(
        default=(),
        metadata={"doc": "Tools that run without asking in ask and auto-edit modes."},
    )
    env_vars: tuple[str, ...] = field(
        default=(),
        metadata={
            "doc": "Variables of your environment passed on although they hold a "
            "model key (a stdio server gets the environment without them otherwise)."
        },
    )
    enabled: bool = field(default=True, metadata={"doc": "false: the server is not started."})
    startup_timeout_sec: float = field(
        default=20.0, metadata={"doc": "Seconds the server has to start."}
    )
    tool_timeout_sec: float = field(
        default=60.0, metadata={"doc": "Seconds one tool call may take."}
    )


@frozen
class McpSettings:
    """`[mcp]`: what holds for all MCP servers together (each server's own is McpServer)."""

    # Every tool's schema is in every request, and a long list crowds out the coding tools.
    max_tools: int = field(
        default=40,
        metadata={"doc": "MCP tools offered to the model; the rest are left out, with a warning."},
    )


@frozen
class LspSettings:
    """`[lsp]`: language servers in the sandbox, which tell the model what its edit broke
    (each server's own table is `[lsp.NAME]`, LspServer)."""

    enabled: bool = field(
        default=True,
        metadata={
            "doc": "Start language servers in the sandbox and tell the model the errors and "
            "warnings each edit introduced (pyright for Python, typescript-language-server "
            "for TypeScript and JavaScript, both in the image `kiln sandbox bootstrap` builds)."
        },
    )
    timeout_s: float = field(
        default=2.0,
        metadata={
            "doc": "Seconds a server may take to answer after an edit; a slower one costs a "
            "notice and the edit goes on without its diagnostics."
        },
    )


@frozen
class LspServer:
    """`[lsp.NAME]`: a language server kiln starts in the sandbox for files ending in
    `extensions` (OpenCode's form), or a change to one of kiln's (`python`, `typescript`)."""

    command: tuple[str, ...] = field(
        default=(),
        metadata={
            "doc": 'The server and its arguments, e.g. ["gopls"]; it must speak LSP on stdio.'
        },
    )
    extensions: tuple[str, ...] = field(
        default=(), metadata={"doc": 'The file endings it serves, e.g. [".go"].'}
    )
    disabled: bool = field(
        default=False, metadata={"doc": "Start no server by this name (one of kiln's too)."}
    )


@frozen
class GitSettings:
    """`[git]`: whether kiln commits the changes it applies, and on which branch."""

    commit: bool = field(
        default=False,
        metadata={
            "doc": "Commit each change set kiln applies (as `kiln run --commit` and `/commit` do)."
        },
    )
    branch: str = field(
        default="",
        metadata={
            "doc": "The branch kiln commits on: empty, the current one; else a name "
            "where `{session}` is the session id, e.g. `kiln/{session}`."
        },
    )


@frozen
class AgentsSettings:
    """`[agents]`: child agents (the `agent` tool) and parallel attempts (`--attempts`)."""

    # The embedded model's server answers one request at a time on two cores: 1 there.
    max_parallel: int = field(
        default=3,
        metadata={
            "doc": "Children, or attempts, running at once, each in a sandbox of its "
            "own (1 with the embedded model, whatever is set)."
        },
    )


@frozen
class UiSettings:
    """`[ui]`: the colour theme and the approval mode a session starts in."""

    theme: str = field(
        default="kiln-dark",
        metadata={
            "doc": "The TUI's theme: kiln-dark, kiln-light, kiln-high-contrast or one of your own."
        },
    )
    mode: str = field(
        default="ask",
        metadata={
            "doc": "The approval mode a session starts in: plan, ask, auto-edit or full-auto."
        },
    )


@frozen
class Settings:
    """Every setting in effect, by section, with where each value came from and what a
    repository's untrusted file set that kiln ignored."""

    models: dict[str, ModelProfile] = field(default_factory=dict)
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    tests: TestsSettings = field(default_factory=TestsSettings)
    limits: Limits = field(default_factory=Limits)
    context: ContextSettings = field(default_factory=ContextSettings)
    ui: UiSettings = field(default_factory=UiSettings)
    git: GitSettings = field(default_factory=GitSettings)
    agents: AgentsSettings = field(default_factory=AgentsSettings)
    mcp: McpSettings = field(default_factory=McpSettings)
    mcp_servers: dict[str, McpServer] = field(default_factory=dict)
    lsp: LspSettings = field(default_factory=LspSettings)
    lsp_servers: dict[str, LspServer] = field(default_factory=dict)  # [lsp.NAME]
    # [permissions] allow/ask/deny of the person's config and a trusted repository's file
    permissions: PermissionRules = field(default_factory=PermissionRules)
    # [hooks] of the person's config and a trusted repository's file (agent/hooks/)
    hooks: tuple[Hook, ...] = ()
    # dotted key -> where its value came from ("default", a file path, "env KILN_X", "flag")
    sources: dict[str, str] = field(default_factory=dict, compare=False)
    # dotted key -> the value a repository's untrusted file set, which kiln ignored
    ignored: dict[str, Any] = field(default_factory=dict, compare=False)
    # the flags' layer, so the same settings can be loaded again (after `kiln trust`)
    flags: dict[str, Any] = field(default_factory=dict, compare=False)
    # the repository was trusted, but kiln applied a change since: what its file runs on
    # the host is among `ignored` until `kiln trust` again (`trust.suspend`)
    trust_suspended: bool = field(default=False, compare=False)

    @property
    def main_model(self) -> ModelProfile | None:
        return self.models.get("main")

    @property
    def parallel_attempts(self) -> int:
        """Attempts running at once: `[agents] max_parallel`, but 1 with the embedded model
        (no main model configured), whose server answers one request at a time."""
        return 1 if self.main_model is None else self.agents.max_parallel

    @property
    def model_key_vars(self) -> frozenset[str]:
        """The variables the profiles name for their keys: kept from host processes."""
        return frozenset(p.api_key_env for p in self.models.values() if p.api_key_env)


# Environment variables and the dotted keys they set.
ENV_KEYS = {
    "KILN_BASE_URL": "models.main.base_url",
    "KILN_MODEL": "models.main.model",
    "KILN_PROVIDER": "models.main.provider",
    "KILN_EFFORT": "models.main.effort",
    "KILN_API_KEY_ENV": "models.main.api_key_env",
    "KILN_SANDBOX": "sandbox.backend",
    "KILN_IMAGE": "sandbox.image",
    "KILN_TEST_COMMAND": "tests.command",
    "KILN_MAX_STEPS": "limits.max_steps",
    "KILN_BUDGET_USD": "limits.budget_usd",
    "KILN_THEME": "ui.theme",
}

_SECTIONS: dict[str, type] = {
    "sandbox": SandboxConfig,
    "tests": TestsSettings,
    "limits": Limits,
    "context": ContextSettings,
    "ui": UiSettings,
    "git": GitSettings,
    "agents": AgentsSettings,
    "mcp": McpSettings,
    "lsp": LspSettings,
}
# Tables whose keys are the person's own (variables, headers): kept whole, not flattened.
_TABLE_VALUES = re.compile(r"^(sandbox\.env|mcp_servers\.[^.]+\.(env|headers))$")


def load_settings(
    repo: Path | None = None,
    overrides: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
) -> Settings:
    """Merge every layer. `overrides` are dotted keys from flags, e.g. {"models.main.model": "x"}."""
    env = dict(os.environ) if env is None else env
    raw: dict[str, Any] = {}
    sources: dict[str, str] = {}
    layers: list[tuple[str, dict[str, Any]]] = []
    ignored: dict[str, Any] = {}
    suspended = False
    if repo is not None and (repo / ".kiln.toml").is_file():
        repo_layer = rules_layer.gathered(_flatten(_read_toml(repo / ".kiln.toml")))
        trusted = trust.is_trusted(repo)
        ignored = {k: v for k, v in repo_layer.items() if not repo_keys.honoured(k, trusted)}
        if "hooks" in repo_layer and not trust.hooks_trusted(repo):  # what they run changed
            ignored["hooks"] = repo_layer["hooks"]
        suspended = trusted and trust.suspended(repo)
        if suspended:  # an apply since the trust: what runs on the host waits for it again
            ignored.update({k: v for k, v in repo_layer.items() if trust.host_side_key(k)})
        repo_layer = {k: v for k, v in repo_layer.items() if k not in ignored}
        layers.append((str(repo / ".kiln.toml"), repo_layer))
    user_file = paths.user_config_file()
    if user_file.is_file():
        layers.append((str(user_file), _flatten(_read_toml(user_file))))
    env_layer = {key: env[var] for var, key in ENV_KEYS.items() if env.get(var)}
    for source, data in layers:
        _merge(raw, data, sources, source)
    for var, key in ENV_KEYS.items():
        if key in env_layer:
            _merge(raw, {key: env_layer[key]}, sources, f"env {var}")
    _merge(raw, dict(overrides or {}), sources, "flag")
    if ignored:  # ignored, but still a mistake worth one sentence if it is one
        rules_layer.rules_of([(layers[0][0], ignored)])
        rules_layer.hooks_in([(layers[0][0], ignored)])
        _build(rules_layer.without(ignored), {key: layers[0][0] for key in ignored})
    rules = rules_layer.rules_of(layers)
    claude = [(paths.claude_settings(Path.home()), True)]
    if repo is not None:
        claude.append((paths.claude_settings(repo), trust.is_trusted(repo, trust.CLAUDE_FILE)))
    from_claude = [r for file, ok in claude if ok for r in rules_layer.claude_rules(file)[0]]
    rules = dataclasses.replace(rules, rules=(*rules.rules, *from_claude))
    hooks = rules_layer.hooks_in(layers)
    built = _build(rules_layer.without(raw), sources)
    return dataclasses.replace(
        built, ignored=ignored, flags=dict(overrides or {}), permissions=rules, hooks=hooks,
        trust_suspended=suspended,
    )  # fmt: skip


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); fix or remove it.") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text; save it as UTF-8.") from None
    except OSError as exc:
        raise ConfigError(
            f"{path} cannot be read ({exc.strerror}); check its permissions."
        ) from None


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        # [models.main] and [models.main.prices] are tables of fields; keep going down.
        if isinstance(value, dict) and not _TABLE_VALUES.match(dotted):
            flat.update(_flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def _merge(
    raw: dict[str, Any], layer: dict[str, Any], sources: dict[str, str], source: str
) -> None:
    for key, value in layer.items():
        raw[key] = value
        sources[key] = source


def _build(raw: dict[str, Any], sources: dict[str, str]) -> Settings:
    sections: dict[str, dict[str, Any]] = {name: {} for name in _SECTIONS}
    models: dict[str, dict[str, Any]] = {}
    servers: dict[str, dict[str, Any]] = {}
    lsp_tables: dict[str, dict[str, Any]] = {}
    for key, value in raw.items():
        head, _, rest = key.partition(".")
        if head == "lsp" and "." in rest:  # [lsp.NAME]: one server's table
            name, _, field_name = rest.partition(".")
            lsp_tables.setdefault(name, {})[field_name] = value
        elif head == "mcp_servers":
            name, _, field_name = rest.partition(".")
            if not name or not field_name:
                raise _bad_key(key, sources, "a server needs a name, as in [mcp_servers.docs]")
            servers.setdefault(name, {})[field_name] = value
        elif head == "models":
            name, _, field_name = rest.partition(".")
            if not name or not field_name:
                raise _bad_key(key, sources, "a model needs a name, as in [models.main]")
            models.setdefault(name, {})[field_name] = value
        elif head in _SECTIONS and rest:
            sections[head][rest] = value
        else:
            raise _bad_key(
                key, sources, "kiln has no such setting; `kiln config show` lists those it has"
            )
    built = {name: _coerce(cls, sections[name], name, sources) for name, cls in _SECTIONS.items()}
    profiles = {name: _profile(name, values, sources) for name, values in models.items()}
    mcp = {name: mcp_server(name, values, sources) for name, values in servers.items()}
    lsp = {name: lsp_server(name, values, sources) for name, values in lsp_tables.items()}
    return Settings(models=profiles, mcp_servers=mcp, lsp_servers=lsp, sources=sources, **built)


def lsp_server(name: str, values: dict[str, Any], sources: dict[str, str]) -> LspServer:
    """One `[lsp.NAME]` table, checked: a server of kiln's own may change any part, another
    needs its command and the endings it serves."""
    section = f"lsp.{name}"
    server: LspServer = _coerce(LspServer, values, section, sources)
    from sandbox.language_servers import DEFAULTS  # only where a table names a server

    ours = name in {default.name for default in DEFAULTS}
    if not ours and not server.disabled and not (server.command and server.extensions):
        where = next((v for k, v in sources.items() if k.startswith(section + ".")), "settings")
        raise ConfigError(
            f"{where}: [{section}] needs `command` (the server and its arguments) and "
            '`extensions` (the endings it serves, e.g. [".go"]).'
        )
    return server


def mcp_server(name: str, values: dict[str, Any], sources: dict[str, str]) -> McpServer:
    """One MCP server's table, checked: exactly one of `command` and `url`."""
    section = f"mcp_servers.{name}"
    where = next((v for k, v in sources.items() if k.startswith(section + ".")), "settings")
    if "__" in name or not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ConfigError(
            f"{where}: [{section}]: the name should be letters, digits, - and single _ "
            f"(tools are offered as mcp__{name}__TOOL); rename it."
        )
    server: McpServer = _coerce(McpServer, values, section, sources)
    problem = ""
    if bool(server.command) == bool(server.url):
        problem = "needs either `command` (a stdio server) or `url` (streamable HTTP), not both"
    elif server.url and not re.match(r"^https?://", server.url):
        problem = f"`url` {server.url!r} should be an http:// or https:// URL"
    elif min(server.startup_timeout_sec, server.tool_timeout_sec) <= 0:
        problem = "timeouts should be more than 0 seconds"
    if problem:
        raise ConfigError(f"{where}: [{section}] {problem}.")
    return server


def _profile(name: str, values: dict[str, Any], sources: dict[str, str]) -> ModelProfile:
    price_values = {
        k.removeprefix("prices."): v for k, v in values.items() if k.startswith("prices.")
    }
    plain = {k: v for k, v in values.items() if not k.startswith("prices.")}
    prices = _coerce(Prices, price_values, f"models.{name}.prices", sources)
    profile = _coerce(ModelProfile, plain, f"models.{name}", sources)
    for key, value, allowed in (
        ("effort", profile.effort, ("", *EFFORT_WORDS)),
        ("wire_api", profile.wire_api, WIRE_APIS),
    ):
        if value.lower() not in allowed:
            words = ", ".join(a for a in allowed if a)
            raise _bad_key(f"models.{name}.{key}", sources, f"it takes one of {words}")
    if profile.thinking_budget and profile.thinking_budget < 1024:  # the API's least (C1)
        raise _bad_key(
            f"models.{name}.thinking_budget", sources, "it takes 0 (from effort) or 1024 and more"
        )
    known = _known_limits(profile.model, plain)
    for key in known:  # `kiln config show` says where they came from
        sources.setdefault(f"models.{name}.{key}", MODEL_DATA)
    return dataclasses.replace(profile, prices=prices, **known)


# The source of a value kiln filled in from what it knows of the model (`llm/models.toml`).
MODEL_DATA = "kiln's model data"


def _known_limits(model: str, given: dict[str, Any]) -> dict[str, int]:
    """The window and reply limit kiln knows for a hosted model (`llm/models.toml`), for
    those the person did not set: Claude's 200k, not the 32k default."""
    if not model or ("context_window" in given and "max_output_tokens" in given):
        return {}
    from agent.llm.facts import limits_for  # read only when a model is named

    window, reply = limits_for(model)
    known = {"context_window": window, "max_output_tokens": reply}
    return {k: v for k, v in known.items() if v and k not in given}


def _coerce(cls: type, values: dict[str, Any], section: str, sources: dict[str, str]) -> Any:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        dotted = f"{section}.{key}"
        if key not in fields:
            raise _bad_key(
                dotted, sources, "kiln has no such setting; `kiln config show` lists those it has"
            )
        default = getattr(cls(), key)
        kwargs[key] = _convert(value, default, dotted, sources)
        _check_range(kwargs[key], dotted, sources)
    return cls(**kwargs)


# Values that must be at least this much (0 where 0 means "none": no budget, no limit).
_AT_LEAST = {
    "limits.max_steps": 1,
    "limits.max_tool_calls": 1,
    "limits.max_tokens": 0,
    "limits.budget_usd": 0,
    "limits.timeout_s": 0,
    "limits.repeat_limit": 0,
    "limits.no_progress_edits": 0,
    "limits.format_error_limit": 1,
    "context.compact_at": 0.1,
    "context.map_tokens": 0,
    "tests.timeout_s": 1,
    "tests.max_finish_refusals": 0,
    "mcp.max_tools": 0,
    "agents.max_parallel": 1,
    "sandbox.cpus": 0.01,
    "sandbox.pids_limit": 1,
    "sandbox.output_cap_bytes": 1,
    "sandbox.default_timeout_s": 1,
    "sandbox.setup_timeout_s": 1,
}
_SIZE = re.compile(r"^\d+(\.\d+)?[kmg]?$", re.I)  # what Docker takes: 512m, 2g, 1.5g


def _check_range(value: Any, dotted: str, sources: dict[str, str]) -> None:
    least = _AT_LEAST.get(dotted)
    if least is not None and value < least:
        meaning = " (0 means none)" if least == 0 else ""
        raise _bad_key(dotted, sources, f"{value!r} should be at least {least}{meaning}")
    if dotted in ("sandbox.memory", "sandbox.disk_limit") and (
        not _SIZE.match(str(value)) or not float(re.sub(r"[kmg]$", "", str(value), flags=re.I))
    ):
        raise _bad_key(dotted, sources, f"{value!r} should be a size such as 512m or 2g")


_KIND_NAMES = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    dict: "a table",
    tuple: "a list of text",
}


def _convert(value: Any, default: Any, dotted: str, sources: dict[str, str]) -> Any:
    try:
        if isinstance(default, bool):
            if isinstance(value, str):
                if value.lower() in ("1", "true", "yes", "on"):
                    return True
                if value.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError(value)
            return bool(value)
        if isinstance(default, int) and not isinstance(value, bool | list | dict):
            number = float(value)
            if number != int(number):
                raise ValueError(value)  # 2.5 steps is not silently 2
            return int(number)
        if isinstance(default, float) and not isinstance(value, bool | list | dict):
            number = float(value)
            if not math.isfinite(number):  # nan passes every `<` check: a budget never trips
                raise _bad_key(dotted, sources, f"{value!r} should be a finite number")
            return number
        if isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError(value)
            return tuple(value)
        if isinstance(default, dict):
            if not isinstance(value, dict):
                raise ValueError(value)
            return {str(k): str(v) for k, v in value.items()}
        if isinstance(default, Path) or dotted.endswith("state_dir"):
            return Path(value) if value else None
        text_like = isinstance(value, str | int | float) and not isinstance(value, bool)
        if (default is None or isinstance(default, str)) and text_like:
            return str(value)  # a list or a table where text belongs is a mistake, not text
    except (TypeError, ValueError, OverflowError):  # int(inf) overflows
        pass
    kind = _KIND_NAMES.get(type(default), "text")
    raise _bad_key(dotted, sources, f"{value!r} should be {kind}")


def _bad_key(key: str, sources: dict[str, str], what: str) -> ConfigError:
    where = sources.get(key, "settings")
    return ConfigError(f"{where}: `{key}`: {what} (docs/configuration.md).")


def describe(settings: Settings) -> list[tuple[str, Any, str]]:
    """(dotted key, value, source) for every effective setting, for `kiln config show`."""
    rows: list[tuple[str, Any, str]] = []
    for name in _SECTIONS:
        for f in dataclasses.fields(getattr(settings, name)):
            key = f"{name}.{f.name}"
            rows.append(
                (
                    key,
                    getattr(getattr(settings, name), f.name),
                    settings.sources.get(key, "default"),
                )
            )
    for model_name, profile in settings.models.items():
        for f in dataclasses.fields(profile):
            key = f"models.{model_name}.{f.name}"
            value = getattr(profile, f.name)
            if isinstance(value, Prices):
                for pf in dataclasses.fields(value):
                    pkey = f"{key}.{pf.name}"
                    rows.append(
                        (pkey, getattr(value, pf.name), settings.sources.get(pkey, "default"))
                    )
                continue
            rows.append((key, value, settings.sources.get(key, "default")))
    for server_name, lsp in settings.lsp_servers.items():
        for f in dataclasses.fields(lsp):
            key = f"lsp.{server_name}.{f.name}"
            rows.append((key, getattr(lsp, f.name), settings.sources.get(key, "default")))
    for server_name, server in settings.mcp_servers.items():
        for f in dataclasses.fields(server):
            key = f"mcp_servers.{server_name}.{f.name}"
            rows.append((key, getattr(server, f.name), settings.sources.get(key, "default")))
    return rows
