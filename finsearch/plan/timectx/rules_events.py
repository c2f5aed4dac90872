"""Time expressions anchored on events, in English and Chinese (same rule shape as rules_en).

"since the Fed cut", "after the stimulus", "自9月降息以来": from the event's date (the table in
`events`) up to today; "during the COVID crash": the event's own days; "ahead of the
election": from today up to an event still to come. "since earnings", "since launch",
"上市以来": the company's date is not in the words, so the span is a provisional guess
marked with its anchor, for a later stage that knows the date to replace.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date

from ...reference.markets import Market
from . import elections, events
from .calendar_math import Anchored, Span, add_months, span_back
from .events import EventKind
from .words import MONTH_RE, MONTHS, zh_number

RULES: list[tuple[re.Pattern, object]] = []

_SIZE = r"(?:(?:first|jumbo|big|half[\s-]point|quarter[\s-]point|\d{2}\s*(?:bp|bps|basis[\s-]points?))\s+)?"
# Who acted, before "[September] cut": the Fed unless the words name another central bank or
# the question is about China.
_EN_WHO = (r"(?:(?:fed(?:eral\s+reserve)?|fomc|powell|pboc|people'?s\s+bank(?:\s+of\s+china)?|china|beijing"
           r"|ecb|european\s+central\s+bank|lagarde|boj|bank\s+of\s+japan|ueda)(?:'s)?\s+)?")
_ZH_WHO = (r"(?:美联储|美聯儲|联储|FOMC|美国|欧洲央行|欧央行|日本央行|日央行|日银|日本银行|央行|人民银行|人行|中国央行"
           r"|中国人民银行|中国)?")
_FED_WORDS = re.compile(r"\bfed|fomc|powell|美联储|美聯儲|联储|美国", re.I)
_BANK_WORDS = {"ecb": re.compile(r"\becb|european\s+central\s+bank|lagarde|欧洲央行|欧央行", re.I),
               "boj": re.compile(r"\bboj|bank\s+of\s+japan|ueda|日本央行|日央行|日银|日本银行", re.I),
               "pboc": re.compile(r"\bpboc|people'?s\s+bank|人民银行|人行|中国央行", re.I)}
_CHINA = re.compile(r"中国|央行|人民银行|人行|A股|沪深|上证|深证|LPR|PBOC|People'?s\s+Bank|China|Chinese|yuan"
                    r"|人民币", re.I)
# How a bank or an exchange went under, said any way ("SVB's collapse", "since SVB collapsed",
# "after FTX went bust").
_FELL_WORDS = (r"collapse|collapsed|collapsing|failure|failed|failing|fall|fell|implosion|imploded|crash|crashed"
               r"|bankruptcy|blow-?up|blew\s+up|went\s+(?:under|bust|bankrupt|belly[\s-]up|down)")
_FELL = r"(?:'s)?(?:\s+(?:" + _FELL_WORDS + r"))?"
_EN_WORDS: dict[tuple[EventKind, ...], str] = {
    ("fed_cut",): _SIZE + r"(?:(?:interest[\s-]+)?rate[\s-]+)?cuts?(?:\s+(?:interest\s+)?rates)?"
                  r"|(?:interest\s+)?rates\s+were\s+cut|(?:started|began)\s+cutting|pivot(?:ed)?",
    ("fed_hike",): r"(?:(?:last|latest|first)\s+)?(?:(?:interest[\s-]+)?rate[\s-]+)?hikes?"
                   r"|(?:started|began)\s+(?:hiking|raising(?:\s+(?:interest\s+)?rates)?)|(?:the\s+)?hiking\s+cycle",
    ("fomc_meeting",): r"(?:fomc|fed(?:eral\s+reserve)?)(?:'s)?\s+(?:meeting|decision|statement|announcement)|fomc",
    ("jackson_hole",): r"(?:powell(?:'s)?\s+)?jackson\s+hole(?:\s+(?:speech|symposium))?",
    ("china_stimulus",): r"(?:(?:china|chinese|beijing|pboc)(?:'s)?\s+)?(?:(?:big|huge|massive|september|"
                         r"policy|economic)\s+)*stimulus(?:\s+(?:announcement|package|blitz|measures|news))?"
                         r"|(?:9\s*[/.\-]\s*24|924)(?:\s+(?:rally|stimulus|policies|policy))?",
    ("election",): r"(?:(?:" + elections.NAMES_EN + r"|presidential|general|federal|national|parliamentary"
                   r"|legislative|snap)(?:'s)?\s+)*elections?(?:\s+results?)?(?:\s+in\s+(?:the\s+)?(?:"
                   + elections.NAMES_EN + r"))?|trump(?:'s)?\s+(?:win|victory|election)|trump\s+won",
    ("btc_halving",): r"(?:(?:bitcoin|btc)(?:'s)?\s+)?halving",
    ("covid_crash",): r"(?:covid(?:-19)?|corona(?:virus)?|the\s+pandemic|pandemic)(?:\s+(?:crash|sell-?off|"
                      r"lows?|bottom|began|started|hit))?",
    ("covid_crash", "lehman"): r"(?:market\s+|stock\s+market\s+)?crash",
    ("lehman",): r"lehman(?:\s+brothers)?" + _FELL + r"|(?:global\s+)?financial\s+crisis|gfc",
    ("svb",): r"(?:svb|silicon\s+valley\s+bank)" + _FELL + r"|(?:regional\s+)?banking\s+crisis",
    ("ukraine_invasion",): r"(?:russia(?:'s)?\s+)?invasion\s+of\s+ukraine|russia\s+invaded\s+ukraine"
                           r"|(?:the\s+)?(?:ukraine|russia-ukraine)\s+(?:war|invasion)|war\s+in\s+ukraine",
    ("chatgpt",): r"chatgpt(?:\s+(?:launch(?:ed)?|came\s+out|was\s+released|release))?",
    ("spot_btc_etf",): r"(?:spot\s+)?(?:bitcoin|btc)\s+(?:spot\s+)?etfs?(?:\s+(?:approvals?|launch(?:ed)?|debut(?:ed)?"
                       r"|(?:were|was|got)\s+(?:approved|launched)|started\s+trading|went\s+live))?|etf\s+approval"
                       r"|(?:the\s+)?sec\s+approved\s+(?:the\s+)?(?:spot\s+)?(?:(?:bitcoin|btc)\s+(?:spot\s+)?etfs?"
                       r"|etfs?\s+(?:for|on|of)\s+(?:bitcoin|btc))",
    ("deepseek",): r"deepseek(?:\s+(?:sell-?off|shock|crash|moment|news|launch|r1))?",
    ("liberation_day",): r"liberation\s+day(?:\s+tariffs)?|(?:trump(?:'s)?\s+)?(?:reciprocal\s+)?tariffs?\s+"
                         r"(?:announcement|were\s+announced)|(?:trump(?:'s)?\s+)?reciprocal\s+tariffs",
    ("brexit_vote",): r"(?:the\s+)?brexit(?:\s+(?:vote|referendum))?|(?:the\s+)?eu\s+referendum",
    ("credit_suisse",): r"credit\s+suisse(?:'s)?(?:\s+(?:rescue|takeover|bailout|" + _FELL_WORDS + r"))?",
    ("ftx",): r"ftx" + _FELL,
    ("eth_merge",): r"(?:(?:ethereum|eth)(?:'s)?\s+)?merge",
    ("carry_unwind",): r"(?:(?:the|yen)\s+)?carry[\s-]trade\s+(?:unwind(?:ing)?|blow-?up|crash|sell-?off)",
    ("rmb_devaluation",): r"(?:(?:china|chinese|pboc)(?:'s)?\s+)?(?:yuan|renminbi|rmb|cny)\s+devaluation",
}
# … and in Chinese ("硅谷银行暴雷", "FTX崩盘", "雷曼破产").
_ZH_FELL = r"(?:倒闭|破产|暴雷|爆雷|崩盘|崩溃|垮台|出事|事件|危机|被接管|关门)?"
_ZH_HOUSE = r"(?:总统|總統|议会|議會|国会|國會|众议院|眾議院|联邦议院)"
_ZH_WORDS: dict[tuple[EventKind, ...], str] = {
    ("fed_cut",): r"(?:宣布)?(?:首次|本轮首次|首度|开始|大幅|[0-9五二十]+个基点)?(?:降准)?降息",
    ("fed_hike",): r"(?:最后一次|上次|开始|首次|首度|本轮首次)?加息",
    ("china_stimulus",): r"(?:经济)?刺激政策(?:出台|发布|公布)?|(?:一揽子|增量)(?:金融|经济)?政策(?:出台|发布)?"
                         r"|(?:9\s*[·.\-]\s*24|924)(?:行情|新政)?|国新办发布会",
    # Bare "选举" is any vote (a board's, a party's); "大选" or a named one is a national election.
    ("election",): r"(?:(?:" + elections.NAMES_ZH + r")(?:的)?)?" + _ZH_HOUSE + r"?(?:大选|大選)(?:结果|結果)?"
                   r"|(?:" + elections.NAMES_ZH + r")?" + _ZH_HOUSE + r"(?:选举|選舉)(?:结果|結果)?"
                   r"|(?:" + elections.NAMES_ZH + r")(?:选举|選舉)"
                   r"|特朗普(?:胜选|当选|赢得大选)",
    ("btc_halving",): r"(?:比特币)?减半",
    ("covid_crash",): r"(?:新冠)?疫情(?:爆发|暴跌|崩盘|大跌)?|新冠(?:暴跌|崩盘|大跌|爆发)?"
                      r"|(?:2020年)?(?:3月)?美股(?:四次)?熔断",
    ("lehman",): r"(?:2008年)?金融危机|雷曼(?:兄弟)?" + _ZH_FELL,
    ("svb",): r"(?:硅谷银行|SVB)" + _ZH_FELL,
    ("ukraine_invasion",): r"俄乌(?:冲突|战争|开战|开打)(?:爆发)?|俄罗斯入侵乌克兰|俄(?:罗斯)?(?:对)?乌(?:克兰)?开战",
    ("chatgpt",): r"ChatGPT(?:发布|推出|问世|上线)?",
    ("spot_btc_etf",): r"(?:(?:美国|SEC|美国证监会)?(?:批准|通过)了?)?(?:现货)?比特币(?:现货)?ETF"
                       r"(?:获批|批准|通过|上市|落地)?",
    ("deepseek",): r"DeepSeek(?:发布|冲击|爆火)?|深度求索",
    ("liberation_day",): r"(?:对等|解放日)关税(?:公布|宣布|出台)?|解放日",
    ("brexit_vote",): r"(?:英国)?脱欧公投|脱欧",
    ("fomc_meeting",): r"(?:美联储|联储)?议息会议|FOMC会议",
    ("jackson_hole",): r"(?:鲍威尔)?杰克逊霍尔(?:会议|年会|讲话|演讲)?|全球央行年会",
    ("new_nine_articles",): r"新[“\"]?国九条[”\"]?(?:发布|出台)?",
    ("rmb_devaluation",): r"(?:8\s*[·.\-]\s*11|811)\s*汇改|2015年汇改",
    ("credit_suisse",): r"瑞信(?:被收购|被救助)?" + _ZH_FELL,
    ("ftx",): r"FTX" + _ZH_FELL,
    ("eth_merge",): r"以太坊(?:升级)?合并",
    ("carry_unwind",): r"(?:日元)?套息交易(?:平仓|逆转|崩盘)",
}

_EN_LEAD = (r"\b(?P<lead>since|after|following|post|during|through|before|ahead\s+of|until|into|heading\s+into)"
            r"[\s-]+(?:(?:the|this|that|its|their|last|latest|recent|most\s+recent)\s+)*")
_EN_WHEN = _EN_WHO + r"(?:" + MONTH_RE + r"(?:\s+(?P<year>\d{4}))?(?:'s)?\s+|(?P<year2>\d{4})(?:'s)?\s+)?"
# … or after it: "since the Fed rate cut in September (2024)", "since the Fed started hiking in 2022".
_EN_WHEN_AFTER = (r"(?:\s+in\s+(?:" + MONTH_RE.replace("(?P<month>", "(?P<month_after>")
                  + r"(?:\s+(?P<year_after>\d{4}))?|(?P<year_in>(?:19|20)\d{2})\b))?")
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


# "Since the Fed started cutting", "首次降息": the first event of its run, not the latest.
_FIRST = re.compile(r"\bfirst\b|\bstart(?:ed)?\b|\bbeg[ai]n\b|首次|首度|开始|本轮首次", re.I)


def _event_handler(kinds: tuple[EventKind, ...], chinese: bool):
    def handler(m: re.Match, today: date) -> Span | Anchored | ElectionIn | None:
        word = " ".join((m.group("after") if chinese else m.group("lead")).lower().split())
        month, year = _when(m, chinese)
        chosen = _bank(kinds, m)
        if chosen == ("election",):
            return ElectionIn(word, month, year, elections.named_in(m.group(0)),
                              elections.named_in(m.string, whole_question=True))
        return _reading(chosen, word, today, month, year, first=bool(_FIRST.search(m.group(0))))
    return handler


def _bank(kinds: tuple[EventKind, ...], m: re.Match) -> tuple[EventKind, ...]:
    """A rate cut or hike is the Fed's unless its words name another central bank ("the ECB cut",
    "日本央行加息"), or, unnamed, the question is about China ("降息" beside A股: the PBOC's)."""
    if kinds not in (("fed_cut",), ("fed_hike",)):
        return kinds
    move = kinds[0].removeprefix("fed_")
    words = m.group(0)
    bank = next((bank for bank, pattern in _BANK_WORDS.items() if pattern.search(words)), None)
    if bank is None and not _FED_WORDS.search(words) and _CHINA.search(m.string):
        bank = "pboc"
    return (f"{bank}_{move}",) if bank else kinds


def _reading(kinds: tuple[EventKind, ...], word: str, today: date, month: int | None, year: int | None,
             first: bool = False, places: tuple[str, ...] = ()) -> Span | Anchored | None:
    """The window the lead word ("since", "during", "before" …) opens on the latest event of `kinds`
    (in `month`/`year`, in `places` when given; the first of its run when `first`)."""
    if word in _BEFORE:
        coming = [e for e in events.EVENTS if e.kind in kinds and e.start > today
                  and (not places or e.place in places)]
        upcoming = min(coming, key=lambda e: e.start, default=None)
        return Anchored((today, upcoming.start), forward=True) if upcoming else None
    found = [e for kind in kinds if (e := events.latest(kind, today, month, year, places))]
    if not found:
        return None
    event = max(found, key=lambda e: e.start)
    if first:
        event = events.first_of_run(event)
    span = (event.start, event.end) if word in _DURING else (event.start, today)
    # A recurring kind past the table's last check may have had a later event.
    return Anchored(span, anchor=event.kind) if events.maybe_outdated(event, today) else span


@dataclasses.dataclass(frozen=True)
class ElectionIn:
    """"Since the election": which country's is only known with the market the question is about
    (`span`, called by `resolve` as for TradingDays). The places the election's own words name
    decide; else those the question names, the market's, the United States', then any."""
    word: str
    month: int | None
    year: int | None
    named: tuple[str, ...]         # in the election's words: "since the Indian election"
    in_question: tuple[str, ...]   # elsewhere in the question: "Indian stocks since the election"

    def span(self, today: date, market: Market | None) -> Span | Anchored | None:
        home = elections.of_market(market)
        if self.named:
            tries = [self.named]
        else:        # () last: any place ("since the election in June" of a market without one)
            tries = [places for places in (self.in_question, (home,) if home else (), ("US",)) if places] + [()]
        for places in tries:
            reading = _reading(("election",), self.word, today, self.month, self.year, places=places)
            if reading is not None:
                return reading
        return None


def _when(m: re.Match, chinese: bool) -> tuple[int | None, int | None]:
    groups = m.groupdict()
    year_text = groups.get("year") or groups.get("year2") or groups.get("year_after") or groups.get("year_in")
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
# The events the table dates (the company's own events below have no date in the words).
DATED_RULES = tuple(RULES)


# -- company events: the date is not in the words ---------------------------------------

# How far back a provisional window reaches: a quarterly report is at most ~3 months old.
_PROVISIONAL_MONTHS = {"earnings": 3, "launch": 3, "split": 3, "ipo": 12}


def _anchored(anchor: str):
    def handler(m: re.Match, today: date) -> Anchored:
        start, _ = span_back(today, _PROVISIONAL_MONTHS[anchor], "month")
        return Anchored((start, today), anchor=anchor)
    return handler


_EN_SINCE = (r"\b(?:since|after|following|post)[\s-]+(?:(?:the|its|their|his|her|last|latest|recent|most\s+recent"
             r"|q[1-4]|(?:last|this)\s+quarter'?s)\s+)*")
_QUARTER = r"(?:quarterly|q[1-4]|(?:first|second|third|fourth|[1-4](?:st|nd|rd|th))[\s-]quarter)"
rule(_EN_SINCE + r"(?:" + _QUARTER + r"\s+)?(?:earnings(?:\s+(?:report|release|call|beat|miss))?|results|numbers)\b"
     r"|\b(?:since|after)\s+(?:it|they|the\s+company)\s+(?:last\s+)?reported\b|\b(?:since|after)\s+reporting\b"
     # "since the last report", "since its Q3 report", "since the print": the company's own report;
     # a bare "since the report" may be any (the jobs report), so a word must make it theirs or recent.
     r"|\b(?:since|after|following)\s+(?:the\s+)?(?:its|their|last|latest|most\s+recent|recent)\s+(?:"
     + _QUARTER + r"\s+)?(?:report|print)\b|\b(?:since|after)\s+(?:the|its|their)\s+print\b")(_anchored("earnings"))
rule(_EN_SINCE + r"(?:[\w.-]+\s+){0,3}?(?:launch|unveiling|keynote)\b"
     r"|\bsince\s+(?:it|they)\s+(?:launched|unveiled)\b")(_anchored("launch"))
rule(_EN_SINCE + r"(?:ipo|listing|going\s+public|(?:market|stock[\s-]market|trading)\s+debut)\b"
     r"|\bsince\s+(?:it|they)\s+(?:went\s+public|listed|ipo'?d)\b")(_anchored("ipo"))
rule(_EN_SINCE + r"(?:\d+[-\s]for[-\s]\d+\s+)?(?:stock\s+)?split\b")(_anchored("split"))

_ZH_SINCE = r"(?:自从|自|从)?"
_ZH_OPEN = r"(?:以来|之后|以后|后|至今)"
_ZH_REPORT = r"(?:一季报|二季报|中报|半年报|三季报|四季报|季报|年报|财报|业绩|(?:季度|半年度|年度)报告)"
rule(_ZH_SINCE + r"(?:上次|上一次|最近一次|本次|这次|最新)?" + _ZH_REPORT
     + r"(?:发布会?|公布|披露|说明会|电话会|会|出来|出炉)?" + _ZH_OPEN)(_anchored("earnings"))
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
