"""One tree-sitter grammar by the name tree-sitter-language-pack knows it by, loaded alone.

The pack's own `__init__` loads three grammars whatever is asked (C#, YAML and ERB, one of
them 5 MB of shared library) and ctypes: 12-17 ms, measured, before the first file of a
Python repository is parsed. Most grammars are a module of the pack's `bindings` folder,
loaded here by its file without that `__init__`; the rest, or anything unexpected, go
through the pack itself.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
from typing import Any

from tree_sitter import Language, Parser

_PACK = "tree_sitter_language_pack"


@functools.cache
def language(name: str) -> Language:
    """The grammar `name`; raises LookupError (or an import error) when there is none."""
    binding = _binding_alone(name)
    if binding is not None:
        return Language(binding.language())
    from tree_sitter_language_pack import get_language

    return get_language(name)  # type: ignore[arg-type]


def parser(name: str) -> Parser:
    return Parser(language(name))


def _binding_alone(name: str) -> Any:
    """The pack's `bindings/<name>` module, loaded without the pack; None when it is not
    there as one (the pack then knows where that grammar lives)."""
    pack = importlib.util.find_spec(_PACK)
    if pack is None or not pack.submodule_search_locations:
        return None
    folders = [f"{folder}/bindings" for folder in pack.submodule_search_locations]
    spec = importlib.machinery.PathFinder.find_spec(f"{_PACK}.bindings.{name}", folders)
    if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
