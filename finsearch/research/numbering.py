"""One set of references for the whole report: evidence numbered once, by first use, across
every section, the same story found by two sections counted once.

Each section's writer numbers its own citations [1..k] (`Answer.references`); `cite`
turns them into the report's numbers, and `number` gives a table row its citation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..answer.citations import MARKER_PATTERN, Reference
from ..dedupe import near, title_key, url_key
from ..evidence import Evidence

_MARKERS = re.compile(MARKER_PATTERN)


class ReportCitations:
    def __init__(self, title: Callable[[Evidence], str]):
        self._title = title
        self.cited: list[Evidence] = []
        self._by_id: dict[str, int] = {}
        self._by_url: dict[str, int] = {}
        self._titles: list[tuple[str, int]] = []

    def number(self, item: Evidence) -> int:
        """The report's number for `item`: its own, or the one of the same story already cited."""
        if item.id in self._by_id:
            return self._by_id[item.id]
        url, title = url_key(item.url), title_key(item.title)
        same = self._by_url.get(url) if url else None
        if same is None and item.kind != "finance":
            same = next((n for t, n in self._titles if near(title, t)), None)
        if same is None:
            self.cited.append(item)
            same = len(self.cited)
            if url:
                self._by_url[url] = same
            if item.kind != "finance":
                self._titles.append((title, same))
        self._by_id[item.id] = same
        return same

    def cite(self, markdown: str, references: list[Reference], evidence: dict[str, Evidence]) -> str:
        """A section's text with its [k] (its own references) as the report's [n]."""
        local = {r.n: evidence[r.evidence_id] for r in references if r.evidence_id in evidence}

        def one(match: re.Match) -> str:
            numbers: list[int] = []
            for part in re.findall(r"\d+", match.group(0)):
                item = local.get(int(part))
                if item is not None:
                    n = self.number(item)
                    if n not in numbers:
                        numbers.append(n)
            return "".join(f"[{n}]" for n in numbers)

        return _MARKERS.sub(one, markdown)

    def references(self) -> list[Reference]:
        return [Reference(n, e.id, self._title(e), e.url, e.publisher, e.published or (e.period or {}).get("end"),
                          e.time_weight) for n, e in enumerate(self.cited, start=1)]
