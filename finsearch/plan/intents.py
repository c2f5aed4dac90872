"""What a question asks for, read from its words in English and Chinese: its intents ("why", "price",
"news", "fundamentals", "filings" …), each a pattern in `INTENT_PATTERNS`.

The rules plan sources by them (`rule_table`) and the answer checks it answered each one
(`answer.answered`); `analysis.analyse` reads them once a question's names and period are known,
with the words that named an instrument or dated the period left out.
"""

from __future__ import annotations

import re

from .filings import FILING_WORDS
from .results_words import AMOUNT_EARNED, MULTIPLE_NAMED, PERIOD_RESULTS, RATIOS_REPORTED, own_position_only

INTENT_PATTERNS: dict[str, str] = {
    "why": r"\bwhy\b|\bmov(?:e|ed|es|ing)\b|\bfell\b|\bfall(?:s|ing|en)?\b|\bdrop(?:s|ped)?\b|\bplung"
           r"|\bsurg|\bjump|\bsoar|\btumbl|\bslump|\bsank\b|\bsink|\bspike|\brall(?:y|ied)\b|\bcrash"
           r"|what happened|\bdecline|\bsell-?off|为什么|为何|原因|大跌|大涨(?!空间)|暴跌|暴涨|下跌"
           r"|上涨(?!空间)|跳水|拉升|怎么了"
           # the cause asked in other words: "what's behind the slide", "what sent it lower", "为啥跌", "什么导致"
           r"|\bwhat(?:['’]s|\s+is|\s+was)\s+behind\b|\bslid(?:e|es|ing)?\b(?!\s+(?:decks?|shows?))|\bcaus(?:e|ed|es|ing)\b"
           r"|\b(?:drove|drives?|driving|driven|sen[dt]s?)\s+(?:\w+\s+){0,3}(?:lower|higher|down|up|tumbling|plunging"
           r"|soaring|sliding)\b|为啥|为甚么|咋(?:跌|涨|回事)|导致",
    # "price target" asks for the analysts' targets, not for prices.
    "price": r"\bprice(?!\s+(?:targets?|forecasts?|predictions?)\b)|\bperform|\bchart|k-?line|candlestick|\btrend"
             r"|\breturn(?!\s+on\s+(?:equity|assets|invested|capital))|\bhow (?:is|did|has|are|have)|\bhow['’]?s\b"
             r"|\bstock (?:been|done|doing)\b"
             r"|\bdoing\b|\bgain|\bloss|\bup\b|\bdown\b|\bcompar|\bvs\.?\b|\bversus\b|\bquote\b|\btrading\b"
             r"|\bclose[ds]?\b|\bvolatil|走势|表现|股价|价格|涨|跌|行情|k线|收盘|报价|对比|比较",
    "news": r"\bnews\b|\bheadline|\blatest\b|\bannounc|\bupdate|新闻|消息|公告|动态|资讯",
    # Guidance words are not here: guidance is said in calls and releases, not in statements.
    "fundamentals": r"\bearnings\b|\brevenue|\bsales\b|\bprofit|\bincome\b|\bmargin|\beps\b|\bnet\s+loss"
                    r"|\bresults\b|\bcash flow|\bbalance sheet|\bdebt\b|\bfinancials?\b|财报|营收|收入|净利润|利润"
                    r"|亏损|盈利|[一三]季报|中报|半年报|年报"
                    r"|业绩(?!指引|展望|预告)|每股收益|现金流|负债|毛利|季报|年度报告|季度报告|中期报告"
                    + f"|{AMOUNT_EARNED}|{PERIOD_RESULTS}|{RATIOS_REPORTED}",
    # What a company says it expects: only the news has it (plus the estimates next to it).
    "guidance": r"\bguidance|\boutlook|\bforecast|\bguid(?:e|ed|es|ing)\s+(?:up|down|higher|lower|for|to)\b"
                r"|\b(?:raise[sd]?|cut|lower(?:ed|s)?|reaffirm(?:ed|s)?|maintain(?:ed|s)?)\s+(?:its\s+|their\s+)?"
                r"(?:full[- ]year\s+)?(?:guidance|outlook|forecast|targets?)"
                r"|\bwhat\s+(?:did|does)\b[^.?!]{1,40}\b(?:say|said|expect)\s+(?:about|for)\s+(?:the\s+)?(?:next|coming)"
                r"|\bexpects?\s+for\s+(?:the\s+)?(?:next|coming)\b"
                r"|指引|展望|业绩预告|预告|前瞻|指导|管理层[^。？！]{0,8}(?:预期|预计|表示|认为)"
                r"|对(?:未来|下个?季度|明年|全年)[^。？！]{0,4}(?:的)?(?:预期|预计|看法)",
    # Did the reported numbers meet the estimates?
    "surprise": r"\b(?:beat|beats|beating|crush(?:ed|es)?|smash(?:ed|es)?|top(?:s|ped)?|exceed(?:ed|s)?"
                r"|surpass(?:ed|es)?|miss(?:ed|es)?|disappoint(?:ed|s|ing)?|fell\s+short|short)\b[^.?!]{0,25}"
                r"\b(?:estimates?|expectations?|consensus|forecasts?|street|whisper)"
                r"|\b(?:earnings|results|eps|revenue|sales|quarter)\b[^.?!]{0,15}"
                r"\b(?:beat|miss|disappoint(?:ed|ing)?|surprise|letdown)"
                r"|\b(?:beat|beats|missed|misses|topped|tops)\s+(?:on\s+)?(?:q[1-4]\s+|its\s+|the\s+)?"
                r"(?:earnings|eps|revenue|sales|profit|numbers|quarter)\b"
                r"|\bbeat\s+or\s+miss|\bsurprise|\b(?:above|below|in\s+line\s+with|vs\.?|versus|against)\s+"
                r"(?:the\s+)?(?:estimates?|expectations?|consensus)"
                r"|(?:超|超出|超过|高于|低于|不及|好于|符合|逊于|不如|达到|未达|未及)(?:市场|分析师)?预期|预期差|爆雷",
    # When the next report comes: the earnings source has the dates.
    "calendar": r"\b(?:when|what\s+date|which\s+day|what\s+day)\b[^.?!]{0,40}\b(?:report|earnings|results)"
                r"|\bnext\s+(?:earnings|report|results)|\bearnings\s+(?:date|call|day|release|calendar|season)"
                r"|\b(?:report(?:ing)?|release)\s+date|\bupcoming\s+(?:earnings|results)"
                r"|(?:财报|业绩|年报|季报|中报)[^。？！]{0,4}(?:什么时候|何时|哪天|几号|日期|时间|发布日|公布日)"
                r"|(?:什么时候|何时|哪天|几号)[^。？！]{0,6}(?:财报|业绩|年报|季报|中报)|财报日|业绩发布会",
    "analyst": r"\btarget|\brating|\banalyst|\bupgrade|\bdowngrade|\brecommend|\bprice\s+(?:forecast|prediction)"
               r"|\bupside\b|评级|目标价|分析师|研报|机构看法|上涨空间|上行空间",
    "holders": r"\bholders?\b|\bownership|\binstitution|\bstake\b|\bwho\s+(?:owns|holds)|\bowns\b|\bowners?\b"
               r"|\b(?:does|do|did)\b[^.?!]{1,40}\bown\b|\b(?:who|which|what)\b[^.?!]{0,30}\b(?:own|hold)\b|\bshareholders?\b|\b13f\b"
               r"|股东|持股|机构持仓|增持|减持|举牌|(?:机构|基金|谁|哪些)[^。？！]{0,4}持有|持有[^。？！]{0,6}最多|重仓|谁买了",
    "dividend": r"\bdividend|\byield\b|\bpayout|\bsplits?\b|\bex-?div|\bdistributions?\b"
                r"|分红|股息|派息|拆股|送转|除息|除权|派现|分(?:了|到|得)?(?:多少|几)[^。？！，,]{0,2}红",
    # "Is Apple bigger than Microsoft?" asks about size; "a bigger drop" does not.
    "valuation": r"market cap|\bvaluation|p/e|\bpe ratio|price[- ]to[- ]earnings|shares outstanding"
                 r"|\b(?:bigger|larger|smaller)\s+(?:than|company|by\s+size)\b"
                 r"|\bwhich\s+(?:one\s+|company\s+)?is\s+(?:the\s+)?(?:bigger|larger|smaller|biggest|largest|smallest)\b"
                 r"|\bworth\b|\bmultiples?\b|\bp/s\b|ev/ebitda|市值|市盈率|估值|市净率" + f"|{MULTIPLE_NAMED}",
    # "Is it expensive?": the ratios, and what analysts make of them.
    "expensive": r"\bexpensive|\b(?:over|under)-?(?:valued|priced)|\bovervaluation|\bcheap|\bpricey"
                 r"|\bfairly\s+(?:valued|priced)|\bfair\s+value|\bbubble|\bfrothy|\bstretched|\brich\s+valuation"
                 r"|\bvaluations?\b[^.?!]{0,12}\b(?:high|low|rich|reasonable|fair|justified|crazy|insane)\b"
                 r"|贵不贵|贵吗|太贵|便宜|高估|低估|估值[^。？！]{0,6}(?:高|低|贵|便宜|合理)|泡沫",
    # "Should I buy it?": what analysts say, the price and the news; the answer gives no advice.
    "advice": r"\bshould\s+(?:i|we|you)\b|\b(?:would|do)\s+you\s+(?:buy|sell|hold)\b"
              r"|\bworth\s+(?:buying|it|a\s+buy|investing)|\bgood\s+(?:buy|investment|entry)"
              r"|\b(?:good|right|best)\s+time\s+to\s+(?:buy|sell|invest)|\btime\s+to\s+(?:buy|sell)"
              r"|\bbuy\s+or\s+sell|\bbuy\s+the\s+dip|\b(?:buy|sell)\s+(?:now|here|at\s+this\s+(?:price|level))\b"
              r"|\bis\s+(?:it|\w+)\s+a\s+(?:buy|sell)\b|\binvest\s+in\b"
              r"|(?:该|能|可以|适合|值得|要不要|能不能|该不该|还能|值不值得)(?:买|卖|入手|入|上车|抄底|加仓|减仓|持有)"
              r"|入手吗|抄底|建仓",
    # 52-week / record highs and lows: the quote has the range, a year of history shows it.
    "high_low": r"52[- ]?(?:week|wk)|\ball[- ]time\s+(?:high|low)|\brecord\s+(?:high|low)|\bnew\s+(?:highs?|lows?)\b"
                r"|\bhighs?\s+and\s+lows?|\byearly\s+(?:high|low)|52周|历史新高|历史新低|新高|新低|年内高点|年内低点"
                r"|最高价|最低价",
    "profile": r"what does .* do|\bbusiness\b|\bsector\b|\bindustry\b|\bceo\b|\bemployees|\bprofile"
               r"|\bwho runs|\bwhat\s+(?:does|do)\b[^.?!]{1,40}\b(?:make|sell|offer)\b|\bwhat\s+kind\s+of\s+company"
               r"|公司简介|主营|业务|行业|简介|(?:是)?(?:做|干)什么的|主要做什么|是(?:一家)?什么(?:样的)?公司|公司介绍",
    # Bars from akshare's sites rather than Yahoo's ("用akshare的日线"): for an A-share. Only the
    # library's name: "腾讯的日线" names Tencent the company to the entity reader.
    "cn_bars": r"akshare",
    # Against the company's industry or peers (its P/E next to the industry's), not another named stock.
    "peers": r"\bpeers?\b|\bpeer\s+group|\bindustry\s+(?:average|median|peers|p/?e|valuation|multiples?)"
             r"|\b(?:against|versus|vs\.?|relative\s+to|compared?\s+(?:with|to))\s+(?:its\s+|the\s+)?"
             r"(?:industry|sector|competitors|rivals|peers)\b|\bcomparables\b"
             r"|行业对比|同行(?:业)?(?:比较|对比|相比)?|同业(?:比较|对比)?|行业平均|行业中位|可比公司|行业(?:市盈率|估值|水平)"
             r"|(?:和|与|跟|同)(?:所在|所属)?行业(?:相比|比较|对比|比)",
    # "Which is bigger?" asks for a verdict between instruments, as "compare" does.
    "compare": r"\bcompar|\bvs\.?\b|\bversus\b|\bagainst\b|\bbetter\b|对比|比较|相比|哪个"
               r"|\b(?:bigger|larger|smaller)\b|\bwhich\b[^.?!]{0,30}\b(?:biggest|largest|smallest)\b"
               r"|\bwhich\b[^.?!]{0,40}\b(?:more|higher|lower|worse|cheaper|cheapest|highest|lowest|best|worst"
               r"|most|least)\b|谁更|哪家|更大|更小"
               r"|\b(?:bigger|larger|smaller|higher|lower|cheaper)\s+than\b",
    # What a company's own officers, directors and 10% owners bought and sold (Form 4).
    "insiders": r"\binsiders?\b|\bform\s*4\b|\b(?:ceo|cfo|executives?|directors?|officers?|management)\b[^.?!]{0,30}"
                r"\b(?:sell|sells|sold|selling|buy|buys|bought|buying|dump(?:ed|ing)?|unload(?:ed|ing)?)\b"
                r"|\b(?:sell|sold|selling|buy|bought|buying)\b[^.?!]{0,20}\b(?:ceo|cfo|executives?|directors?)\b"
                r"|高管[^。？！]{0,8}(?:减持|增持|买入|卖出|买|卖|抛售|套现)|(?:减持|增持)[^。？！]{0,4}高管"
                r"|内部人|董监高",
    # What an institution holds or traded, from its 13F (only when the question names one: see analyse).
    "portfolio": r"\b13f\b|\bportfolio\b|\bholdings\b|\bpositions?\b|\bstakes\b"
                 r"|\bwhat\s+(?:does|did|is|has)\b[^.?!]{1,40}\b(?:hold|holds|holding|own|owns|buy|bought|buying|sell"
                 r"|sold|selling|add|added|trim|trimmed)\b|\b(?:buy|bought|sell|sold)\s+last\s+quarter"
                 r"|持仓|重仓|买了什么|卖了什么|买了哪些|卖了哪些|加仓|减仓|建仓|清仓|13F",
    # A company's own filings: SEC forms for a US listing, cninfo's announcements for an A-share.
    "filings": FILING_WORDS + r"|\bfilings?\b|\bfiled\b|\bsec\s+(?:form|report)"
               r"|\bquarterly\s+report|\bdisclosures?\b|\bnotices\b|\bcirculars?\b|公告|披露|通函|年报全文|定期报告"
               r"|\bfile\s+(?:anything|something)\b|\bfiles?\b[^.?!]{0,30}\bwith\s+(?:the\s+)?(?:exchange|sec|hkex)\b",
    # What a company lists as its risks (10-K item 1A) and how management reads its year (item 7).
    "risks": r"\brisks?\b|\brisk\s+factors|\bitem\s+1a\b|风险因素|风险提示|有哪些风险",
    "mdna": r"\bmd&a\b|\bmanagement'?s\s+discussion|\bitem\s+7\b|管理层讨论",
    # How a company answered news about it: its own announcements and the stories that quote it.
    "response": r"\brespon(?:d|ds|ded|se)\b|\breplied\b|\breply\b|\bstatement\b|\bden(?:y|ies|ied)\b|\bclarif"
                r"|\bcomment(?:ed|s)?\s+on\b|\breact(?:ed|ion)?\s+(?:to|from)\s+(?:the\s+)?(?:company|management)"
                r"|回应|回复|澄清|表态|否认|作出说明|怎么回应|如何回应|有没有回应",
    # "Should I be worried?": the case against, the case for, and what to watch.
    "worried": r"\bworr(?:y|ied|ying|ies)\b|\bconcern(?:ed|ing)?\b|\bred\s+flags?\b|\bin\s+trouble\b|\bwarning\s+signs?"
               r"|\bbear\s+case|\bbull\s+(?:and|or|vs\.?)\s+bear|担心|担忧|要紧吗|危险吗|风险大(?:吗|不大)?|利空|隐忧",
    # "What did X say?", deliveries and production: only the news reports them.
    "remarks": r"\bwhat\s+(?:did|does|has)\b[^.?!]{1,40}\b(?:say|said|tell|told)\b|\bcomments?\s+on\b"
               r"|\bremarks\b|\bdeliver(?:y|ies|ed|s)?\b|\bshipments?\b|\bproduction\s+(?:numbers|figures)"
               r"|说了什么|表示了什么|怎么说|交付|交付量|销量",
}
_INTENTS = {name: re.compile(pattern, re.I) for name, pattern in INTENT_PATTERNS.items()}
# "its latest 10-K" asks for a filing, not for the news.
_LATEST_FILING = re.compile(rf"\b(?:latest|most\s+recent|newest)\s+(?=(?:sec\s+)?(?:{FILING_WORDS}|filings?\b))", re.I)


def intents_of(text: str) -> frozenset[str]:
    text = _LATEST_FILING.sub(" ", text)
    # "行业对比", "compare with its peers": the words say peers, not a price comparison or what the
    # company does; the other intents are read without them.
    peers = _INTENTS["peers"].search(text)
    rest = _INTENTS["peers"].sub(" ", text) if peers else text
    found = frozenset(name for name, pattern in _INTENTS.items() if pattern.search(rest)) | \
        (frozenset({"peers"}) if peers else frozenset())
    if "worried" in found and not _BUY_OR_SELL.search(text):
        found -= {"advice"}           # "should I be worried?" asks for the risks, not for a trade
    if "fundamentals" in found and own_position_only(rest, _INTENTS["fundamentals"]):
        found = (found - {"fundamentals"}) | {"price"}    # what the asker made on the stock: its move
    return found


_BUY_OR_SELL = re.compile(r"\b(?:buy|sell|hold|invest)\b|买|卖|入手|抄底|加仓|减仓", re.I)


# "How did it do since …", "表现如何": the question asks about the whole period, not one way of moving.
_PERFORMANCE = re.compile(r"\bperform|\bdoing\b|\bhow\s+(?:did|has|have|is|are)\b|\breturns?\b|\bchart|\btrend"
                          r"|\bup\s+or\s+down\b|走势|表现|行情|涨了|跌了|涨跌", re.I)


def asks_performance(question: str) -> bool:
    """The question asks how the price did over its period ("How did NVDA do since …?"), not why it moved
    one way: the rules plan the period's events for it, and the answer opens with the period."""
    return bool(_PERFORMANCE.search(question))
