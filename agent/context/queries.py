"""Tree-sitter queries, per language: what counts as a definition and what as a reference.

Definitions capture the name as `@name` and the whole node as `@def.<kind>` (class,
function or method), so a tag knows its end line. References capture the names a file calls,
constructs, imports, inherits or mentions as a type: enough for the file graph, with no
Pygments pass (Aider's backfill for C costs ~9x a parse). `@ref.member` marks a name
reached through an object (`x.append()`): only those may mean a method, so a bare
`list()` never counts as a use of some class's `def list(self)`.
`@scope` marks containers (a Rust `impl`) whose functions are methods but which are not
definitions themselves.
"""

from __future__ import annotations

from sandbox.frozen import frozen


@frozen
class LanguageQueries:
    """One language's tree-sitter grammar and its queries for definitions and references."""

    grammar: str  # the name tree-sitter-language-pack knows it by
    definitions: str
    references: str


_PYTHON = LanguageQueries(
    "python",
    """
    (class_definition name: (identifier) @name) @def.class
    (function_definition name: (identifier) @name) @def.function
    """,
    """
    (call function: [(identifier) @ref (attribute attribute: (identifier) @ref.member)])
    (import_from_statement name: [
        (dotted_name (identifier) @ref)
        (aliased_import name: (dotted_name (identifier) @ref))])
    (class_definition superclasses: (argument_list [
        (identifier) @ref (attribute attribute: (identifier) @ref.member)]))
    (type (identifier) @ref)
    """,
)

_JS_DEFINITIONS = """
    (class_declaration name: (_) @name) @def.class
    (function_declaration name: (identifier) @name) @def.function
    (generator_function_declaration name: (identifier) @name) @def.function
    (method_definition name: (property_identifier) @name) @def.method
    (variable_declarator name: (identifier) @name
        value: [(arrow_function) (function_expression)]) @def.function
"""
_JS_REFERENCES = """
    (call_expression function: [
        (identifier) @ref (member_expression property: (property_identifier) @ref.member)])
    (new_expression constructor: [
        (identifier) @ref (member_expression property: (property_identifier) @ref.member)])
    (import_specifier name: (identifier) @ref)
"""
_JAVASCRIPT = LanguageQueries(
    "javascript", _JS_DEFINITIONS, _JS_REFERENCES + "(class_heritage (identifier) @ref)"
)
_TS_DEFINITIONS = (
    _JS_DEFINITIONS
    + """
    (abstract_class_declaration name: (type_identifier) @name) @def.class
    (interface_declaration name: (type_identifier) @name) @def.class
    (type_alias_declaration name: (type_identifier) @name) @def.class
    (enum_declaration name: (identifier) @name) @def.class
"""
)
_TS_REFERENCES = _JS_REFERENCES + "(type_identifier) @ref (extends_clause value: (identifier) @ref)"
_TYPESCRIPT = LanguageQueries("typescript", _TS_DEFINITIONS, _TS_REFERENCES)
_TSX = LanguageQueries("tsx", _TS_DEFINITIONS, _TS_REFERENCES)

_GO = LanguageQueries(
    "go",
    """
    (function_declaration name: (identifier) @name) @def.function
    (method_declaration name: (field_identifier) @name) @def.method
    (type_spec name: (type_identifier) @name) @def.class
    """,
    """
    (call_expression function: [
        (identifier) @ref (selector_expression field: (field_identifier) @ref.member)])
    (type_identifier) @ref
    """,
)

_RUST = LanguageQueries(
    "rust",
    """
    (struct_item name: (type_identifier) @name) @def.class
    (enum_item name: (type_identifier) @name) @def.class
    (union_item name: (type_identifier) @name) @def.class
    (trait_item name: (type_identifier) @name) @def.class
    (type_item name: (type_identifier) @name) @def.class
    (function_item name: (identifier) @name) @def.function
    (function_signature_item name: (identifier) @name) @def.function
    (macro_definition name: (identifier) @name) @def.function
    (impl_item) @scope
    """,
    """
    (call_expression function: [
        (identifier) @ref
        (field_expression field: (field_identifier) @ref.member)
        (scoped_identifier name: (identifier) @ref.member)])
    (macro_invocation macro: (identifier) @ref)
    (type_identifier) @ref
    """,
)

_JAVA = LanguageQueries(
    "java",
    """
    (class_declaration name: (identifier) @name) @def.class
    (interface_declaration name: (identifier) @name) @def.class
    (enum_declaration name: (identifier) @name) @def.class
    (method_declaration name: (identifier) @name) @def.method
    (constructor_declaration name: (identifier) @name) @def.method
    """,
    """
    (method_invocation name: (identifier) @ref.member)
    (type_identifier) @ref
    """,
)

_C_DEFINITIONS = """
    (function_definition declarator: (function_declarator
        declarator: (identifier) @name)) @def.function
    (function_definition declarator: (pointer_declarator declarator: (function_declarator
        declarator: (identifier) @name))) @def.function
    (declaration declarator: (function_declarator declarator: (identifier) @name)) @def.function
    (struct_specifier name: (type_identifier) @name body: (_)) @def.class
    (union_specifier name: (type_identifier) @name body: (_)) @def.class
    (enum_specifier name: (type_identifier) @name body: (_)) @def.class
    (type_definition declarator: (type_identifier) @name) @def.class
"""
_C = LanguageQueries(
    "c",
    _C_DEFINITIONS,
    """
    (call_expression function: [
        (identifier) @ref (field_expression field: (field_identifier) @ref.member)])
    (type_identifier) @ref
    """,
)
_CPP = LanguageQueries(
    "cpp",
    _C_DEFINITIONS
    + """
    (class_specifier name: (type_identifier) @name body: (_)) @def.class
    (function_definition declarator: (function_declarator
        declarator: (field_identifier) @name)) @def.method
    (function_definition declarator: (function_declarator
        declarator: (qualified_identifier name: (identifier) @name))) @def.method
    (field_declaration declarator: (function_declarator
        declarator: (field_identifier) @name)) @def.method
    """,
    """
    (call_expression function: [
        (identifier) @ref
        (field_expression field: (field_identifier) @ref.member)
        (qualified_identifier name: (identifier) @ref.member)])
    (type_identifier) @ref
    """,
)

BY_SUFFIX: dict[str, LanguageQueries] = {
    ".py": _PYTHON,
    ".pyi": _PYTHON,
    ".js": _JAVASCRIPT,
    ".mjs": _JAVASCRIPT,
    ".cjs": _JAVASCRIPT,
    ".jsx": _JAVASCRIPT,
    ".ts": _TYPESCRIPT,
    ".mts": _TYPESCRIPT,
    ".cts": _TYPESCRIPT,
    ".tsx": _TSX,
    ".go": _GO,
    ".rs": _RUST,
    ".java": _JAVA,
    ".c": _C,
    ".h": _C,
    ".cc": _CPP,
    ".cpp": _CPP,
    ".cxx": _CPP,
    ".hpp": _CPP,
    ".hh": _CPP,
    ".hxx": _CPP,
}
