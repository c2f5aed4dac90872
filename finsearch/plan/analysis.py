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
from ..phrases import Language, say
from ..phrases.dates import DaySpan
from ..reference.filers import filer_named
from ..reference.markets import market_of
from ..timecontext import TimeContext, clamp
from . import codes, market_wide, spelling, timectx, venues
from . import entities as entity_rules
from .entities import Entity
from .intents import intents_of

MAX_QUESTION_CHARS = 2000


@dataclasses.dataclass(frozen=True)
class Analysis:
    question: str
    language: Language
    entities: tuple[Entity, ...]
    time_context: TimeContext
    intents: frozenset[str]
    inherited: tuple[str, ...] = ()    # what came from the previous turn
    notes: tuple[str, ...] = ()        # what the reader should know about how it was read
    unknown: tuple[str, ...] = ()      # words that read as a name but are no instrument ("zorblax")

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


# A turn that goes on from the previous one: "and MSFT?", "what about last month", "那腾讯呢？", "换成特斯拉".
_CONTINUES = re.compile(r"^\W*(?:and|also|what about|how about|same for|same with|now for|then|ok|okay|plus|or)\b"
                        r"|^\W*(?:那|换成|换|改成|改为|再看|还有|同样|也看)|呢\W*$", re.I)
# … and one that adds to the previous turn's instruments instead of replacing them.
_ADDS = re.compile(r"^\W*(?:and\s+)?(?:also\s+)?(?:add|plus|together with|along with|as well as)\b"
                   r"|^\W*(?:and\s+)?(?:compare(?:d)?\s+(?:it\s+|that\s+|them\s+)?(?:with|to|against)|vs\.?|versus|against)\s"
                   r"|^\W*(?:再|也)?加上|^\W*再加|^\W*(?:和|跟|与|同)[^。？！]{1,12}(?:比|对比|相比)", re.I)


def _fragment_symbol(question: str, prior: Analysis | None) -> tuple[Entity, ...]:
    """The symbol a follow-up fragment names in lower case ("and msft?"): after a previous
    turn, "and X?" can only mean the instrument X."""
    m = _CONTINUES.search(question)
    if prior is None or m is None or m.start() != 0:
        return ()
    rest = question[m.end():].strip(" ?？!！.。,，")
    inst = entity_rules.alias_table().by_ticker.get(rest.upper()) if re.fullmatch(r"[A-Za-z]{2,5}", rest) else None
    if inst is None:
        return ()
    return (Entity(inst.name, inst.ticker, inst.kind, rest, question.index(rest), read_as="symbol"),)


def _time_of(question: str, found: tuple[Entity, ...], now: datetime) -> tuple[TimeContext, bool]:
    """The question's period, counted in trading days of its first instrument's market, and
    whether it had to be clamped."""
    market = market_of(next((e.ticker for e in found if e.ticker), None))
    return clamp(timectx.resolve(_without_names(question, found), now, market), now)


def _without_names(question: str, found: tuple[Entity, ...]) -> str:
    """The question with the words that named an instrument blanked out, so that the time
    rules never read a name's number ("Russell 2000", "10-year") as a date."""
    for entity in found:
        if entity.mention and any(ch.isdigit() for ch in entity.mention):
            question = question.replace(entity.mention, " " * len(entity.mention))
    return question


def _not_event_names(found: tuple[Entity, ...], question: str, event_words: tuple[str, ...]) -> tuple[Entity, ...]:
    """Beside an instrument named elsewhere, those named only inside a dated event's words: in "KRE
    since the SVB collapse" or "英伟达自DeepSeek发布以来", SVB and DeepSeek date the question (alone,
    as in "比特币减半以来涨了多少", the name is the subject)."""
    rest = question.lower()
    for words in event_words:
        rest = rest.replace(words.lower(), " ")
    outside = tuple(e for e in found if not e.mention or e.mention.lower() in rest)
    return outside or found


def _without_descriptions(question: str, found: tuple[Entity, ...]) -> str:
    """The question without the words that described an instrument or named a rate: "the
    WhatsApp owner" names Meta, it does not ask who owns it; "the 10-year yield" is a rate,
    not a dividend yield."""
    for entity in found:
        if (entity.read_as == "description" or entity.kind == "rate") and entity.mention:
            question = question.replace(entity.mention, " " * len(entity.mention))
    return question


def _without_anchor(question: str, time_context: TimeContext) -> str:
    """The question without the words of an event its period is anchored on."""
    if time_context.anchor and time_context.label:
        # Case aside: the label capitalises the month names the question may have typed in lower case.
        return re.sub(re.escape(time_context.label), " ", question, flags=re.I)
    return question


def analyse(question: str, now: datetime, prior: Analysis | None = None) -> Analysis:
    """Language, entities, time context and intents of a (checked) question.

    With `prior` (the previous turn's analysis), a follow-up inherits what it lacks: no
    instrument named → the previous ones; a fragment without its own period ("what about
    AMD?") → the previous period; no intent of its own → the previous intents. A new full
    question ("What's the latest news on Tesla?") keeps its own period."""
    # "Tencent's HKEX filing": the exchange is where Tencent files, not a second company.
    found = _not_event_names(venues.without_filing_venue(entity_rules.extract(question), question), question,
                             timectx.dated_event_words(question, now)) or _fragment_symbol(question, prior)
    if not found and (benchmark := market_wide.benchmark_for(question)) is not None:
        found = (benchmark,)          # "how's the market today": its own subject, the benchmark index
    time_context, clamped = _time_of(question, found, now)
    # "since earnings" dates the question; it does not ask for the earnings report.
    intents = intents_of(_without_anchor(_without_descriptions(question, found), time_context))
    filer = filer_named(question)
    # "its holdings" of a company is not a 13F question, nor those of a fund named after the filer
    # ("Vanguard S&P 500 ETF holdings").
    if filer is None or any(e.kind == "etf" and filer_named(e.name) is filer for e in found):
        intents -= {"portfolio"}
    asks_filer = "portfolio" in intents
    if asks_filer:
        # "What did Berkshire buy?" is about Berkshire's 13F, not BRK-B's price or holders.
        found = tuple(e for e in found if e.ticker not in filer.tickers
                      and not (not e.ticker and filer_named(e.name) is filer))
    inherited: list[str] = []
    # A name we do not know is the question's own subject: never the previous turn's instruments.
    unknown = () if found or asks_filer else tuple(spelling.unknown_names(question, entity_rules.alias_table()))
    own_subject = bool(unknown)
    continues = prior is not None and (bool(_CONTINUES.search(question)) or bool(_ADDS.search(question))
                                       or (not own_subject and (not found or not intents - {"compare"})))
    # (a filer named is the whole subject too)
    if prior is not None and prior.entities and not asks_filer and not own_subject:
        if not found:
            found = prior.entities
            inherited.append("entities")
        elif _ADDS.search(question):
            new = [e for e in found if e.ticker not in prior.tickers or not e.ticker]
            found = (*prior.entities, *new)
            inherited.append("entities")
    if inherited and inherited[0] == "entities":   # the trading days are the inherited instruments'
        time_context, clamped = _time_of(question, found, now)
    if continues and not time_context.explicit and prior.time_context.explicit:
        time_context = prior.time_context
        inherited.append("time")
    # A whole question of its own ("how's tesla stock been this month") asks what it says; a fragment
    # ("and tesla?", "tesla?", "那特斯拉呢") asks the previous question again of what it names.
    fragment = bool(_CONTINUES.search(question) or _ADDS.search(question)) or len(question.split()) <= 2
    own_question = bool(found) and "entities" not in inherited and not fragment
    if prior is not None and not intents - {"compare"} and prior.intents and not own_subject and not own_question:
        intents = prior.intents | intents
        inherited.append("intents")
    language = language_of(question)
    notes: tuple[str, ...] = entity_rules.notes(found, language) + tuple(_unknown_note(word, near, language)
                                                                       for word, near in unknown)
    notes += codes.unsure_notes(question, bool(found), language)
    if clamped:
        notes += (say("note.dates_clamped", language, span=DaySpan(time_context.start, time_context.end)),)
    elif time_context.anchor:         # "since earnings": the window is a guess until the date is known
        notes += (provisional_note(time_context, language),)
    if "advice" in intents:
        notes += (say("note.no_advice", language),)
    return Analysis(question, language, found, time_context, intents, tuple(inherited), notes,
                    tuple(word for word, _near in unknown))


def provisional_note(time_context: TimeContext, language: Language) -> str:
    """What the reader is told of a guessed window ("since earnings"), until a source dates it."""
    return say("note.date_provisional", language, label=time_context.label,
               span=DaySpan(time_context.start, time_context.end))


def _unknown_note(word: str, near, language: Language) -> str:
    """The note for a word that names nothing we know: "I don't know “zorblax” … did you mean …?"."""
    if not near:
        return say("note.unknown_name", language, name=word)
    named = [f"{inst.name} ({inst.ticker})" for inst in near]
    head, last = named[:-1], named[-1]
    names = say("list.items_or", language).join([say("list.sep", language).join(head), last]) if head else last
    return say("note.unknown_name_near", language, name=word, names=names)
