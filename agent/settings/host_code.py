"""What in a repository reaches the person's machine outside the sandbox, and the one rule
for it: it runs only as the person trusted it, and a change to it is flagged.

A repository names things kiln (or git, at kiln's commit) runs on the host: the MCP
servers of `.mcp.json` and the scripts they start, the git hooks when they live in the
work tree (`core.hooksPath=.husky`), what those hooks read (`.pre-commit-config.yaml`),
and the files that steer kiln itself (`.kiln.toml`, `.claude/`, `.kiln/`, the project
rules read into every prompt, and kiln's own folders when they lie in the work tree, as in
a home directory kept in git: its settings, its sessions, the local model it runs). A model
whose diff is applied can rewrite any of them, so:
- trust of `.mcp.json` covers the files its servers run, by hash (`run_fingerprint`);
- a diff that touches any of them is flagged at approval, even in full-auto (`host_files_in`);
- kiln's own `git commit` runs no hook the change set touches (`hooks_touched`);
- processes kiln starts on the host get an environment without the model keys (`host_env`).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from agent.settings import paths

# Files and folders that steer kiln or the agents people use beside it.
_STEERING = re.compile(
    r"^(\.kiln\.toml|\.mcp\.json|AGENTS\.md|KILN\.md|CLAUDE\.md|\.claude/.*|\.kiln/.*"
    r"|\.codex/.*)$",
    re.I,  # a case-insensitive file system takes CLAUDE.MD for CLAUDE.md
)
# What the usual hook managers read at commit time: changing it changes what runs.
_HOOK_CONFIG = re.compile(
    r"^(\.pre-commit-config\.ya?ml|\.lintstagedrc(\..+)?|lint-staged\.config\.\w+"
    r"|\.husky/.*|\.githooks/.*|lefthook(-local)?\.ya?ml|\.lefthook/.*)$"
)
# The variables model keys are usually kept in, besides the ones the profiles name.
MODEL_KEY_VARS = frozenset(
    {
        "KILN_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "MISTRAL_API_KEY",
        "OPENROUTER_API_KEY",
        "DEEPSEEK_API_KEY",
        "GROQ_API_KEY",
        "TOGETHER_API_KEY",
        "AZURE_OPENAI_API_KEY",
        "HF_TOKEN",
    }
)


def hooks_dir(repo: Path) -> str | None:
    """The git hooks folder relative to the work tree when it lies inside it (husky and
    the like set `core.hooksPath`); None when hooks live in `.git`, which no diff reaches."""
    done = subprocess.run(
        ["git", "config", "--get", "core.hooksPath"], cwd=repo, capture_output=True, text=True
    )
    configured = done.stdout.strip()
    if done.returncode != 0 or not configured:
        return None
    where = Path(os.path.expanduser(configured))
    where = where if where.is_absolute() else repo / where
    try:
        relative = Path(os.path.realpath(where)).relative_to(os.path.realpath(repo))
    except ValueError:
        return None  # outside the repository: a diff cannot reach it
    text = relative.as_posix()
    return "" if text == "." else text


def _mcp_commands(repo: Path) -> list[list[str]]:
    """Each stdio server's command line in the repository's `.mcp.json` (read leniently:
    whatever cannot be read names nothing, and the file itself is trusted by hash)."""
    try:
        data = json.loads((repo / ".mcp.json").read_text(encoding="utf-8"))
        servers = data["mcpServers"]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        return []
    lines = []
    for entry in servers.values() if isinstance(servers, dict) else []:
        if isinstance(entry, dict) and isinstance(entry.get("command"), str):
            args = entry.get("args")
            words = args if isinstance(args, list) else []
            lines.append([entry["command"], *(str(a) for a in words)])
    return lines


def mcp_run_paths(repo: Path) -> list[str]:
    """The repository's files the `.mcp.json` servers run, as relative paths; a folder
    ends in `/`. A script in a folder brings its folder (what it imports sits beside it);
    `-m pkg.mod` brings the package; a path outside the repository is not the diff's."""
    return _run_paths(repo, _mcp_commands(repo))


def hook_run_paths(repo: Path) -> list[str]:
    """The repository's files its own hooks run (`.claude/settings.json`, `.kiln.toml`'s
    `[hooks]`), by the same rule as the MCP servers'; their hash is part of the trust."""
    from agent.hooks.config import commands_leniently, repo_toml_hooks

    lines = []
    for command in commands_leniently(repo, repo_toml_hooks(repo)):
        command = re.sub(r"\$\{?(CLAUDE|KILN)_PROJECT_DIR\}?/?", "./", command)
        try:
            lines.append(shlex.split(command))
        except ValueError:
            lines.append(command.split())
    return _run_paths(repo, lines)


def _run_paths(repo: Path, command_lines: list[list[str]]) -> list[str]:
    found: set[str] = set()
    real_repo = os.path.realpath(repo)
    for words in command_lines:
        for index, word in enumerate(words):
            if index and words[index - 1] == "-m":
                package = word.split(".")[0]
                if (repo / package).is_dir():
                    found.add(package + "/")
                elif (repo / f"{package}.py").is_file():
                    found.add(f"{package}.py")
                continue
            candidate = os.path.realpath(repo / word.split("=", 1)[-1])
            if not candidate.startswith(real_repo + os.sep) or not os.path.exists(candidate):
                continue
            relative = os.path.relpath(candidate, real_repo).replace(os.sep, "/")
            if os.path.isdir(candidate):
                found.add(relative + "/")
                continue
            found.add(relative)
            folder = posixpath.dirname(relative)
            if folder:
                found.add(folder + "/")
    return sorted(found)


def _covered(path: str, prefixes: Iterable[str]) -> bool:
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in prefixes)


def _own_dirs_in(repo: Path) -> list[str]:
    """kiln's own folders that lie inside the work tree, as prefixes ("dir/")."""
    root = repo.resolve()
    inside = []
    for folder in paths.own_dirs():
        try:
            inside.append(folder.resolve().relative_to(root).as_posix() + "/")
        except ValueError:  # outside the repository, as they usually are
            continue
    return inside


def run_fingerprint(repo: Path, runs: list[str] | None = None) -> str:
    """One hash over every file the `.mcp.json` servers run (names and contents)."""
    import hashlib  # here: the settings load this module, and most starts hash nothing

    runs = mcp_run_paths(repo) if runs is None else runs
    digest = hashlib.sha256()
    for entry in runs:
        root = repo / entry
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
        for file in files:
            if "__pycache__" in file.parts or file.suffix == ".pyc":
                continue  # written by running the server, not a change to it
            digest.update(file.relative_to(repo).as_posix().encode() + b"\0")
            try:
                digest.update(hashlib.sha256(file.read_bytes()).digest())
            except OSError:
                digest.update(b"unreadable")
    return digest.hexdigest()


def host_files_in(repo: Path, paths: Iterable[str]) -> list[str]:
    """Which of `paths` run on the person's machine or steer kiln: each is flagged at
    approval, even in full-auto, and drops the trust that covered it."""
    hooks = hooks_dir(repo)
    runs = mcp_run_paths(repo) + hook_run_paths(repo) + _own_dirs_in(repo)
    hook_prefixes = [hooks + "/"] if hooks else []
    return [
        p
        for p in paths
        if _STEERING.match(p)
        or _HOOK_CONFIG.match(p)
        or _covered(p, hook_prefixes)
        or _covered(p, runs)
    ]


def why_host_file(repo: Path, path: str) -> str:
    """A few words on why `path` is flagged, for the approval's sentence."""
    hooks = hooks_dir(repo)
    if (hooks and _covered(path, [hooks + "/"])) or _HOOK_CONFIG.match(path):
        return "git hooks run it on your machine"
    if _covered(path, mcp_run_paths(repo)):
        return "an MCP server runs it on your machine"
    if _covered(path, hook_run_paths(repo)):
        return "a kiln or Claude Code hook runs it on your machine"
    if _covered(path, _own_dirs_in(repo)):
        return "kiln reads it from its own folders (settings, sessions, the local model)"
    return "it steers kiln or your other agents"


# A hook in `.git/hooks` that a framework wrote to run what a repository file lists
# (pre-commit's `hook-impl --config=.pre-commit-config.yaml`, lefthook, husky 4).
_FRAMEWORK_HOOK = re.compile(rb"\.pre-commit-config|hook-impl|lefthook|husky")


def repository_git_hooks(repo: Path) -> str:
    """What makes git's hooks the repository's rather than the person's: a hooks folder in
    the work tree (`core.hooksPath=.husky`), or a hook a framework installed to run what a
    repository file lists. Such a hook runs whatever the repository holds now, the code
    kiln applied included; "" when git's hooks are the person's own (or there are none)."""
    folder = hooks_dir(repo)
    if folder is not None:
        return f"{folder or '.'}/ in the work tree"
    done = subprocess.run(
        ["git", "rev-parse", "--git-path", "hooks"], cwd=repo, capture_output=True, text=True
    )
    hooks = Path(done.stdout.strip())
    hooks = hooks if hooks.is_absolute() else repo / hooks
    found = []
    for hook in sorted(hooks.iterdir()) if done.returncode == 0 and hooks.is_dir() else []:
        if hook.suffix == ".sample" or not hook.is_file() or not os.access(hook, os.X_OK):
            continue
        try:
            text = hook.read_bytes()[:65536]
        except OSError:
            continue
        if _FRAMEWORK_HOOK.search(text):
            found.append(hook.name)
    return f".git/hooks/{', '.join(found)} run what a repository file lists" if found else ""


def hooks_touched(repo: Path, paths: Iterable[str]) -> list[str]:
    """Of the paths a commit takes, the ones git's hooks would run or read."""
    hooks = hooks_dir(repo)
    prefixes = [hooks + "/"] if hooks else []
    return [p for p in paths if _HOOK_CONFIG.match(p) or _covered(p, prefixes)]


def host_env(
    key_vars: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    keep: Iterable[str] = (),
) -> dict[str, str]:
    """The environment for a process kiln starts on the host: the person's, without the
    variables that hold model keys (the well-known ones and `key_vars`, the ones the
    profiles name) unless `keep` names them."""
    environ = os.environ if environ is None else environ
    drop = (MODEL_KEY_VARS | set(key_vars)) - set(keep)
    return {k: v for k, v in environ.items() if k not in drop}
