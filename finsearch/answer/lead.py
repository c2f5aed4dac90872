"""The answer's opening: one sentence per intent of the question that answers it, cited.

    compare + valuation  → which is larger by market cap, with both values
    compare (prices)     → the ranking by return, saying where a window differs
    why                  → the biggest move and its cause (see `causes`)
    calendar             → the next report date: the earnings source's, else the news'
    surprise             → beat or miss: the reported EPS against its estimate, else the news'
    guidance, remarks    → the story that speaks to it, quoted (what was said, deliveries …)
    analyst              → the consensus target, or plainly that there is none
    dividend             → the latest dividend
    valuation            → the market cap
    price                → the direction and size of the move over the period

The detail paragraphs follow; a sentence the opening already says is not said twice.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections import Counter
from collections.abc import Callable

from ..phrases import say
from ..phrases.numbers import decimal, finite, money
from . import facts as answer_facts
from . import ownership_facts
from .causes import cause_sentence
from .markdown import escape
from .news_facts import GUIDANCE, REMARKS, best_story, news_verdict, report_date
from .view import AnswerView

log = logging.getLogger(__name__)

_BEYOND_EPS = re.compile(r"\bdeliver|\brevenue|\bsales\b|\bguidance|\bproduction|交付|营收|销量|收入", re.I)
_ASKS_WHAT_WAS_SAID = re.compile(r"\b(?:say|said|says|tell|told|comment|remark)|表示|说|讲", re.I)
_SMALLER = re.compile(r"\b(?:smaller|smallest|lower|less)\b|更小|较小|更低", re.I)


@dataclasses.dataclass(frozen=True)
class Lead:
    sentences: tuple[str, ...] = ()
    # (source, ticker) whose absence the opening already says in its own words ("No analyst
    # data was found for NVDA, so there is no target"): the gaps paragraph leaves them out.
    stated: frozenset[tuple[str, str]] = frozenset()

    def says(self, sentence: str) -> bool:
        return sentence in self.sentences


def opening(view: AnswerView) -> Lead:
    """The opening sentences, in the order of INTENT_LEADS, each intent once."""
    out: list[str] = []
    intents = view.analysis.intents
    for intent, write in INTENT_LEADS:
        if intent not in intents or (intent == "price" and "why" in intents):
            continue
        try:
            sentences = write(view)
        except Exception:   # a payload shape nobody foresaw: the detail still says what it can
            log.exception("could not write the %s opening", intent)
            sentences = []
        out += [s for s in sentences if s and s not in out]
    stated = frozenset(("analyst", t) for t in view.tickers
                       if "analyst" in intents and view.first("analyst", t) is None)
    return Lead(tuple(out), stated)


# -- comparisons ----------------------------------------------------------------------------

def size(view: AnswerView) -> list[str]:
    """Which is larger (or smaller, when that is asked) by market cap."""
    if "valuation" not in view.analysis.intents:
        return []
    capped = [(q, item) for t in view.tickers if (item := view.first("quote", t)) is not None
              and (q := item.quote) is not None and q.market_cap]
    if len(capped) < 2:
        return []
    language = view.language
    if len({q.currency for q, _ in capped}) > 1:     # no rate of exchange here: no verdict either
        caps = say("list.sep", language).join(
            say("lead.cap_of", language, who=view.who(q.ticker), value=money(q.market_cap, q.currency, language))
            for q, _ in capped)
        return [say("lead.caps_currencies", language, caps=caps, refs=view.refs(item for _, item in capped))]
    smaller = bool(_SMALLER.search(view.analysis.question))
    capped.sort(key=lambda pair: pair[0].market_cap, reverse=not smaller)
    others = say("list.sep", language).join(
        say("lead.cap_of", language, who=view.who(q.ticker), value=money(q.market_cap, q.currency, language))
        for q, _ in capped[1:])
    best = capped[0][0]
    return [say("lead.smaller" if smaller else "lead.larger", language, best=view.who(best.ticker),
                value=money(best.market_cap, best.currency, language), others=others,
                refs=view.refs(item for _, item in capped))]


def ranking(view: AnswerView) -> list[str]:
    """Several instruments ranked by return, with the instruments whose prices cover other
    days than most of them named in the same sentence."""
    if "valuation" in view.analysis.intents and size(view):
        return []
    histories = [(item, view.ref(item)) for t in view.tickers if (item := view.first("price_history", t))]
    sentence = answer_facts.comparison(histories, view.names, view.language, view.when)
    if not sentence:
        return []
    spans = {item.id: (item.prices.stats.start_date, item.prices.stats.end_date) for item, _ in histories
             if item.prices and item.prices.stats.return_pct is not None}
    # The days most of them cover; on a tie, the latest-ending (the one the others fall short of).
    counts = Counter(spans.values())
    usual = max(counts, key=lambda span: (counts[span], span[1] or "")) if spans else None
    odd = [(item, spans[item.id]) for item, _ in histories if item.id in spans and spans[item.id] != usual]
    if not odd or usual is None:
        return [sentence]
    caveats = say("list.sep", view.language).join(
        say("lead.window_of", view.language, who=view.who(item.ticker), start=start or "", end=end or "")
        for item, (start, end) in odd)
    return [say("lead.window_differs", view.language, ranking=sentence.rstrip("。."), caveats=caveats,
                usual_start=usual[0] or "", usual_end=usual[1] or "")]


def compare(view: AnswerView) -> list[str]:
    return size(view) or ranking(view)


# -- one instrument ---------------------------------------------------------------------------

def causes(view: AnswerView) -> list[str]:
    return [s for t in view.tickers if (s := cause_sentence(view, t))]


def performance(view: AnswerView) -> list[str]:
    if len(view.tickers) > 1:
        return []       # the ranking answers it
    out = []
    for ticker in view.tickers:
        item = view.first("price_history", ticker)
        if item is not None:
            out += answer_facts.price_history(item, view.ref(item), view.names, view.language, view.when)[:1]
    return out


def calendar(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        item = view.first("earnings", ticker)
        next_date = (item.data or {}).get("next_date") if item is not None else None
        if isinstance(next_date, str) and next_date:
            out.append(say("lead.next_report", language, who=view.who(ticker), date=next_date[:10],
                           ref=view.ref(item)))
            continue
        found = report_date(view.stories(ticker))
        if found is not None:
            key = "lead.next_report_news" if found.day >= view.today else "lead.reported_news"
            out.append(say(key, language, who=view.who(ticker), date=found.day.isoformat(),
                           publisher=escape(found.item.publisher or say("answer.a_report", language)),
                           ref=view.ref(found.item)))
        else:
            out.append(say("lead.no_report_date", language, who=view.who(ticker)))
    return out


def surprise(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        said = _reported_verdict(view, ticker)
        found = news_verdict(view.stories(ticker), view.topic)
        if said:
            out.append(said)
        if found is not None and (not said or _asks_beyond_eps(view)):
            out.append(say("lead.verdict_news", language, who=view.who(ticker),
                           verdict=say(f"lead.verdict.{found.verdict}", language),
                           publisher=escape(found.item.publisher or say("answer.a_report", language)),
                           date=(found.item.published or "")[:10], title=escape(found.text.rstrip(".。 ")),
                           ref=view.ref(found.item)))
        elif not said:
            out.append(say("lead.no_verdict", language, who=view.who(ticker)))
    return out


def _reported_verdict(view: AnswerView, ticker: str) -> str | None:
    item = view.first("earnings", ticker)
    rows = (item.data or {}).get("history") if item is not None else None
    history = [h for h in rows if isinstance(h, dict) and finite(h.get("eps_reported")) is not None
               and finite(h.get("eps_estimate")) is not None] if isinstance(rows, list) else []
    if not history:
        return None
    last = max(history, key=lambda h: str(h.get("date")))
    gap = last["eps_reported"] - last["eps_estimate"]
    verdict = "beat" if gap > 0 else "missed" if gap < 0 else "met"
    return say("lead.verdict_eps", view.language, who=view.who(ticker),
               verdict=say(f"lead.verdict.{verdict}", view.language), eps=decimal(last["eps_reported"]),
               estimate=decimal(last["eps_estimate"]), date=str(last.get("date"))[:10], ref=view.ref(item))


def _asks_beyond_eps(view: AnswerView) -> bool:
    """The question names something other than earnings per share (deliveries, revenue …)."""
    return bool(_BEYOND_EPS.search(view.analysis.question))


def guidance(view: AnswerView) -> list[str]:
    """What the company said it expects: only the news has it."""
    return [_story_sentence(view, found) if (found := best_story(view.stories(t), view.topic, GUIDANCE))
            else say("lead.no_guidance", view.language, who=view.who(t)) for t in view.tickers]


def remarks(view: AnswerView) -> list[str]:
    """What X said, deliveries and the like: the story closest to the question."""
    if view.analysis.intents & {"surprise", "guidance"}:
        return []           # their sentences quote the story already
    topic = REMARKS if _ASKS_WHAT_WAS_SAID.search(view.analysis.question) else None
    return [_story_sentence(view, found) if (found := best_story(view.stories(t), view.topic, topic))
            else say("lead.no_story", view.language, who=view.who(t)) for t in view.tickers]


def _story_sentence(view: AnswerView, found) -> str:
    return say("lead.news_says", view.language,
               publisher=escape(found.item.publisher or say("answer.a_report", view.language)),
               date=(found.item.published or "")[:10] or say("answer.undated", view.language),
               text=escape(found.text.rstrip(".。 ")), ref=view.ref(found.item))


def targets(view: AnswerView) -> list[str]:
    out = []
    for ticker in view.tickers:
        item = view.first("analyst", ticker)
        said = answer_facts.analyst(item, view.ref(item), view.names, view.language)[:1] if item else []
        out += said or [say("lead.no_analyst", view.language, who=view.who(ticker))]
    return out


def dividend(view: AnswerView) -> list[str]:
    return [s for t in view.tickers if (item := view.first("dividends", t))
            for s in answer_facts.dividends(item, view.ref(item), view.names, view.language)[:1]]


def market_cap(view: AnswerView) -> list[str]:
    if len(view.tickers) > 1:
        return size(view)
    return [s for t in view.tickers if (item := view.first("quote", t)) and item.quote and item.quote.market_cap
            for s in answer_facts.quote(item, view.ref(item), view.names, view.language)]


def insider_trades(view: AnswerView) -> list[str]:
    """What the latest Form 4s add up to (sales, purchases, how many filings read), before
    each filing's own sentence."""
    out = []
    for ticker in view.tickers:
        summary = next((e for e in view.finance("sec_insiders", ticker) if (e.data or {}).get("summary")), None)
        if summary is not None:
            out += ownership_facts.insiders(summary, view.ref(summary), view.names, view.language)
    return out


INTENT_LEADS: tuple[tuple[str, Callable[[AnswerView], list[str]]], ...] = (
    ("insiders", insider_trades),
    ("compare", compare), ("why", causes), ("calendar", calendar), ("surprise", surprise), ("guidance", guidance),
    ("remarks", remarks), ("analyst", targets), ("dividend", dividend), ("valuation", market_cap),
    # Last: "price" is read in "price target" and "stock price" too, where it is not what was asked.
    ("price", performance),
)
