"""Lone UTF-16 surrogates replaced by U+FFFD wherever text enters, so every string encodes as UTF-8.

A JSON escape such as `"\\ud800"`, bytes a terminal could not decode (Python's surrogateescape
turns 0xFF into U+DCFF) or a split emoji give a Python string a code point that no UTF-8 file,
Redis value, terminal or browser takes: one of them in a title made a whole run unsaveable.
Evidence, questions, uploads, packs, outline edits and model replies pass through here as they
come in; the stores and the terminal call it once more as a last defence.
"""

from __future__ import annotations

import json
import re
from typing import Any

_LONE = re.compile("[\ud800-\udfff]")
# A JSON escape of a surrogate (half of a pair, or a lone one): its text may load into one.
_ESCAPED = re.compile(r"\\u[dD][89a-fA-F]")


def has_lone(text: str) -> bool:
    """Whether `text` holds a surrogate code point (a string that will not encode as UTF-8)."""
    return _LONE.search(text) is not None


def replace_lone(text: str) -> str:
    """`text` with each unpaired surrogate replaced by U+FFFD (a high one followed by a low one,
    two halves of one character, becomes that character)."""
    if _LONE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def loads(text: str | bytes, **options: Any) -> Any:
    """`json.loads(text, **options)`, every string (and key) of the value with its lone surrogates
    replaced by U+FFFD. Raises what `json.loads` raises."""
    if isinstance(text, (bytes, bytearray)):
        # As json.loads decodes bytes: surrogatepass lets raw (CESU-8) surrogates through.
        text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")
    value = json.loads(text, **options)
    if _LONE.search(text) is None and _ESCAPED.search(text) is None:
        return value
    # Surrogates come out of dumps unescaped, and never in JSON's syntax, only inside strings.
    return json.loads(replace_lone(json.dumps(value, ensure_ascii=False)), **options)
