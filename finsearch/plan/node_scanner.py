"""Find a streamed plan's node objects as each one closes, before the plan is complete.

A plan is `{"nodes": [{…}, {…}, …]}` (or, from a sloppy model, a bare `[{…}, …]`). Fed the
reply piece by piece, `NodeScanner` tracks brackets and strings and hands back each object
that sits directly in that array the moment its closing brace arrives, with where it ended.
Reasoning blocks are filtered out first (`ReasoningFilter`); code fences and chatter outside
the brackets are ignored. Objects are read with the same lenient parser as a whole plan
(`parse_json_object`); what they say is validated by the caller.
"""

from __future__ import annotations

import dataclasses

from ..errors import LLMError
from ..model.text import ReasoningFilter, parse_json_object

# The bracket stacks at which an opening brace starts a node: inside {"nodes": [ … ]}, or [ … ].
_NODE_DEPTHS = (("{", "["), ("[",))


@dataclasses.dataclass(frozen=True)
class ScannedNode:
    item: dict | None          # the object, or None when it could not be read as JSON
    text: str                  # its text as written
    end: int                   # offset just after its closing brace, in the visible reply


class NodeScanner:
    def __init__(self):
        self._filter = ReasoningFilter()
        self.visible = ""                # the reply so far, reasoning removed
        self._stack: list[str] = []
        self._in_string = False
        self._escape = False
        self._start: int | None = None   # where the node being read began
        self._pos = 0                    # how far `visible` has been scanned

    def feed(self, piece: str) -> list[ScannedNode]:
        """The node objects that closed within `piece`."""
        shown = self._filter.feed(piece)
        if self._filter.restart:         # a lone </think>: everything before it was reasoning
            self.visible, self._stack, self._in_string, self._escape = "", [], False, False
            self._start, self._pos = None, 0
        self.visible += shown
        return self._scan()

    def finish(self) -> list[ScannedNode]:
        self.visible += self._filter.flush()
        return self._scan()

    def _scan(self) -> list[ScannedNode]:
        found: list[ScannedNode] = []
        text = self.visible
        for i in range(self._pos, len(text)):
            ch = text[i]
            if self._in_string:
                if self._escape:
                    self._escape = False
                elif ch == "\\":
                    self._escape = True
                elif ch == '"':
                    self._in_string = False
                continue
            if not self._stack and ch not in "{[":
                continue                 # chatter, fences: outside the JSON
            if ch == '"':
                self._in_string = True
            elif ch in "{[":
                if ch == "{" and tuple(self._stack) in _NODE_DEPTHS:
                    self._start = i
                self._stack.append(ch)
            elif ch in "}]":
                if self._stack:
                    self._stack.pop()
                if ch == "}" and self._start is not None and tuple(self._stack) in _NODE_DEPTHS:
                    found.append(_read(text[self._start:i + 1], i + 1))
                    self._start = None
        self._pos = len(text)
        return found


def _read(text: str, end: int) -> ScannedNode:
    try:
        return ScannedNode(parse_json_object(text), text, end)
    except LLMError:
        return ScannedNode(None, text, end)


def node_ends(text: str) -> list[ScannedNode]:
    """Every node object in a whole reply, with where each ended (for the benchmark's schedule)."""
    scanner = NodeScanner()
    return scanner.feed(text) + scanner.finish()
