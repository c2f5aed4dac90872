"""What a replay pack holds, by source and ticker: an answer from the offline sample names
what the sample covers where it has nothing for the question (derived from the pack's own
recordings, so a pack with more tickers says so without an edit here)."""

from __future__ import annotations

import dataclasses

from ..catalogue import CATALOGUE


@dataclasses.dataclass(frozen=True)
class PackCoverage:
    """source id → the tickers the pack holds calls for (calls by query text are left out)."""
    by_source: dict[str, frozenset[str]]

    @property
    def tickers(self) -> tuple[str, ...]:
        """Every ticker held, letters before numbers ("AAPL", …, "600519.SS")."""
        return _ordered({t for tickers in self.by_source.values() for t in tickers})

    def groups(self) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """(sources, tickers): the sources that hold the same tickers, together, in the
        catalogue's order ((quote, price_history), (AAPL, …)), (news, (NVDA, TSLA, …)), …"""
        together: dict[frozenset[str], list[str]] = {}
        for source in self.sources:
            together.setdefault(self.by_source[source], []).append(source)
        return [(tuple(sources), _ordered(tickers)) for tickers, sources in together.items()]

    @property
    def sources(self) -> tuple[str, ...]:
        """The sources held for some ticker, in the catalogue's order."""
        return tuple(s for s in CATALOGUE if self.by_source.get(s))


def _ordered(tickers) -> tuple[str, ...]:
    return tuple(sorted(tickers, key=lambda t: (t[:1].isdigit(), t)))
