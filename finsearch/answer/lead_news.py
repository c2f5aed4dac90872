"""Leads that only what was reported can answer, read sentence by sentence (`stated`):

    results   → beat or miss, line by line: EPS reported against its estimate (the earnings
                source, else a story), revenue and profit against what analysts expected (stories)
    guidance  → the range the company guided to and the consensus it is set against, then what
                management said
    response  → what the company said in answer to the news: its announcement or the story that
                quotes it; in another language, the points it made, in the answer's
    remarks   → what was said, the sentence closest to the question

A "not found" is said only after every story about the instrument was read, naming how many
and what kinds of data were read.
"""

from __future__ import annotations

import re

from ..phrases import say
from ..phrases.numbers import decimal
from ..plan.analysis import language_of
from .cause_kinds import kinds_in
from .cause_sentences import quote
from .markdown import escape
from .news_facts import REMARKS, news_verdict
from .reader import Passage
from .stated import GUIDANCE, LINE_KEYS, Versus, amount, guidance_in, is_guidance, reply_points, results_vs_expected
from .view import AnswerView, content_words, question_overlap

_MANAGEMENT = re.compile(r"\b(?:chief\s+executive|ceo|cfo|chief\s+financial|management|chairman|president)\b"
                         r"|管理层|董事长|总裁|首席执行官|财务总监", re.I)
def _story_refs(view: AnswerView, passages: list[Passage]) -> str:
    return view.refs(p.item for p in passages)


# -- results against expectations --------------------------------------------------------------------

def results(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        stories = view.stories(ticker)
        stated = results_vs_expected(view.reader.find(stories, None, view.topic))
        parts: list[tuple[str, str, str]] = []        # (verdict, words, refs)
        earnings = view.first("earnings", ticker)
        reported, estimate = view.current("eps_reported", ticker), view.current("eps_estimate", ticker)
        if reported and estimate and reported.value.item is earnings and estimate.value.item is earnings:
            gap = reported.value.value - estimate.value.value
            verdict = "beat" if gap > 0 else "missed" if gap < 0 else "met"
            parts.append((verdict, say("lead.line_vs", language, line=say("facts.line.eps", language),
                                       reported=decimal(reported.value.value), expected=decimal(estimate.value.value)),
                          view.refs([earnings])))
            stated = [v for v in stated if v.line != "eps"]
        for versus in stated:
            parts.append((versus.verdict, _line_words(view, versus), view.refs([versus.passage.item])))
        if parts:
            verdicts = {v for v, _, _ in parts}
            verdict = verdicts.pop() if len(verdicts) == 1 else "mixed"
            lines = say("list.sep", language).join(
                words if verdict != "mixed" else say("lead.line_verdict", language, words=words,
                                                     verdict=say(f"lead.verdict.{v}", language))
                for v, words, _ in parts)
            out.append(say(f"lead.results.{verdict}", language, who=view.who(ticker), lines=lines,
                           refs="".join(dict.fromkeys(r for _, _, r in parts))))
            continue
        found = news_verdict(stories, view.topic)
        if found is not None and language_of(found.text) != language:      # never a headline left untranslated
            out.append(say("lead.verdict_news_foreign", language, who=view.who(ticker),
                           verdict=say(f"lead.verdict.{found.verdict}", language),
                           publisher=view.publisher(found.item),
                           date=view.day_text(found.item), ref=view.ref(found.item)))
        elif found is not None:
            out.append(say("lead.verdict_news", language, who=view.who(ticker),
                           verdict=say(f"lead.verdict.{found.verdict}", language),
                           publisher=view.publisher(found.item),
                           date=view.day_text(found.item), title=escape(found.text.rstrip(".。 ")),
                           ref=view.ref(found.item)))
        else:
            out.append(say("lead.no_verdict", language, who=view.who(ticker)))
    return out


def _line_words(view: AnswerView, versus: Versus) -> str:
    return say("lead.line_vs", view.language, line=say(f"facts.line.{LINE_KEYS[versus.line]}", view.language),
               reported=amount(view.language, versus.reported, versus.passage),
               expected=amount(view.language, versus.expected, versus.passage))




# -- guidance -----------------------------------------------------------------------------------------

def guidance(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        stories = view.stories(ticker)
        passages = view.reader.find(stories, GUIDANCE, view.topic)
        found = guidance_in(passages)
        if found is not None:
            values = {"who": view.who(ticker), "low": amount(view.language, found.low, found.passage),
                      "high": amount(view.language, found.high, found.passage) if found.high else "",
                      "line": say(f"facts.line.{LINE_KEYS[found.line]}" if found.line else "lead.guidance_line",
                                  language),
                      "publisher": view.publisher(found.passage.item),
                      "date": view.day_text(found.passage.item), "ref": view.ref(found.passage.item)}
            if found.consensus is not None and found.verdict is not None:
                values["versus"] = say("lead.guidance_vs", language, verdict=say(f"lead.vs.{found.verdict}", language),
                                       consensus=amount(view.language, found.consensus, found.passage))
            sentence = say("lead.guidance_range" if found.high else "lead.guidance_value", language,
                           **{"versus": "", **values})
            out.append(sentence)
        elif passages:        # no figure to state: the sentence that says most about the outlook
            passages.sort(key=lambda p: (not is_guidance(p.text), p.headline))
            out.append(_said(view, passages[0]))
        else:
            out.append(view.not_found("guidance", ticker))
            continue
        said = [p for p in view.reader.find(stories, _MANAGEMENT, view.topic) if REMARKS.search(p.text)
                and p.language == language and (found is None or p is not found.passage)]
        if said:
            out.append(_said(view, said[0]))
    return out


def _said(view: AnswerView, passage: Passage) -> str:
    language = view.language
    return say("lead.news_says", language, publisher=view.publisher(passage.item),
               date=view.day_text(passage.item),
               text=quote(passage.text), ref=view.ref(passage.item))


# -- the company's response ------------------------------------------------------------------------------

# Where a company speaks for itself: its announcements and filings.
SAID_BY_ITSELF = frozenset({"cn_announcements", "hk_announcements", "sec_filings"})
RESPONDS = re.compile(r"\brespon\w*|\breplied\b|\bstatement\b|\bsays\b|\bsaid\b|回应|回复|澄清|表示|说明", re.I)


def response(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        passages = [p for p in view.reader.find(view.stories(ticker), None, view.topic)
                    if p.item.source in SAID_BY_ITSELF or RESPONDS.search(p.text) or reply_points(p.text)]
        if not passages:
            out.append(view.not_found("response", ticker))
            continue
        ranked = sorted(passages, key=lambda p: (-(p.item.source in SAID_BY_ITSELF) - bool(RESPONDS.search(p.text))
                                                 - len(reply_points(p.text)) + 0.5 * p.headline,
                                                 p.language != language))
        mine = [p for p in ranked if p.language == language]
        best = mine[0] if mine else ranked[0]
        who, day = view.who(ticker), view.day_text(best.item)
        if best.language == language:
            out.append(say("lead.response", language, who=who, date=day, text=quote(best.text),
                           publisher=view.publisher(best.item),
                           ref=view.ref(best.item)))
        points = list(dict.fromkeys(point for p in ranked if p.language != language for point in reply_points(p.text)))
        foreign = [p for p in ranked if p.language != language and reply_points(p.text)]
        if points and foreign:
            out.append(say("lead.response_points", language, who=who, date=view.day_text(foreign[0].item),
                           points=say("list.sep", language).join(say(f"reply.{p}", language) for p in points),
                           refs=_story_refs(view, foreign[:2])))
        elif best.language != language:
            out.append(say("lead.response_foreign", language, who=who, date=day,
                           publisher=view.publisher(best.item),
                           ref=view.ref(best.item)))
    return out


# -- what was said ----------------------------------------------------------------------------------------

def remarks(view: AnswerView, topic: re.Pattern | None) -> list[str]:
    out, language = [], view.language
    asked_kinds = [k for k in kinds_in(view.topic) if k.id not in ("results", "policy")]
    for ticker in view.tickers:
        passages = view.reader.find(view.stories(ticker), topic, view.topic)
        asked = [p for p in passages if _overlaps(view, p)] or ([] if topic is None else passages)
        if asked:
            out.append(_said(view, asked[0]))
            continue
        # What the question asks about, named in a story in another language ("competition": 竞争)
        other = next(((p, k) for p in view.reader.find(view.stories(ticker), None, view.topic)
                      for k in asked_kinds if k.named_in(p.text)), None)
        if other is not None:
            passage, kind = other
            out.append(say("lead.remarks_foreign", language, who=view.who(ticker),
                           phrase=say(f"cause.kind.{kind.id}", language),
                           publisher=view.publisher(passage.item),
                           date=view.day_text(passage.item), ref=view.ref(passage.item)))
        else:
            out.append(view.not_found("remarks", ticker))
    return out


def _overlaps(view: AnswerView, passage: Passage) -> bool:
    return not content_words(view.topic) or question_overlap(view.topic, passage.text) > 0

