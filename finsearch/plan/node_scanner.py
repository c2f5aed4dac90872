"""Find a streamed plan's nodes as each one is written, before the plan is complete.

A plan comes as compact lines (`compact`: a node is complete when its line's newline arrives) or,
from a model that writes JSON anyway, as `{"nodes": [{…}, {…}, …]}` (or a bare `[{…}, …]`: a node
is complete when its object's closing brace arrives). Fed the reply piece by piece, `NodeScanner`
reads it both ways until the first node found says which it is, then only that way, and hands
back each node with where it ended, as the JSON plan's node object. Reasoning blocks are filtered
out first (`ReasoningFilter`); code fences and chatter around the plan are ignored. Objects are
read with the same lenient parser as a whole JSON plan (`parse_json_object`), lines by
`compact.read_line`; what either says is validated by the caller.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from ..errors import LLMError, PlanError
from ..model.text import ReasoningFilter, parse_json_object
from . import compact

# The bracket stacks at which an opening brace starts a node: inside {"nodes": [ … ]}, or [ … ].
_NODE_DEPTHS = (("{", "["), ("[",))
PlanForm = Literal["lines", "json"]


@dataclasses.dataclass(frozen=True)
class ScannedNode:
    item: dict | None          # the node object, or None when it could not be read
    text: str                  # its text as written
    end: int                   # offset just after it, in the visible reply
    problem: str | None = None     # why it could not be read


class NodeScanner:
    def __init__(self):
        self._filter = ReasoningFilter()
        self._reset()

    def _reset(self) -> None:
        self.form: PlanForm | None = None    # once the first node is found
        self.visible = ""                # the reply so far, reasoning removed
        self._stack: list[str] = []
        self._in_string = False
        self._escape = False
        self._start: int | None = None   # where the node object being read began
        self._pos = 0                    # how far `visible` has been scanned for JSON
        self._line = 0                   # where the line being written began
        self._lines = 0                  # node lines read
        self._bracket = False            # a JSON bracket was written

    @property
    def begun(self) -> bool:
        """Whether the reply has begun a plan: a node line (even half written) or a JSON bracket."""
        return self.form is not None or self._bracket or compact.is_node_line(self.visible[self._line:])

    def feed(self, piece: str) -> list[ScannedNode]:
        """The nodes completed within `piece`."""
        shown = self._filter.feed(piece)
        if self._filter.restart:         # a lone </think>: everything before it was reasoning
            self._reset()
        self.visible += shown
        return self._scan()

    def finish(self) -> list[ScannedNode]:
        """The nodes completed by the reply's end (its last line needs no newline)."""
        self.visible += self._filter.flush()
        found = self._scan()
        if self.form != "json" and self._line < len(self.visible):
            last = self._read_lines(self.visible + "\n")
            if last and self.form is None:
                self.form = "lines"
            found += last
        return found

    def _scan(self) -> list[ScannedNode]:
        objects = self._scan_json() if self.form != "lines" else []
        lines = self._read_lines(self.visible) if self.form != "json" else []
        if self.form is None and (objects or lines):
            # (both in one piece: the one that ended first says what the reply is)
            self.form = "json" if objects and (not lines or objects[0].end < lines[0].end) else "lines"
        return objects if self.form == "json" else lines

    def _read_lines(self, text: str) -> list[ScannedNode]:
        found: list[ScannedNode] = []
        while (end := text.find("\n", self._line)) >= 0:
            line = text[self._line:end]
            self._line = end + 1
            if compact.is_node_line(line):
                self._lines += 1
                found.append(_line(line, self._lines, min(end, len(self.visible))))
        return found

    def _scan_json(self) -> list[ScannedNode]:
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
                self._bracket = True
                if ch == "{" and tuple(self._stack) in _NODE_DEPTHS:
                    self._start = i
                self._stack.append(ch)
            elif ch in "}]":
                if self._stack:
                    self._stack.pop()
                if ch == "}" and self._start is not None and tuple(self._stack) in _NODE_DEPTHS:
                    found.append(_object(text[self._start:i + 1], i + 1))
                    self._start = None
        self._pos = len(text)
        return found


def _object(text: str, end: int) -> ScannedNode:
    try:
        return ScannedNode(parse_json_object(text), text, end)
    except LLMError:
        return ScannedNode(None, text, end, "not valid JSON")


def _line(text: str, position: int, end: int) -> ScannedNode:
    try:
        return ScannedNode(compact.read_line(text, position), text, end)
    except PlanError as exc:
        return ScannedNode(None, text, end, "; ".join(exc.problems))


def scan_plan(text: str) -> tuple[PlanForm | None, list[ScannedNode]]:
    """A whole reply's form and nodes, as a stream of it would have found them."""
    scanner = NodeScanner()
    found = scanner.feed(text) + scanner.finish()
    return scanner.form, found
