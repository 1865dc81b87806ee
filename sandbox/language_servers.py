"""The language servers kiln's bootstrap puts in the sandbox image, and how each starts.

They come from the npm registry, pinned, at image build time (sandbox/images.py): a
session's sandbox has no network, so nothing is downloaded then. The image's node runs
them. Go's and Rust's servers are not in the image (its Debian has neither gopls nor
rust-analyzer as a package), so no default names them; `[lsp.NAME]` adds any server.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from sandbox.frozen import frozen


@frozen
class LanguageServer:
    """A server kiln can start for the files whose names end in one of `extensions`."""

    name: str
    command: tuple[str, ...]
    extensions: tuple[str, ...]
    packages: tuple[str, ...] = ()  # what the bootstrap installs with npm, pinned
    # its `initializationOptions`; left out of the hash, which a dict cannot take
    options: dict[str, Any] = field(default_factory=dict, hash=False)


# typescript-language-server 4.4 is the last for node 18 (Debian bookworm's); it runs the
# project's own TypeScript from its node_modules when it has one, else this one. One
# tsserver, not a second for syntax alone, and no typings installer (it would ask npm, and
# the sandbox has no network): 250 MB less of the sandbox's memory.
DEFAULTS = (
    LanguageServer(
        "python", ("pyright-langserver", "--stdio"), (".py", ".pyi"), ("pyright@1.1.414",)
    ),
    LanguageServer(
        "typescript",
        ("typescript-language-server", "--stdio"),
        (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"),
        ("typescript@5.9.3", "typescript-language-server@4.4.1"),
        {"disableAutomaticTypingAcquisition": True, "tsserver": {"useSyntaxServer": "never"}},
    ),
)
NPM_PACKAGES = tuple(package for server in DEFAULTS for package in server.packages)
