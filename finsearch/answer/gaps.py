"""What an answer could not find, said as a person would say it, in the answer's language.

    gap_sentences(graph, analysis, coverage) → ["Found no analyst data for NVIDIA (NVDA).", …]

One sentence per missing piece, grouped: the failed nodes about one instrument (or one query)
that failed the same way make one sentence ("Found no price history or quotes for AMD."). The
sentence is chosen by the node's `FailureKind`, never by its reason string: the reason
("not in replay pack: no profile call for AAPL", an exception's text) is for developers and
stays on the node.

Two cases are said once for the whole answer:
- an unknown symbol: every source for a ticker came back empty and the alias table does not
  know it (or every source said it does not know the ticker) → "ZZZZQ is not a known symbol",
  with near symbols and names from the fuzzy matcher when there are any;
- the offline sample: what it lacks, then what it covers, from the pack's own index.
"""

from __future__ import annotations

import dataclasses

from rapidfuzz import process
from rapidfuzz.distance import OSA

from ..errors import FailureKind
from ..graph import NodeStatus, SearchGraph, SearchNode
from ..phrases import Language, phrasebook, say
from ..plan.alias_table import AliasTable, Instrument, alias_table
from ..plan.analysis import Analysis
from ..plan.spelling import near_spellings
from ..sources.coverage import PackCoverage
from .markdown import escape
from .titles import instrument, instrument_names

# Kinds that mean "asked, and there was nothing": only these can make a symbol unknown.
EMPTY = frozenset({FailureKind.NO_DATA, FailureKind.UNKNOWN_SYMBOL, FailureKind.NOT_IN_PACK,
                   FailureKind.NOT_CACHED})
MAX_SUGGESTIONS = 3


@dataclasses.dataclass(frozen=True)
class Subject:
    """What a failed node was about: its ticker, else its query's words."""
    ticker: str | None
    query: str | None


@dataclasses.dataclass(frozen=True)
class Gap:
    """The sources that failed one way for some subjects: one sentence."""
    sentence: str                  # the phrase key, "gap.no_data", …
    sources: tuple[str, ...]
    subjects: tuple[Subject, ...]


def gap_sentences(graph: SearchGraph, analysis: Analysis, coverage: PackCoverage | None = None,
                  stated: frozenset[tuple[str, str]] = frozenset()) -> list[str]:
    """Plain sentences (not escaped) for every node that brought nothing back, unknown
    symbols first and what the offline sample covers last; (source, ticker) pairs in
    `stated` were said elsewhere in the answer and get no sentence here."""
    language = analysis.language
    names = instrument_names(analysis, language)
    # (a search the model's plan left out was never a part of this answer's question)
    failed = [n for n in graph if n.status is not NodeStatus.DONE and n.failure is not FailureKind.LEFT_OUT
              and not _stood_in_for(n, graph)]
    unknown = unknown_symbols(graph)
    out = [_unknown_sentence(symbol, language) for symbol in unknown]
    gaps = grouped([n for n in failed if _ticker(n) not in unknown], coverage is not None)
    for gap in _unsaid(gaps, stated):
        who = _join([_subject(s, names, language) for s in gap.subjects], language, "list.items_or")
        out.append(say(gap.sentence, language, what=_items(gap.sources, language, "list.items_or"), who=who))
    if coverage is not None and any(g.sentence == "gap.sample_missing" for g in gaps):
        parts = [say("gap.sample_part", language, sources=_items(sources, language, "list.items_and"),
                     tickers=_join(list(tickers), language, "list.items_and"))
                 for sources, tickers in coverage.groups()]
        out.append(say("gap.sample_covers", language, parts=say("list.parts_sep", language).join(parts)))
    return out


# Sources another one stands in for: an answer that used cninfo's industry P/E does not then say
# "no company profile was found", which would read as contradicting what it just said.
STAND_INS: dict[str, frozenset[str]] = {
    "profile": frozenset({"cn_industry_compare", "cn_profile"}),
    "dividends": frozenset({"cn_dividends", "hk_dividends"}),
    "cn_dividends": frozenset({"dividends"}), "hk_dividends": frozenset({"dividends"}),
    "price_history": frozenset({"cn_daily_bars"}), "cn_daily_bars": frozenset({"price_history"}),
    "news": frozenset({"cn_stock_news"}), "cn_stock_news": frozenset({"news"}),
    "web_search": frozenset({"news", "cn_stock_news"}),
}


def _stood_in_for(node: SearchNode, graph: SearchGraph) -> bool:
    """A failed node whose data another source brought back for the same instrument."""
    others = STAND_INS.get(node.source, frozenset())
    ticker = _ticker(node)
    return bool(others) and ticker is not None and any(
        n.status is NodeStatus.DONE and n.evidence and n.source in others and _ticker(n) == ticker for n in graph)


def gaps_paragraph(graph: SearchGraph, analysis: Analysis, coverage: PackCoverage | None = None,
                   stated: frozenset[tuple[str, str]] = frozenset()) -> str:
    """The gap sentences as one escaped paragraph ("" when nothing is missing)."""
    joiner = say("answer.sentence_sep", analysis.language)
    return joiner.join(escape(s) for s in gap_sentences(graph, analysis, coverage, stated))


def _unsaid(gaps: list[Gap], stated: frozenset[tuple[str, str]]) -> list[Gap]:
    """The gaps without the (source, ticker) pieces already said; a gap left with no source
    or no subject goes."""
    out = []
    for gap in gaps:
        subjects = tuple(s for s in gap.subjects if not all((src, s.ticker) in stated for src in gap.sources))
        sources = tuple(src for src in gap.sources if not all((src, s.ticker) in stated for s in subjects))
        if subjects and sources:
            out.append(dataclasses.replace(gap, sources=sources, subjects=subjects))
    return out


def grouped(failed: list[SearchNode], sample: bool) -> list[Gap]:
    """The failed nodes as gaps, in the order their first node appears: per subject the
    sources that failed one way, then subjects missing the same sources the same way together
    ("no profile data for Apple (AAPL) or Microsoft (MSFT)")."""
    per_subject: dict[tuple[str, Subject], list[str]] = {}
    for node in failed:
        ticker = _ticker(node)
        about = node.args.get("query") or node.args.get("filer")      # a search's words, or a 13F filer
        subject = Subject(ticker, None if ticker else (str(about or "").strip() or None))
        sources = per_subject.setdefault((_sentence_key(node.failure, sample), subject), [])
        if node.source not in sources:
            sources.append(node.source)
    merged: dict[tuple[str, tuple[str, ...]], list[Subject]] = {}
    for (sentence, subject), sources in per_subject.items():
        merged.setdefault((sentence, tuple(sources)), []).append(subject)
    return [Gap(sentence, sources, tuple(subjects)) for (sentence, sources), subjects in merged.items()]


def unknown_symbols(graph: SearchGraph, table: AliasTable | None = None) -> list[str]:
    """Tickers that are no instrument, judged from the evidence: no source found anything for
    them, every one came back empty, and either the alias table does not know the ticker or
    every source said it does not exist. A ticker a source could not reach stays a ticker."""
    table = table or alias_table()
    nodes: dict[str, list[SearchNode]] = {}
    for node in graph:
        if _ticker(node):
            nodes.setdefault(_ticker(node), []).append(node)
    unknown = []
    for ticker, mine in nodes.items():
        kinds = {n.failure for n in mine}
        if any(n.status is NodeStatus.DONE for n in mine) or not kinds <= EMPTY:
            continue
        known = ticker in table.by_ticker or bool(table.symbol_readings(ticker))
        if not known or kinds == {FailureKind.UNKNOWN_SYMBOL}:
            unknown.append(ticker)
    return unknown


def suggestions(symbol: str, table: AliasTable | None = None) -> list[Instrument]:
    """Instruments a mistyped symbol may have meant: tickers one edit away, then names the
    spelling reader finds near it ("APPL" → Apple), nearest first, one per ticker."""
    table = table or alias_table()
    found: list[Instrument] = []
    if len(symbol) >= 3:
        hits = process.extract(symbol.upper(), list(table.by_ticker), scorer=OSA.distance, score_cutoff=1,
                               limit=10)
        found += [table.by_ticker[t] for t, _, _ in sorted(hits, key=lambda h: (h[1], h[0]))]
    for _, _, best, others in near_spellings(symbol.lower(), table, lambda start, end: True):
        found += [best, *others]
    unique: dict[str, Instrument] = {}
    for inst in found:
        if inst.ticker and inst.ticker != symbol.upper():
            unique.setdefault(inst.ticker, inst)
    return list(unique.values())[:MAX_SUGGESTIONS]


def _unknown_sentence(symbol: str, language: Language) -> str:
    near = suggestions(symbol)
    if not near:
        return say("gap.unknown_symbol", language, symbol=symbol, suggestions="")
    names = {inst.ticker: inst.name for inst in near if inst.ticker}
    listed = _join([instrument(t, names, language) for t in names], language, "list.items_or")
    return say("gap.unknown_symbol_near", language, symbol=symbol, suggestions=listed)


def _sentence_key(kind: FailureKind | None, sample: bool) -> str:
    if kind is FailureKind.NOT_IN_PACK:
        return "gap.sample_missing" if sample else "gap.not_in_pack"
    if kind is FailureKind.UNKNOWN_SYMBOL:
        return "gap.no_data"              # some sources knew the ticker: this one had nothing
    return f"gap.{(kind or FailureKind.FAILED).value}"


def _ticker(node: SearchNode) -> str | None:
    ticker = node.args.get("ticker")
    return str(ticker).upper() if ticker else None


def _subject(subject: Subject, names: dict[str, str], language: Language) -> str:
    if subject.ticker:
        return instrument(subject.ticker, names, language)
    if subject.query:
        return say("gap.query", language, query=subject.query[:80])
    return say("data.other", language)


def sources_read(sources: tuple[str, ...], language: Language) -> str:
    """"quotes, price history and news": what kinds of data were read, in `language`."""
    return _items(sources, language, "list.items_and")


def _items(sources: tuple[str, ...], language: Language, last: str) -> str:
    book = phrasebook(language)
    nouns = [book.get(f"data.{s}", book["data.other"]) for s in sources]
    return _join(list(dict.fromkeys(nouns)), language, last)


def _join(words: list[str], language: Language, last: str) -> str:
    if len(words) <= 1:
        return "".join(words)
    return say("list.items_sep", language).join(words[:-1]) + say(last, language) + words[-1]
