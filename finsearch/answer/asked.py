"""What a question asks for beyond its intents: the metric a comparison ranks by, whether it
wants the price now, whether it is a yes/no question about two instruments, and which way
("cheaper", "highest") it ranks. Read from the question's words, in both languages.

    asked(question) → Asked(metric="pe_trailing", ascending=True, yes_no=True, now=False, …)
"""

from __future__ import annotations

import dataclasses
import re
from typing import Literal

Metric = Literal["payout_ratio", "dividend_yield", "pe_forward", "pe_trailing", "market_cap", "upside", "return"]

# In the order tried: the more specific words first ("dividend yield" before "yield", "forward P/E" before "P/E").
_METRICS: tuple[tuple[Metric, re.Pattern], ...] = tuple((m, re.compile(p, re.I)) for m, p in (
    # "payout", and the ratio asked in words: "how much of its profit does it pay out", "利润的多少用于分红"
    ("payout_ratio", r"\bpayout|\bpa(?:y|ys|id|ying)\s+out\b[^.?!]{0,25}\b(?:profits?|earnings|income)\b"
                     r"|\b(?:how\s+much|what\s+(?:share|part|portion|proportion|percentage))\s+of\s+(?:its|their|the)\s+(?:net\s+)?(?:profits?|earnings|income)"
                     r"|派息比例|分红比例|分红率|股利支付率|派息率|利润的?(?:多少|几成|百分之几|比例)"
                     r"|\bdividend\b[^.?!]{0,20}\b(?:safe|sustainable|covered|cover|at\s+risk|secure)"
                     r"|分红[^。？！]{0,6}(?:可持续|安全|稳)"),
    ("dividend_yield", r"\byields?\b|\bdividends?\b|股息|分红|派息"),
    ("pe_forward", r"\bforward\s+(?:p/?e|earnings|multiple)|预期市盈率|远期市盈率|动态市盈率"),
    ("pe_trailing", r"\bp/?e\b|\bpe\s+ratio|price[- ]to[- ]earnings|\bearnings\s+multiple|\bmultiples?\b"
                    r"|\bvaluations?\b|\bvalued\b|市盈率|估值"
                    r"|\bcheap|\bexpensive|\bpricier|\bdearer|\bovervalued|\bundervalued"
                    r"|贵吗|贵不贵|太贵|更贵|最贵|偏贵|较贵|昂贵|便宜|高估|低估"),
    ("upside", r"\bupside\b|上涨空间|上行空间|\bpotential\b"),
    ("market_cap", r"market\s+(?:cap|value)|\b(?:bigger|larger|smaller|biggest|largest|smallest)\b|市值|规模"),
))
# Words that rank from the bottom: "cheaper", "lowest", "最低".
_ASCENDING = re.compile(r"\b(?:cheap\w*|lowest|lower|smaller|smallest|least|less)\b|便宜|最低|更低|更小|最小", re.I)
_DESCENDING = re.compile(r"\b(?:expensive|pricier|dearer|highest|higher|bigger|biggest|larger|largest|most|more)\b"
                         r"|更贵|最贵|贵吗|贵不贵|较贵|偏贵|昂贵|更高|最高|更大|最大|更多", re.I)
# "Is A cheaper than B?", "A比B贵吗": a question a ranking answers yes or no.
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|does|do|did)\b[^?]*\bthan\b"
                     r"|比[^。？！]{1,20}(?:吗|么|嘛)\s*[？?]?\s*$", re.I)
_NOW = re.compile(r"\b(?:now|right\s+now|currently|current|today|latest|at\s+the\s+moment)\b"
                  r"|\bwhat(?:'s|\s+is|\s+was)\b[^?]{0,40}\b(?:stock|share)?\s*price\b(?!\s+target)"
                  r"|\btrading\s+at\b|\bhow\s+much\s+is\b|\bquote\b"
                  r"|现在|目前|当前|最新|今天|实时|股价多少|多少钱|现价", re.I)
_SAFETY = re.compile(r"\b(?:safe|sustainable|covered|cover|at\s+risk|secure|cut)\b"
                     r"|可持续|安全|稳不稳|稳定吗|能否维持", re.I)


@dataclasses.dataclass(frozen=True)
class Asked:
    metric: Metric | None          # what a comparison or a valuation question ranks by
    ascending: bool                # rank from the lowest (cheapest P/E, smallest cap)
    yes_no: bool                   # "Is A … than B?": the ranking answers yes or no
    now: bool                      # the price (or figure) as of now
    safety: bool                   # "is the dividend safe?": the payout ratio and its cover

    @property
    def lower_is_better(self) -> bool:
        return self.metric in ("pe_trailing", "pe_forward")


def asked(question: str) -> Asked:
    metric = next((m for m, pattern in _METRICS if pattern.search(question)), None)
    up, down = bool(_ASCENDING.search(question)), bool(_DESCENDING.search(question))
    if up != down:
        ascending = up
    else:                   # no word either way: P/E ranks cheapest first, the rest highest first
        ascending = metric in ("pe_trailing", "pe_forward")
    return Asked(metric, ascending, bool(_YES_NO.search(question)), bool(_NOW.search(question)),
                 bool(_SAFETY.search(question)))
