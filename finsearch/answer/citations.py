"""Citations: `[k]` markers that point at the evidence a writer was given, renumbered
`[1..n]` by first use, with unknown ids dropped and counted.

Works on a stream: `Renumberer.feed` takes text as it arrives and returns what can be
shown now (holding back only an unfinished `[12` at the end), so a streamed answer
shows final numbers from the first token.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import date

from ..evidence import Evidence

# A citation marker: `[3]` or `[1, 4]`. The one spelling every reader of markers builds on.
MARKER_PATTERN = r"\[\d{1,3}(?:\s*,\s*\d{1,3})*\]"
_MARKER = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")
_PARTIAL = re.compile(r"\[[\d,\s]{0,12}$")


class Renumberer:
    def __init__(self, given: list[Evidence]):
        self.given = given                      # the writer's [1..k], in prompt order
        self.order: list[int] = []              # given indices (0-based) by first use
        self.dropped = 0
        self._carry = ""

    def _number(self, index: int) -> int | None:
        if not 1 <= index <= len(self.given):
            self.dropped += 1
            return None
        if index - 1 not in self.order:
            self.order.append(index - 1)
        return self.order.index(index - 1) + 1

    def _replace(self, match: re.Match) -> str:
        numbers = []
        for part in match.group(1).split(","):
            n = self._number(int(part))
            if n is not None and n not in numbers:
                numbers.append(n)
        return "".join(f"[{n}]" for n in numbers)

    def feed(self, text: str) -> str:
        buffer = self._carry + text
        partial = _PARTIAL.search(buffer)
        if partial:
            buffer, self._carry = buffer[: partial.start()], buffer[partial.start():]
        else:
            self._carry = ""
        return _MARKER.sub(self._replace, buffer)

    def flush(self) -> str:
        tail, self._carry = self._carry, ""
        return _MARKER.sub(self._replace, tail)

    def cited(self) -> list[Evidence]:
        """The evidence cited, in reference order [1..n]."""
        return [self.given[i] for i in self.order]


def renumber(text: str, given: list[Evidence]) -> tuple[str, list[Evidence], int]:
    """(text with [1..n], the cited evidence in order, how many unknown markers were dropped)."""
    r = Renumberer(given)
    out = r.feed(text) + r.flush()
    return out, r.cited(), r.dropped


@dataclasses.dataclass(frozen=True)
class Reference:
    """Entry `n` of an answer's references: the evidence `[n]` points at."""
    n: int
    evidence_id: str
    title: str
    url: str | None = None
    publisher: str | None = None
    published: str | None = None          # when it was published, or the end of the period it covers
    time_weight: float | None = None
    day: str | None = None                # the day it is dated by, as the answer states it (`dated`)

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, raw: dict) -> Reference:
        """A reference as `to_json` wrote it (a stored run, already sanitised evidence); one
        stored before references had their day is dated by its UTC day, as it was shown then."""
        ref = cls(**{f.name: raw.get(f.name) for f in dataclasses.fields(cls)})
        if "day" not in raw and ref.published:
            ref = dataclasses.replace(ref, day=str(ref.published)[:10])
        return ref


def references(cited: list[Evidence], day: Callable[[Evidence], date | None],
               title: Callable[[Evidence], str] | None = None) -> list[Reference]:
    """The references for the cited evidence, in order, each dated by `day` (`dated.Dating.day`:
    the day the answer states); `title` writes each one's title (the answer's language for
    computed data, see `titles`), else the evidence's own."""
    return [reference(n, e, day(e), title(e) if title else e.title) for n, e in enumerate(cited, start=1)]


def reference(n: int, item: Evidence, day: date | None, title: str) -> Reference:
    """Entry `n`: `item` as a reference, dated `day`."""
    return Reference(n, item.id, title, item.url, item.publisher, item.published or (item.period or {}).get("end"),
                     item.time_weight, day.isoformat() if day else None)


# A single `[n]` as written in answer markdown: not escaped, not already a link's text.
SINGLE_MARKER = re.compile(r"(?<!\\)\[(\d{1,3})\](?!\()")


def link_citations(text: str, target: Callable[[int], str | None]) -> str:
    """Every `[n]` → a link to `target(n)` (already a safe href, or an in-page anchor),
    or the escaped `\\[n\\]` when there is none."""
    def one(match: re.Match) -> str:
        n = int(match.group(1))
        where = target(n)
        return f"[\\[{n}\\]]({where})" if where else f"\\[{n}\\]"

    return SINGLE_MARKER.sub(one, text)


def without_markers(text: str) -> str:
    """The text with every citation marker replaced by a space."""
    return _MARKER.sub(" ", text)


def markers(text: str) -> list[int]:
    """Every citation number used in a text, in order of appearance."""
    return [int(p) for m in _MARKER.finditer(text) for p in m.group(1).split(",")]
