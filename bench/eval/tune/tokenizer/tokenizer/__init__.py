"""A tokenizer for a small expression language (rules files: `price * 1.2 >= limit`)."""

from tokenizer.errors import TokenizeError
from tokenizer.scanner import tokenize
from tokenizer.stream import TokenStream
from tokenizer.tokens import KEYWORDS, Kind, Token

__all__ = ["KEYWORDS", "Kind", "Token", "TokenStream", "TokenizeError", "tokenize"]
