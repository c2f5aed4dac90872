"""Time expressions anchored on events, in English and Chinese (same rule shape as rules_en).

"since the Fed cut", "after the stimulus", "自9月降息以来": from the event's date (the table in
`events`) up to today; "during the COVID crash": the event's own days; "ahead of the
election": from today up to an event still to come. "since earnings", "since launch",
"上市以来": the company's date is not in the words, so the span is a provisional guess
marked with its anchor, for a later stage that knows the date to replace.
"""

from __future__ import annotations

import re
from datetime import date

from . import events
from .calendar_math import Anchored, Span, add_months, span_back
from .events import EventKind
from .words import MONTH_RE, MONTHS, zh_number

RULES: list[tuple[re.Pattern, object]] = []

_SIZE = r"(?:(?:first|jumbo|big|half[\s-]point|quarter[\s-]point|\d{2}\s*(?:bp|bps|basis[\s-]points?))\s+)?"
# Who acted, before "[September] cut": the Fed unless the words or the question say China.
_EN_WHO = (r"(?:(?:fed(?:eral\s+reserve)?|fomc|powell|pboc|people'?s\s+bank(?:\s+of\s+china)?|china|beijing)"
           r"(?:'s)?\s+)?")
_ZH_WHO = r"(?:美联储|美聯儲|联储|FOMC|美国|央行|人民银行|人行|中国央行|中国人民银行|中国)?"
_FED_WORDS = re.compile(r"\bfed|fomc|powell|美联储|美聯儲|联储|美国", re.I)
_CHINA = re.compile(r"中国|央行|人民银行|人行|A股|沪深|上证|深证|LPR|PBOC|People'?s\s+Bank|China|Chinese|yuan"
                    r"|人民币", re.I)
_EN_WORDS: dict[tuple[EventKind, ...], str] = {
    ("fed_cut",): _SIZE + r"(?:(?:interest[\s-]+)?rate[\s-]+)?cuts?(?:\s+(?:interest\s+)?rates)?"
                  r"|(?:interest\s+)?rates\s+were\s+cut|(?:started|began)\s+cutting|pivot(?:ed)?",
    ("fed_hike",): r"(?:last\s+|latest\s+)?(?:(?:interest[\s-]+)?rate[\s-]+)?hike",
    ("china_stimulus",): r"(?:(?:china|chinese|beijing|pboc)(?:'s)?\s+)?(?:(?:big|huge|massive|september|"
                         r"policy|economic)\s+)*stimulus(?:\s+(?:announcement|package|blitz|measures|news))?",
    ("us_election",): r"(?:(?:us|u\.s\.|american|presidential|general)\s+)*election(?:\s+results?)?"
                      r"|trump(?:'s)?\s+(?:win|victory|election)|trump\s+won",
    ("btc_halving",): r"(?:(?:bitcoin|btc)(?:'s)?\s+)?halving",
    ("covid_crash",): r"(?:covid(?:-19)?|corona(?:virus)?|the\s+pandemic|pandemic)(?:\s+(?:crash|sell-?off|"
                      r"lows?|bottom|began|started|hit))?",
    ("covid_crash", "lehman"): r"(?:market\s+|stock\s+market\s+)?crash",
    ("lehman",): r"lehman(?:\s+brothers)?(?:\s+collapse)?|(?:global\s+)?financial\s+crisis|gfc",
    ("svb",): r"svb(?:'s)?(?:\s+(?:collapse|failure))?|silicon\s+valley\s+bank(?:'s)?(?:\s+(?:collapse|failure))?"
              r"|(?:regional\s+)?banking\s+crisis",
    ("ukraine_invasion",): r"(?:russia(?:'s)?\s+)?invasion\s+of\s+ukraine|russia\s+invaded\s+ukraine"
                           r"|(?:the\s+)?(?:ukraine|russia-ukraine)\s+(?:war|invasion)|war\s+in\s+ukraine",
    ("chatgpt",): r"chatgpt(?:\s+(?:launch(?:ed)?|came\s+out|was\s+released|release))?",
    ("spot_btc_etf",): r"(?:spot\s+)?(?:bitcoin|btc)\s+etfs?(?:\s+(?:approval|launch|were\s+approved|launched))?"
                       r"|etf\s+approval",
    ("deepseek",): r"deepseek(?:\s+(?:sell-?off|shock|crash|moment|news|launch|r1))?",
    ("liberation_day",): r"liberation\s+day(?:\s+tariffs)?|(?:trump(?:'s)?\s+)?(?:reciprocal\s+)?tariffs?\s+"
                         r"(?:announcement|were\s+announced)|(?:trump(?:'s)?\s+)?reciprocal\s+tariffs",
}
_ZH_WORDS: dict[tuple[EventKind, ...], str] = {
    ("fed_cut",): r"(?:宣布)?(?:首次|本轮首次|首度|大幅|[0-9五二十]+个基点)?(?:降准)?降息",
    ("fed_hike",): r"(?:最后一次|上次)?加息",
    ("china_stimulus",): r"(?:经济)?刺激政策(?:出台|发布|公布)?|(?:一揽子|增量)(?:金融|经济)?政策(?:出台|发布)?"
                         r"|(?:9\s*[·.\-]\s*24|924)(?:行情|新政)?|国新办发布会",
    ("us_election",): r"(?:美国)?(?:总统)?大选(?:结果)?|特朗普(?:胜选|当选|赢得大选)",
    ("btc_halving",): r"(?:比特币)?减半",
    ("covid_crash",): r"(?:新冠)?疫情(?:爆发|暴跌)?|新冠",
    ("lehman",): r"(?:2008年)?金融危机|雷曼(?:兄弟)?(?:倒闭|破产)?",
    ("svb",): r"硅谷银行(?:倒闭|破产|事件)?|SVB(?:事件)?",
    ("ukraine_invasion",): r"俄乌(?:冲突|战争)(?:爆发)?|俄罗斯入侵乌克兰",
    ("chatgpt",): r"ChatGPT(?:发布|推出|问世|上线)?",
    ("spot_btc_etf",): r"(?:现货)?比特币ETF(?:获批|批准|上市)?",
    ("deepseek",): r"DeepSeek(?:发布|冲击|爆火)?|深度求索",
    ("liberation_day",): r"(?:对等|解放日)关税(?:公布|宣布|出台)?|解放日",
}

_EN_LEAD = (r"\b(?P<lead>since|after|following|post|during|through|before|ahead\s+of|until|into|heading\s+into)"
            r"[\s-]+(?:(?:the|this|that|its|their|last|latest|recent|most\s+recent)\s+)*")
_EN_WHEN = _EN_WHO + r"(?:" + MONTH_RE + r"(?:\s+(?P<year>\d{4}))?(?:'s)?\s+|(?P<year2>\d{4})(?:'s)?\s+)?"
# … or after it: "since the Fed rate cut in September (2024)".
_EN_WHEN_AFTER = (r"(?:\s+in\s+" + MONTH_RE.replace("(?P<month>", "(?P<month_after>")
                  + r"(?:\s+(?P<year_after>\d{4}))?)?")
_ZH_WHEN = (r"(?P<lead>自从|自|从)?" + _ZH_WHO + r"(?:(?P<year>(?:19|20)\d{2})\s*年)?"
            r"(?:(?P<month>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月份?)?的?" + _ZH_WHO)
_ZH_AFTER = r"\s*(?P<after>以来|之后|以后|后|至今|到现在|期间|前|之前)"

# "since …" opens the window up to today, "during …" is the event itself, "before …" looks ahead.
_DURING = {"during", "through", "期间"}
_BEFORE = {"before", "ahead of", "until", "into", "heading into", "前", "之前"}


def rule(pattern: str, flags: int = re.I):
    def register(handler):
        RULES.append((re.compile(pattern, flags), handler))
        return handler
    return register


def _event_handler(kinds: tuple[EventKind, ...], chinese: bool):
    def handler(m: re.Match, today: date) -> Span | Anchored | None:
        word = " ".join((m.group("after") if chinese else m.group("lead")).lower().split())
        month, year = _when(m, chinese)
        chosen = kinds
        if kinds == ("fed_cut",) and not _FED_WORDS.search(m.group(0)) and _CHINA.search(m.string):
            chosen = ("pboc_cut",)            # "降息", "the rate cut" in a question about China
        if word in _BEFORE:
            coming = [e for e in events.EVENTS if e.kind in chosen and e.start > today]
            upcoming = min(coming, key=lambda e: e.start, default=None)
            return Anchored((today, upcoming.start), forward=True) if upcoming else None
        found = [e for kind in chosen if (e := events.latest(kind, today, month, year))]
        if not found:
            return None
        event = max(found, key=lambda e: e.start)
        span = (event.start, event.end) if word in _DURING else (event.start, today)
        # A recurring kind past the table's last check may have had a later event.
        return Anchored(span, anchor=event.kind) if events.maybe_outdated(event, today) else span
    return handler


def _when(m: re.Match, chinese: bool) -> tuple[int | None, int | None]:
    groups = m.groupdict()
    year_text = groups.get("year") or groups.get("year2") or groups.get("year_after")
    year = int(year_text) if year_text else None
    month_text = groups.get("month") or groups.get("month_after")
    if not month_text:
        return None, year
    if chinese:
        return zh_number(month_text), year
    if month_text in ("may", "MAY"):
        return None, year
    return MONTHS[month_text.lower().rstrip(".")], year


for _kinds, _words in _EN_WORDS.items():
    rule(_EN_LEAD + _EN_WHEN + r"(?:" + _words + r")\b" + _EN_WHEN_AFTER)(_event_handler(_kinds, chinese=False))
for _kinds, _words in _ZH_WORDS.items():
    rule(_ZH_WHEN + r"(?:" + _words + r")" + _ZH_AFTER)(_event_handler(_kinds, chinese=True))


# -- company events: the date is not in the words ---------------------------------------

# How far back a provisional window reaches: a quarterly report is at most ~3 months old.
_PROVISIONAL_MONTHS = {"earnings": 3, "launch": 3, "split": 3, "ipo": 12}


def _anchored(anchor: str):
    def handler(m: re.Match, today: date) -> Anchored:
        start, _ = span_back(today, _PROVISIONAL_MONTHS[anchor], "month")
        return Anchored((start, today), anchor=anchor)
    return handler


_EN_SINCE = r"\b(?:since|after|following|post)[\s-]+(?:(?:the|its|their|his|her|last|latest|recent|q[1-4])\s+)*"
rule(_EN_SINCE + r"(?:(?:quarterly|q[1-4])\s+)?(?:earnings(?:\s+(?:report|release|call|beat|miss))?|results)\b"
     r"|\b(?:since|after)\s+(?:it|they|the\s+company)\s+(?:last\s+)?reported\b")(_anchored("earnings"))
rule(_EN_SINCE + r"(?:[\w.-]+\s+){0,3}?(?:launch|unveiling|keynote)\b"
     r"|\bsince\s+(?:it|they)\s+(?:launched|unveiled)\b")(_anchored("launch"))
rule(_EN_SINCE + r"(?:ipo|listing|going\s+public|(?:market|stock[\s-]market|trading)\s+debut)\b"
     r"|\bsince\s+(?:it|they)\s+(?:went\s+public|listed|ipo'?d)\b")(_anchored("ipo"))
rule(_EN_SINCE + r"(?:\d+[-\s]for[-\s]\d+\s+)?(?:stock\s+)?split\b")(_anchored("split"))

_ZH_SINCE = r"(?:自从|自|从)?"
_ZH_OPEN = r"(?:以来|之后|以后|后|至今)"
rule(_ZH_SINCE + r"(?:上次|上一次|最近一次|本次|这次|最新)?(?:一季报|中报|三季报|季报|年报|财报|业绩)"
     r"(?:发布会?|公布|披露|会)?" + _ZH_OPEN)(_anchored("earnings"))
rule(_ZH_SINCE + r"(?:(?:新品|新产品|产品)?发布会|(?:新品|新产品|产品)(?:发布|上市))" + _ZH_OPEN)(_anchored("launch"))
rule(_ZH_SINCE + r"(?<![新品])(?:上市|IPO|挂牌)" + _ZH_OPEN)(_anchored("ipo"))
rule(_ZH_SINCE + r"拆股" + _ZH_OPEN)(_anchored("split"))


@rule(r"\b(?:next|upcoming|coming|forthcoming)\s+(?:(?:quarterly|q[1-4])\s+)?"
      r"(?:earnings(?:\s+(?:report|release|call|date))?|results|report)\b"
      r"|\b(?:ahead\s+of|before|into)\s+(?:the\s+|its\s+|their\s+)?earnings\b"
      r"|下一?次的?(?:财报|业绩)|下季度?财报|即将(?:发布|公布)的(?:财报|业绩)|财报(?:发布)?(?:前|之前)")
def next_earnings(m, today):
    """The next report lies within a quarter; the earnings calendar knows the day."""
    return Anchored((today, add_months(today, 3)), anchor="earnings", forward=True)
