"""What stories state against expectations, read sentence by sentence:

    results_vs_expected(passages) → reported against expected, per line (revenue, EPS, profit):
        "revenue of $5.71 billion and adjusted earnings of $5.08 a share, ahead of the $5.66
        billion and $4.97 analysts expected" → revenue 5.71B vs 5.66B, EPS 5.08 vs 4.97
    guidance_in(passages) → a forecast range and the consensus it is set against:
        "forecast fiscal 2025 revenue of $23.30 billion to $23.55 billion, below the consensus
        estimate of $23.70 billion" → 23.30B–23.55B vs 23.70B
    replies(passages) → what a company said in answer to news about it, and its points
        (operations normal, a draft, nothing undisclosed …) for an answer in another language

Figures are read with `figures.figures_in` (units and 亿 scaled); a pairing is kept only when
the expected value is of the same order as the reported one.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Literal

from ..phrases import Language
from ..phrases.numbers import decimal, money, pct
from .figures import Figure, figures_in
from .reader import Passage

Line = Literal["revenue", "eps", "profit"]
_LINES: tuple[tuple[Line, re.Pattern], ...] = (
    ("eps", re.compile(r"\b(?:eps|earnings\s+per\s+share|earnings\s+of\s+\S+\s+(?:a|per)\s+share)|每股收益|每股盈利",
                       re.I)),
    ("revenue", re.compile(r"\b(?:revenue|revenues|sales)\b|营收|营业收入|营业总收入|收入", re.I)),
    ("profit", re.compile(r"\bnet\s+(?:profit|income)\b|\bprofit\b|净利润|净利", re.I)),
)
LINE_KEYS = {"revenue": "revenue", "eps": "eps", "profit": "net_income"}     # → the phrasebook's facts.line.*
# Where the expected figures start: "ahead of the …", "below the consensus estimate of …", "预期的…".
_AGAINST = re.compile(r"\b(?:ahead\s+of|above|below|short\s+of|against|versus|vs\.?|compared\s+with|topping|beating"
                      r"|missing|exceeding)\b|\b(?:estimates?|consensus(?:\s+estimate)?|expectations?|forecasts?)\s+"
                      r"(?:of|for|was|were|is|at)\b|高于|低于|超过|不及|好于|逊于|预期的?|预估的?|一致预期", re.I)
# Only the words that set one figure against another: a guidance sentence's own "forecast of" is not one.
_VERSUS = re.compile(r"\b(?:ahead\s+of|above|below|short\s+of|against|versus|vs\.?|compared\s+with|topping|beating"
                     r"|missing|exceeding)\b|高于|低于|超过|不及|好于|逊于", re.I)
_EXPECTED_WORD = re.compile(r"\b(?:expected|estimated|forecast|consensus|estimates?|expectations?|anticipated)\b"
                            r"|预期|预估|一致预期", re.I)
GUIDANCE = re.compile(r"\b(?:forecast\w*|guid\w+|outlook|expects?|sees|projects?|targets?)\b|指引|预计|展望|预期", re.I)
# What the company forecasts itself, not what analysts expect or a result set against forecasts.
_OWN_FORECAST = re.compile(r"\b(?:forecast|forecasts|forecasted|guided|guides|guidance|outlook|projects|projected"
                           r"|expects|sees)\b|指引|展望|预计", re.I)
_OTHERS_FORECAST = re.compile(r"\banalysts?'?\s+(?:\w+\s+)?(?:expect\w*|forecast\w*|estimate\w*|project\w*|see)\b"
                              r"|\b(?:beat|beats|top|tops|topped|above|below|miss\w*|ahead\s+of|short\s+of)\s+(?:the\s+)?"
                              r"(?:\w+\s+){0,2}forecasts?\b|\bconsensus\s+forecast|分析师预期|市场预期", re.I)
# Words of a report of results: tried first for results against expectations.
_REPORTED = re.compile(r"\b(?:reported|posted|results?|quarter|quarterly)\b|季度|季报|年报|中报|业绩", re.I)


def is_guidance(text: str) -> bool:
    """A sentence about the company's own forecast: its forecast words come before any words of
    what analysts expect ("sees revenue of …, below analysts' estimate of …" is guidance; "Analysts
    expect revenue of …" and "profit beats forecasts" are not)."""
    own, others = _OWN_FORECAST.search(text), _OTHERS_FORECAST.search(text)
    return own is not None and (others is None or own.start() < others.start())
_GROWTH = re.compile(r"\b(?:year[- ]on[- ]year|from\s+a\s+year|growth|rose|grew|increase)\b|同比|增长|增速", re.I)


@dataclasses.dataclass(frozen=True)
class Versus:
    """One line reported against what was expected, as one sentence stated it."""
    line: Line
    reported: Figure
    expected: Figure
    passage: Passage

    @property
    def verdict(self) -> Literal["beat", "missed", "met"]:
        if abs(self.reported.value - self.expected.value) <= max(self.reported.tolerance, self.expected.tolerance):
            return "met"
        return "beat" if self.reported.value > self.expected.value else "missed"


@dataclasses.dataclass(frozen=True)
class Guidance:
    low: Figure
    high: Figure | None
    consensus: Figure | None
    line: Line | None
    passage: Passage

    @property
    def verdict(self) -> Literal["below", "above", "in_line"] | None:
        if self.consensus is None:
            return None
        top = self.high.value if self.high is not None else self.low.value
        if top < self.consensus.value:
            return "below"
        if self.low.value > self.consensus.value:
            return "above"
        return "in_line"


def _amounts(text: str, start: int = 0, end: int | None = None) -> list[Figure]:
    """Money and amounts (not percentages, not dates) between `start` and `end`."""
    end = len(text) if end is None else end
    return [f for f in figures_in(text) if f.kind in ("money", "number") and start <= f.start < end]


def _same_order(a: Figure, b: Figure) -> bool:
    return a.value > 0 and b.value > 0 and 0.4 <= a.value / b.value <= 2.5


def results_vs_expected(passages: list[Passage]) -> list[Versus]:
    """Every line a sentence reports against its expectation, the first sentence per line."""
    found: dict[Line, Versus] = {}
    for passage in sorted(passages, key=lambda p: not _REPORTED.search(p.text)):
        text = passage.text
        if not _EXPECTED_WORD.search(text) or is_guidance(text):
            continue
        against = _AGAINST.search(text)
        if against is None:
            continue
        lines = sorted(((m.start(), line) for line, pattern in _LINES for m in pattern.finditer(text)
                        if m.start() < against.start()), key=lambda x: x[0])
        reported: list[tuple[Line, Figure]] = []
        taken: set[int] = set()
        for position, line in lines:
            figure = next((f for f in _amounts(text, position, against.start())
                           if f.start not in taken and not _GROWTH.search(text[position:f.start])), None)
            if figure is not None and all(line != r[0] for r in reported):
                reported.append((line, figure))
                taken.add(figure.start)
        expected = [f for f in _amounts(text, against.start()) if f.start not in taken]
        for (line, got), wanted in zip(reported, expected, strict=False):
            if line not in found and _same_order(got, wanted):
                found[line] = Versus(line, got, wanted, passage)
    return list(found.values())


def guidance_in(passages: list[Passage]) -> Guidance | None:
    """The first sentence that states a forecast range (or one figure) of amounts, with the
    consensus it is compared with when it names one."""
    ranged = [p for p in passages if is_guidance(p.text) and _guided(p.text)]
    ranged.sort(key=lambda p: (not _has_range(p.text), -(p.item.time_weight or 0), p.day is None,
                               -(p.day.toordinal() if p.day else 0)))
    for passage in ranged:
        text = passage.text
        amounts = _guided(text)
        if not amounts:
            continue
        against = _VERSUS.search(text)
        own = [f for f in amounts if against is None or f.start < against.start()] or amounts[:1]
        low = own[0]
        high = own[1] if len(own) > 1 and _RANGE_BETWEEN.match(text, low.start) \
            and _RANGE_BETWEEN.match(text, low.start).end() == own[1].start else None
        rest = [f for f in amounts if against is not None and f.start > against.start()]
        consensus = next((f for f in rest if _same_order(f, low)), None)
        line = next((name for name, pattern in _LINES if pattern.search(text)), None)
        return Guidance(low, high, consensus, line, passage)
    return None


def _guided(text: str) -> list[Figure]:
    """The figures a forecast states: amounts, else a range of percentages ("growth of 8% to 10%";
    one percentage alone is as likely the stock's move as a forecast)."""
    amounts = _amounts(text)
    if amounts:
        return amounts
    percents = [f for f in figures_in(text) if f.kind == "percent"]
    return percents if _a_range(text, percents) else []


def _has_range(text: str) -> bool:
    return _a_range(text, _guided(text))


def _a_range(text: str, figures: list[Figure]) -> bool:
    return any((m := _RANGE_BETWEEN.match(text, a.start)) is not None and m.end() == b.start
               for a, b in zip(figures, figures[1:], strict=False))


# From a number to the next one of a range: "23.30 billion to $", "851亿元至".
_RANGE_BETWEEN = re.compile(r"[\d,.]+\s*(?:万亿|亿|万|千|trillion|billion|million|thousand|tn|bn|mn|[TBMK])?\s*"
                            r"(?:元|美元|港元|yuan|dollars?)?\s*%?\s*(?:to|and|-|–|~|至|到)\s*"
                            r"(?:US\$|HK\$|\$|€|£|¥|￥)?\s*", re.I)


_CURRENCIES = (("US$", "USD"), ("HK$", "HKD"), ("$", "USD"), ("€", "EUR"), ("£", "GBP"), ("¥", "CNY"), ("￥", "CNY"))
# "¥" is the yen's sign as well as the yuan's: a story about a Tokyo listing, or one that speaks
# of yen, means the yen.
_YEN = re.compile(r"\byen\b|円|日元|\bJPY\b", re.I)
_WORDS = ((re.compile(r"日元|円|\byen\b", re.I), "JPY"),
          (re.compile(r"港元|港币|\bHK\s?dollars?\b", re.I), "HKD"),
          (re.compile(r"美元|\bdollars?\b", re.I), "USD"),
          (re.compile(r"元|人民币|\byuan\b|\brenminbi\b", re.I), "CNY"))


def amount(language: Language, figure: Figure, passage: Passage) -> str:
    """A figure a story stated, written in the answer's language and units: its currency
    from its symbol, else from the words after it ("86.6 billion yuan", "866亿元")."""
    if figure.kind == "percent":
        return pct(figure.value, False)
    currency = next((code for symbol, code in _CURRENCIES if figure.text.lstrip("-−–+ ").startswith(symbol)), None)
    if currency == "CNY" and _in_yen(passage):
        currency = "JPY"
    if currency is None:
        after = passage.text[figure.start:figure.start + len(figure.text) + 12]
        currency = next((code for pattern, code in _WORDS if pattern.search(after)), None)
    if abs(figure.value) < 1000 and currency is None:
        return decimal(figure.value)
    return money(figure.value, currency, language)


def _in_yen(passage: Passage) -> bool:
    return (passage.about or "").upper().endswith(".T") or bool(
        _YEN.search(f"{passage.item.title} {passage.item.snippet}"))


# -- what a company said back --------------------------------------------------------------------------

REPLY = re.compile(r"\b(?:said|says|responded|response|statement|denied|denies|told|clarif\w+|stated|reiterated)\b"
                   r"|回应|表示|澄清|称|说明|否认|公告|声明", re.I)
ReplyPoint = Literal["normal", "draft", "no_undisclosed", "monitor", "denied", "limited", "prices_held", "absorb"]
_POINTS: tuple[tuple[ReplyPoint, re.Pattern], ...] = (
    ("normal", re.compile(r"\boperations?\b[^.;]{0,20}\bnormal\b|\bbusiness\s+as\s+usual\b"
                          r"|经营正常|一切正常|运营正常", re.I)),
    ("draft", re.compile(r"\bstill\s+a\s+draft\b|\bdraft\b[^.;]{0,30}\b(?:comment|consultation)\b|征求意见", re.I)),
    ("no_undisclosed", re.compile(r"\bno\s+undisclosed\b|\bnothing\s+(?:material\s+)?to\s+disclose\b"
                                  r"|不存在应披露而未披露", re.I)),
    ("monitor", re.compile(r"\b(?:monitor\w*|watch\w*)\b[^.;]{0,20}\b(?:closely|developments|policy)\b"
                           r"|密切关注", re.I)),
    ("denied", re.compile(r"\bden(?:y|ies|ied)\b|\buntrue\b|\bfalse\b|\bbaseless\b|不实|否认|纯属谣言", re.I)),
    ("limited", re.compile(r"\blimited\s+impact\b|\bimpact\b[^.;]{0,15}\blimited\b|影响有限|影响不大", re.I)),
    # a company's answer to a tariff, a tax or a cost shock: "keep US prices unchanged", "absorb the tariff cost"
    ("prices_held", re.compile(r"\b(?:keep|keeps|kept|hold|holds|held|leave|leaves|left|maintain\w*)\s+"
                               r"(?:its\s+|their\s+)?(?:\w+\s+)?prices?\s+(?:unchanged|steady|flat)\b|\bno\s+price\s+(?:increases?|rises?"
                               r"|hikes?)\b|\b(?:will\s+not|won't)\s+raise\s+(?:its\s+)?prices\b"
                               r"|维持价格不变|价格保持不变|暂不(?:调价|涨价|提价)|不涨价", re.I)),
    ("absorb", re.compile(r"\babsorb\w*\s+(?:the\s+|its\s+)?(?:\w+\s+)?(?:costs?|tariffs?|impact|hit|increases?)\b"
                          r"|自行消化|(?:承担|消化)[^。；，]{0,6}(?:成本|关税)", re.I)),
)


def reply_points(text: str) -> list[ReplyPoint]:
    return [point for point, pattern in _POINTS if pattern.search(text)]
