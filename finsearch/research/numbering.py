"""One set of references for the whole report: evidence numbered once, by first use, across
every section, the same story found by two sections counted once.

Each section's writer numbers its own citations [1..k] (`Answer.references`); `cite`
turns them into the report's numbers, and `number` gives a table row its citation. An item
keeps the day its section's answer dated it by (`Reference.day`), so the report's text and its
references show one day for it; one no section cited is dated by the report's `dating`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from ..answer.citations import MARKER_PATTERN, Reference, reference
from ..dedupe import near, title_key, url_key
from ..evidence import Evidence

_MARKERS = re.compile(MARKER_PATTERN)


class ReportCitations:
    def __init__(self, title: Callable[[Evidence], str], dating: Callable[[Evidence], date | None]):
        self._title = title
        self._dating = dating
        self.cited: list[Evidence] = []
        self._days: list[date | None] = []       # by number: the day its reference shows
        self._by_id: dict[str, int] = {}
        self._by_url: dict[str, int] = {}
        self._titles: list[tuple[str, int]] = []

    def number(self, item: Evidence, day: date | None = None) -> int:
        """The report's number for `item`: its own, or the one of the same story already cited;
        a new one is dated `day` (its section's), else by the report's dating."""
        if item.id in self._by_id:
            return self._by_id[item.id]
        url, title = self._url(item), title_key(item.title)
        same = self.known(item)
        if same is None:
            self.cited.append(item)
            self._days.append(day or self._dating(item))
            same = len(self.cited)
            if url:
                self._by_url[url] = same
            if item.kind != "finance":
                self._titles.append((title, same))
        self._by_id[item.id] = same
        return same

    def known(self, item: Evidence) -> int | None:
        """The number `item` (or the same story) already has, without numbering it."""
        if item.id in self._by_id:
            return self._by_id[item.id]
        url = self._url(item)
        same = self._by_url.get(url) if url else None
        if same is None and item.kind != "finance":
            title = title_key(item.title)
            same = next((n for t, n in self._titles if near(title, t)), None)
        return same

    @staticmethod
    def _url(item: Evidence) -> str:
        """A story's address; finance data's with its source, since one page serves several
        (Yahoo's analysis page is both the earnings and the analysts' data)."""
        url = url_key(item.url)
        return f"{url}#{item.source}" if url and item.kind == "finance" else url

    def cite(self, markdown: str, references: list[Reference], evidence: dict[str, Evidence]) -> str:
        """A section's text with its [k] (its own references) as the report's [n]."""
        local = {r.n: (evidence[r.evidence_id], r.day) for r in references if r.evidence_id in evidence}

        def one(match: re.Match) -> str:
            numbers: list[int] = []
            for part in re.findall(r"\d+", match.group(0)):
                if int(part) in local:
                    item, day = local[int(part)]
                    n = self.number(item, date.fromisoformat(day) if day else None)
                    if n not in numbers:
                        numbers.append(n)
            return "".join(f"[{n}]" for n in numbers)

        return _MARKERS.sub(one, markdown)

    def day(self, n: int) -> date | None:
        """The day reference `n` shows: what a line citing it says too."""
        return self._days[n - 1]

    def references(self) -> list[Reference]:
        return [reference(n, e, self._days[n - 1], self._title(e)) for n, e in enumerate(self.cited, start=1)]
