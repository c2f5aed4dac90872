"""Text for a terminal: nothing a question, a source, a dataset or a model wrote can move
the cursor, retitle the window, or reorder what is shown."""

from __future__ import annotations

import json
import re

from .surrogates import replace_lone

# C0 and C1 controls (ESC starts ANSI/OSC sequences; U+009B is a one-character CSI) and the
# bidi controls that reorder what a terminal shows. Newlines and tabs stay.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_text(text: str) -> str:
    """Text safe to print: no control characters, so nothing a question, a source or a
    model wrote can move the cursor, retitle the terminal or hide what it shows; a lone surrogate,
    which stdout cannot encode, is U+FFFD."""
    return _UNSAFE.sub("", replace_lone(text))


def json_text(value) -> str:
    """One line of JSON, readable (non-ASCII kept) but with every control character escaped, and
    always UTF-8 (a lone surrogate is U+FFFD)."""
    text = replace_lone(json.dumps(value, ensure_ascii=False))
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
