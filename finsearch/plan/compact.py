"""The compact plan format: one node a line, its source by a short code, its arguments in the catalogue's order.

    1. ph(NVDA)
    2. nw(NVDA, "NVIDIA stock") <- 1 # Why did NVIDIA (NVDA) move last week? (news)

A line is `<n>. <code>(<arguments>) [<- <n>, …] [# <sub-query>]`, as LLMCompiler writes its
task lists: the node's number, its source (the short code `source_codes` derives from the
catalogue, or the source's id), its arguments positional in the order its `SourceSpec` declares
them (an empty place skips one; `name=value` names one), the earlier nodes it needs by number, and
its sub-query. What the JSON plan may leave out, this may too (`planner.node_from_json` derives it).
A line is read into the JSON plan's node object (`read_line`), so both formats are validated by
the same code into the same `SearchNode`s. Nothing here is evaluated: a line is split and read as
text. About 45 % of the JSON's tokens on the benchmark's questions, so the last node of a plan is
known that much sooner.
"""

from __future__ import annotations

import json
import re

from ..catalogue import CATALOGUE, SourceSpec
from ..errors import PlanError
from ..graph import SearchNode
from ..timecontext import TimeContext

# A node's line begins: "<n>. <word>(" (a bullet, "n1", ")" or ":" after the number tolerated; an
# unnumbered line counts only when its word is a source).
NODE_START = re.compile(r"^\s*(?:[-*]\s*)?(?:n?(\d{1,3})(?:[.):]\s*|\s+))?([A-Za-z][A-Za-z0-9_]*)\(")
_KEYWORD = re.compile(r"^([a-z_][a-z0-9_]*)\s*=\s*(.*)$", re.S)
_BARE = re.compile(r'^[^\s,()"=#<]+$')            # a value written without quotes


def source_codes() -> dict[str, str]:
    """Each source's short code, by its id, derived in catalogue order (so a new source, added
    last, never changes another's): a one-word id is its own code ("quote", "news"); a compound
    one its initials ("price_history" → "ph"), lengthened by its last word's letters when taken
    ("sec_section" → "sse", after "symbol_search" → "ss")."""
    ids = tuple(CATALOGUE)
    cached = _codes_cache.get(ids)
    if cached is None:
        cached = _codes_cache[ids] = _derive(ids)
    return cached


_codes_cache: dict[tuple[str, ...], dict[str, str]] = {}


def _derive(ids: tuple[str, ...]) -> dict[str, str]:
    codes: dict[str, str] = {}
    for source in ids:
        words = source.split("_")
        head = "".join(w[0] for w in words[:-1])
        candidates = [source] if len(words) == 1 else \
            [head + words[-1][:k] for k in range(1, len(words[-1]) + 1)] + [source]
        taken = set(codes.values()) | (set(ids) - {source})
        codes[source] = next(c for c in candidates if c not in taken)
    return codes


def source_of(word: str) -> str | None:
    """The source a line names, by its code or its id (any case); None when it names none."""
    word = word.lower()
    if word in CATALOGUE:
        return word
    return next((source for source, code in source_codes().items() if code == word), None)


def is_node_line(line: str) -> bool:
    """Whether `line` is (or begins) a node of a compact plan: numbered, or naming a source."""
    start = NODE_START.match(line)
    return bool(start) and (start.group(1) is not None or source_of(start.group(2)) is not None)


# -- writing ------------------------------------------------------------------------------------

def render_plan(nodes: list[SearchNode], time_context: TimeContext, language: str) -> str:
    """`nodes` as compact lines, numbered in order (their ids are n1, n2, … after `roots_first`),
    leaving out what `node_from_json` derives: start and end equal to the question's period, lang
    equal to its language, a data node's sub-query (the rules word it)."""
    number = {n.id: i for i, n in enumerate(nodes, 1)}
    return "\n".join(_line(n, i, number, time_context, language) for i, n in enumerate(nodes, 1))


def _line(node: SearchNode, index: int, number: dict[str, int], tc: TimeContext, language: str) -> str:
    args = dict(node.args)
    if (args.get("start"), args.get("end")) == (tc.start.isoformat(), tc.end.isoformat()):
        del args["start"], args["end"]
    if args.get("lang") == language:
        del args["lang"]
    spec = CATALOGUE[node.source]
    written, named = [], False
    for arg in spec.args:
        value = args.get(arg.name)
        if value in (None, ""):
            named = True          # a gap: the rest are named, not counted
            continue
        written.append(f"{arg.name}={_value(value)}" if named else _value(value))
    line = f"{index}. {source_codes()[node.source]}({', '.join(written)})"
    if node.depends_on:
        line += " <- " + ", ".join(str(number.get(d, d)) for d in node.depends_on)
    if spec.kind != "finance":
        line += f" # {' '.join(node.sub_query.split())}"
    return line


def _value(value) -> str:
    text = str(value)
    return text if _BARE.match(text) else json.dumps(text, ensure_ascii=False)


# -- reading ------------------------------------------------------------------------------------

def read_line(line: str, position: int) -> dict:
    """A node line as the JSON plan's node object (`{"id", "source", "args", "depends_on",
    "sub_query"?}`), for `node_from_json` to check; `position` numbers an unnumbered line.
    PlanError when the line cannot be read (an unclosed quote or bracket, too many arguments)."""
    start = NODE_START.match(line)
    if start is None:
        raise PlanError([f"line {position}: not a node line"])
    node_id = f"n{int(start.group(1)) if start.group(1) else position}"
    word = start.group(2)
    source = source_of(word)
    inside, rest = _call(line[start.end():], node_id)
    spec = CATALOGUE.get(source) if source else None
    item: dict = {"id": node_id, "source": source or word, "args": _args(inside, spec, node_id)}
    deps_text, _, sub_query = rest.partition("#")
    deps_text = deps_text.strip()
    if deps_text.startswith(("<-", "<")):
        item["depends_on"] = [f"n{int(d)}" for d in re.findall(r"\d+", deps_text)]
    sub_query = sub_query.strip().strip('"').strip()
    if sub_query:
        item["sub_query"] = sub_query
    return item


def _call(text: str, where: str) -> tuple[str, str]:
    """A call's argument text and what follows its closing bracket (quotes and brackets respected)."""
    depth, quoted, escaped = 1, False, False
    for i, ch in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return text[:i], text[i + 1:]
    raise PlanError([f"{where}: its arguments are not closed ({'a quote' if quoted else 'a bracket'} left open)"])


def _pieces(text: str) -> list[str]:
    """The arguments, split at the commas outside quotes and brackets."""
    pieces, current, depth, quoted, escaped = [], [], 0, False, False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append("".join(current))
            current = []
            continue
        current.append(ch)
    pieces.append("".join(current))
    return [p.strip() for p in pieces]


def _args(text: str, spec: SourceSpec | None, where: str) -> dict:
    pieces = _pieces(text)
    if pieces == [""]:
        return {}
    names = [a.name for a in spec.args] if spec else []
    args: dict = {}
    for place, piece in enumerate(pieces):
        keyword = _KEYWORD.match(piece)
        if keyword:              # (a name the source does not take: `check_args` says so)
            args[keyword.group(1)] = _read_value(keyword.group(2).strip(), where)
            continue
        if not piece:
            continue                      # an empty place: that argument left out
        if spec is None:
            continue                      # an unknown source: validation says so, whatever its arguments
        if place >= len(names):
            raise PlanError([f"{where}: {spec.id} takes at most {len(names)} arguments ({', '.join(names)})"])
        args[names[place]] = _read_value(piece, where)
    return args


def _read_value(text: str, where: str) -> str:
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except ValueError:
            raise PlanError([f"{where}: a quoted argument is not closed: {text[:40]}"]) from None
        return value if isinstance(value, str) else str(value)
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1]
    return text
