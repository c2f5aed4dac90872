"""What a question is about, found deterministically before any planning:
its language, entities (tickers), time context and intents.

A follow-up question ("and AMD?", "what about last month?") inherits what it lacks
from the previous turn: its entities, its time context, its intents.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime

from ..errors import InputError
from ..evidence import visible_text
from ..markets import market_of
from ..phrases import Language, say
from ..timecontext import TimeContext, clamp
from . import entities as entity_rules
from . import timectx
from .entities import Entity

MAX_QUESTION_CHARS = 2000

INTENT_PATTERNS: dict[str, str] = {
    "why": r"\bwhy\b|\bmov(?:e|ed|es|ing)\b|\bfell\b|\bfall(?:s|ing|en)?\b|\bdrop(?:s|ped)?\b|\bplung"
           r"|\bsurg|\bjump|\bsoar|\btumbl|\bslump|\bsank\b|\bsink|\bspike|\brall(?:y|ied)\b|\bcrash"
           r"|what happened|\bdecline|\bsell-?off|为什么|为何|原因|大跌|大涨|暴跌|暴涨|下跌|上涨|跳水|拉升|怎么了",
    "price": r"\bprice|\bperform|\bchart|k-?line|candlestick|\btrend|\breturn|\bhow (?:is|did|has|are|have)"
             r"|\bdoing\b|\bgain|\bloss|\bup\b|\bdown\b|\bcompar|\bvs\.?\b|\bversus\b|\bquote\b|\btrading\b"
             r"|\bclose[ds]?\b|\bvolatil|走势|表现|股价|价格|涨|跌|行情|k线|收盘|报价|对比|比较",
    "news": r"\bnews\b|\bheadline|\blatest\b|\bannounc|\bupdate|新闻|消息|公告|动态|资讯",
    "fundamentals": r"\bearnings\b|\brevenue|\bsales\b|\bprofit|\bincome\b|\bmargin|\beps\b|\bguidance"
                    r"|\bresults\b|\bcash flow|\bbalance sheet|\bdebt\b|\bfinancials?\b|财报|营收|收入|净利润|利润"
                    r"|业绩|每股收益|现金流|负债|毛利",
    "analyst": r"\btarget|\brating|\banalyst|\bupgrade|\bdowngrade|\brecommend|评级|目标价|分析师|研报",
    "holders": r"\bholders?\b|\bownership|\binstitution|\bstake\b|\bwho owns|股东|持股|机构持仓",
    "dividend": r"\bdividend|\byield\b|\bpayout|\bsplits?\b|分红|股息|派息|拆股|送转",
    "valuation": r"market cap|\bvaluation|p/e|\bpe ratio|price[- ]to[- ]earnings|shares outstanding"
                 r"|\bworth\b|市值|市盈率|估值|市净率",
    "profile": r"what does .* do|\bbusiness\b|\bsector\b|\bindustry\b|\bceo\b|\bemployees|\bprofile"
               r"|\bwho runs|公司简介|主营|业务|行业|简介",
    "compare": r"\bcompar|\bvs\.?\b|\bversus\b|\bagainst\b|\bbetter\b|对比|比较|相比|哪个",
}
_INTENTS = {name: re.compile(pattern, re.I) for name, pattern in INTENT_PATTERNS.items()}


@dataclasses.dataclass(frozen=True)
class Analysis:
    question: str
    language: Language
    entities: tuple[Entity, ...]
    time_context: TimeContext
    intents: frozenset[str]
    inherited: tuple[str, ...] = ()    # what came from the previous turn
    notes: tuple[str, ...] = ()        # what the reader should know about how it was read

    @property
    def tickers(self) -> list[str]:
        return [e.ticker for e in self.entities if e.ticker]

    @property
    def unresolved(self) -> list[Entity]:
        return [e for e in self.entities if not e.ticker]


def check_question(question: str) -> str:
    """The question as one line of visible text (control and invisible characters, which
    could hide words or drive a terminal, removed), or InputError when it is empty or too long."""
    text = " ".join(visible_text(" ".join(question.split())).split()) if isinstance(question, str) else ""
    if not text:
        raise InputError("Please type a question, for example: Why did NVDA fall last week?")
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(f"The question is {len(text):,} characters long; please keep it under "
                         f"{MAX_QUESTION_CHARS:,} characters.")
    return text


def language_of(text: str) -> Language:
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return "zh" if cjk >= 2 or (cjk and cjk * 4 >= len(text)) else "en"


def intents_of(text: str) -> frozenset[str]:
    return frozenset(name for name, pattern in _INTENTS.items() if pattern.search(text))


def analyse(question: str, now: datetime, prior: Analysis | None = None) -> Analysis:
    """Language, entities, time context and intents of a (checked) question."""
    found = tuple(entity_rules.extract(question))
    market = market_of(next((e.ticker for e in found if e.ticker), None))     # whose trading days
    time_context, clamped = clamp(timectx.resolve(question, now, market), now)
    language = language_of(question)
    notes = entity_rules.notes(found, language)
    if clamped:
        notes += (say("note.dates_clamped", language, start=time_context.start, end=time_context.end),)
    intents = intents_of(question)
    inherited: list[str] = []
    if prior is not None:
        if not found and prior.entities:
            found = prior.entities
            inherited.append("entities")
        if not time_context.explicit and prior.time_context.explicit:
            time_context = prior.time_context
            inherited.append("time")
        meaningful = intents - {"compare"}
        if not meaningful and prior.intents:
            intents = prior.intents | intents
            inherited.append("intents")
    return Analysis(question, language, found, time_context, intents, tuple(inherited), notes)
