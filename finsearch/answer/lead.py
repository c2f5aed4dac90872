"""The answer's opening: for each intent of the question, the sentences that answer it, with the
verdict of the intent's shape, cited. One table, in the order the opening says them:

    intent            what the lead says                                          written by
    insiders          what the latest Form 4s add up to                           ownership_facts
    compare           the asked metric ranked, the winner named (yield, payout,   lead_rank, or here:
                      P/E, upside); a market cap "larger"; returns, windows said   size, ranking
    why               cause, date and size of the move (see `causes`); asked with causes, or
                      how the stock did over a period: the period's change, then  lead_period
                      its biggest moves' causes, else what happened in it
    response          what the company said back                                  lead_news
    worried           the case for worry, against it, and what to watch          lead_worried
    risks             the bad news the stories report (a 10-K's risk factors are  lead_worried
                      the detail's)
    news              the newest stories, when nothing else leads                 here
    calendar          the next report date                                        here
    surprise          reported against expected, line by line                     lead_news
    guidance          the range against the consensus, what management said       lead_news
    remarks           what was said, the sentence closest to the question         lead_news
    analyst           the mean target and its upside to the freshest price        lead_value
    dividend          yield and payout ratio, and whether earnings cover it       lead_value
    valuation …       the multiple against the industry, else trailing and        lead_value
                      forward P/E and the growth their gap implies; a market cap
    price             the freshest price ("now"), else the period's move and its  lead_value,
                      biggest day's cause                                         lead_worried

A comparison ranked by a metric answers the per-instrument intents of that metric (no yield
sentence per instrument after the yields are ranked). "price" is read in "price target" and
"share price" too: it leads only when nothing else does, or when the question asks how the
stock did or what it costs now. The detail paragraphs follow; a figure the opening gives is not
given again (`generator`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections import Counter
from collections.abc import Callable

from ..phrases import say
from ..phrases.dates import DaySpan
from ..phrases.numbers import money
from ..plan.analysis import language_of
from ..plan.intents import asks_performance
from . import facts as answer_facts
from . import lead_news, lead_value, lead_worried, ownership_facts
from .asked import Asked, asked
from .cause_sentences import cause_sentence
from .causes import Explanation, explain
from .lead_period import period_lead
from .lead_rank import RANKED_METRICS, ranked
from .markdown import escape
from .news_facts import REMARKS, report_date
from .told import Told
from .view import AnswerView

log = logging.getLogger(__name__)

_ASKS_WHAT_WAS_SAID = re.compile(r"\b(?:say|said|says|tell|told|comment|remark)|表示|说|讲", re.I)
_SMALLER = re.compile(r"\b(?:smaller|smallest|lower|less)\b|更小|较小|更低", re.I)
_VALUATION = ("valuation", "expensive", "peers")
# Intents a ranking by these metrics has answered for every instrument.
_RANKED_ANSWERS = {"dividend_yield": {"dividend"}, "payout_ratio": {"dividend"},
                   "pe_trailing": set(_VALUATION), "pe_forward": set(_VALUATION),
                   "upside": {"analyst"}}


@dataclasses.dataclass(frozen=True)
class Lead:
    sentences: tuple[str, ...] = ()
    # (source, ticker) whose absence the opening already says in its own words ("No analyst
    # data was found for NVDA, so there is no target"): the gaps paragraph leaves them out.
    stated: frozenset[tuple[str, str]] = frozenset()
    explained: tuple[Explanation, ...] = ()       # the moves a "why" lead explained

    def says(self, sentence: str) -> bool:
        return sentence in self.sentences


def opening(view: AnswerView) -> Lead:
    """The opening sentences, in the order of INTENT_LEADS, each intent once."""
    out: list[str] = []
    intents = set(view.analysis.intents)
    wanted = asked(view.analysis.question)
    if len(view.tickers) > 1 and wanted.metric in RANKED_METRICS:
        if intents & ({"compare"} | _RANKED_ANSWERS[wanted.metric]):
            intents.add("compare")
    explained: list[Explanation] = []
    valued = False
    for intent, write in INTENT_LEADS:
        if intent not in intents or (intent == "price" and "why" in intents):
            continue
        if intent == "price" and out and not wanted.now and not asks_performance(view.analysis.question):
            continue
        if intent == "news" and out:
            continue                      # the other intents' leads cite their stories already
        if intent in _VALUATION:
            if valued:
                continue                  # one valuation lead, whichever of its words the question used
            valued = True
        try:
            if intent == "why" and "price" in intents and asks_performance(view.analysis.question):
                # "How did it do since …, and why?": the period first, not one day of it
                period = period_lead(view)
                explained += period.explained
                sentences = list(period.sentences)
            elif intent == "why":
                found = [e for t in view.tickers if (e := explain(view, t)) is not None]
                explained += found
                sentences = [cause_sentence(e, view) for e in found]
            else:
                sentences = write(view, wanted)
        except Exception:   # a payload shape nobody foresaw: the detail still says what it can
            log.exception("could not write the %s opening", intent)
            sentences = []
        if intent == "compare" and sentences and wanted.metric in _RANKED_ANSWERS:
            intents -= _RANKED_ANSWERS[wanted.metric]
        out += [s for s in sentences if s and s not in out]
    stated = frozenset(("analyst", t) for t in view.tickers
                       if "analyst" in intents and view.first("analyst", t) is None)
    return Lead(tuple(_sized_once(out, explained, view)), stated, tuple(explained))


def _sized_once(sentences: list[str], explained: list[Explanation], view: AnswerView) -> list[str]:
    """A move's cause after a sentence that gave the move for its day (a one-day period's change)
    says only the cause: "fell 5.21% yesterday (10-14)" is not followed by "fell 5.21% on 10-14 after …"."""
    out = list(sentences)
    for explanation in explained:
        sized = cause_sentence(explanation, view)
        if sized in out:
            at = out.index(sized)
            out[at] = cause_sentence(explanation, view, Told.of(out[:at]))
    return out


# -- comparisons ----------------------------------------------------------------------------

def compare(view: AnswerView, wanted: Asked) -> list[str]:
    return ranked(view, wanted) or size(view, wanted) or ranking(view)


def size(view: AnswerView, wanted: Asked) -> list[str]:
    """Which is larger (or smaller, when that is asked) by market cap."""
    if wanted.metric != "market_cap" and "valuation" not in view.analysis.intents:
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
        say("lead.window_of", view.language, who=view.who(item.ticker), span=DaySpan(start, end))
        for item, (start, end) in odd)
    return [say("lead.window_differs", view.language, ranking=sentence.rstrip("。."), caveats=caveats,
                usual_span=DaySpan(*usual))]


# -- one instrument ---------------------------------------------------------------------------

def calendar(view: AnswerView, wanted: Asked) -> list[str]:
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
                           publisher=view.publisher(found.item),
                           ref=view.ref(found.item)))
        else:
            out.append(say("lead.no_report_date", language, who=view.who(ticker)))
    return out


def remarks(view: AnswerView, wanted: Asked) -> list[str]:
    """What X said, deliveries and the like: the sentence closest to the question."""
    if view.analysis.intents & {"surprise", "guidance", "response"}:
        return []           # their sentences quote the story already
    topic = REMARKS if _ASKS_WHAT_WAS_SAID.search(view.analysis.question) else None
    return lead_news.remarks(view, topic)


def valuation(view: AnswerView, wanted: Asked) -> list[str]:
    if wanted.metric == "market_cap" or (wanted.metric is None and "market cap" in view.analysis.question.lower()):
        return market_cap(view, wanted)
    found = lead_value.valuation(view)
    if found:
        return found
    if "expensive" in view.analysis.intents or wanted.metric in ("pe_trailing", "pe_forward"):
        # "Is it expensive?" with no multiple: say so, then what the analysts' target says of the price
        return [view.not_found("valuation", t) for t in view.tickers] + lead_value.upsides(view)
    return market_cap(view, wanted)


def market_cap(view: AnswerView, wanted: Asked) -> list[str]:
    if len(view.tickers) > 1:
        return size(view, wanted)
    return [s for t in view.tickers if (item := view.first("quote", t)) and item.quote and item.quote.market_cap
            for s in answer_facts.quote(item, view.ref(item), view.names, view.language)]


def price(view: AnswerView, wanted: Asked) -> list[str]:
    return lead_value.price_now(view) if wanted.now else lead_worried.performance(view)


LATEST_STORIES = 3


def latest(view: AnswerView, wanted: Asked) -> list[str]:
    """"What's the news?": the newest stories in the answer's language, said in one sentence (the
    headlines list below then holds the rest). Only when nothing else leads."""
    out, language = [], view.language
    for ticker in view.tickers:
        stories = [e for e in view.stories(ticker) if e.published and language_of(e.title) == language]
        stories.sort(key=lambda e: e.published or "", reverse=True)
        if not stories:
            continue
        items = say("list.semi", language).join(
            say("lead.latest_item", language, title=escape(e.title.rstrip(".。 ")), ref=view.ref(e),
                publisher=view.publisher(e), date=view.day_text(e))
            for e in stories[:LATEST_STORIES])
        out.append(say("lead.latest", language, who=view.who(ticker), items=items))
    return out


def insider_trades(view: AnswerView, wanted: Asked) -> list[str]:
    """What the latest Form 4s add up to (sales, purchases, how many filings read), before
    each filing's own sentence."""
    out = []
    for ticker in view.tickers:
        summary = next((e for e in view.finance("sec_insiders", ticker) if (e.data or {}).get("summary")), None)
        if summary is not None:
            out += ownership_facts.insiders(summary, view.ref(summary), view.names, view.language)
    return out


def _no_asked(write: Callable[[AnswerView], list[str]]) -> Callable[[AnswerView, Asked], list[str]]:
    return lambda view, wanted: write(view)


INTENT_LEADS: tuple[tuple[str, Callable[[AnswerView, Asked], list[str]]], ...] = (
    # "why" is written by `opening` itself, which keeps the explanations for the paragraph after the lead.
    ("insiders", insider_trades), ("compare", compare), ("why", _no_asked(lambda view: [])),
    ("response", _no_asked(lead_news.response)), ("worried", _no_asked(lead_worried.worried)),
    ("calendar", calendar), ("surprise", _no_asked(lead_news.results)), ("guidance", _no_asked(lead_news.guidance)),
    ("remarks", remarks), ("analyst", _no_asked(lead_value.targets)), ("dividend", lead_value.dividend),
    ("valuation", valuation), ("expensive", valuation), ("peers", valuation),
    ("risks", _no_asked(lead_worried.risks)), ("news", latest),
    # Last: "price" is read in "price target" and "stock price" too, where it is not what was asked.
    ("price", price),
)
