"""The words an answer uses for each intent, in English and Chinese, as `answered` reads them:
a verdict between instruments, a move, a cause connector, report dates, analysts, dividends,
valuation, … and the words a "not found" sentence names its topic with. Both languages' words
are matched in every answer (a Chinese answer quotes English titles).
"""

from __future__ import annotations

import re

_W = re.I


def words(pattern: str) -> re.Pattern:
    return re.compile(pattern, _W)


# -- the words ------------------------------------------------------------------------------------

VERDICT = words(
    r"\b(?:larger|bigger|smaller|higher|lower|greater|more|less|fewer|better|worse|cheaper|pricier"
    r"|outperform(?:ed|s|ing)?|underperform(?:ed|s|ing)?|beat|beats|led|leads|lead|lagged|lags|trailed|trails"
    r"|best|worst|largest|biggest|smallest|highest|lowest|than|ahead\s+of|behind|edged\s+out|twice|half"
    r"|above|below|in\s+line\s+with)\b"
    r"|更大|更小|更高|更低|更多|更少|更好|更差|更贵|更便宜|领先|落后|跑赢|跑输|高于|低于|大于|小于|多于|少于"
    r"|最好|最差|最大|最小|最高|最低|超过|胜过|优于|逊于|不如|好于|强于|弱于|比[^。！？]{1,20}?(?:高|低|大|小|多|少|强|弱)")
MOVE = words(
    r"\b(?:fell|fall|falls|dropped|drops|declined|declines|slid|slides|sank|slumped|tumbled|plunged|lost|loses"
    r"|rose|rise|rises|gained|gains|jumped|surged|soared|rallied|climbed|spiked|moved|moves|down|up|returned"
    r"|return|change[ds]?|slide|drop|decline|gain|rally|selloff|sell-off)\b"
    r"|跌|涨|回落|下挫|走低|走高|攀升|上扬|回报|收益率|变动")
# A cause connector. "on" and "as" only where they start a reason: not "on 2024-10-11", "as of".
_DAY_WORDS = (r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri"
              r"|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june"
              r"|july|august|september|october|november|december|the\s+(?:day|week|month|year|session|close)"
              r"|a\s+(?:daily|weekly|closing)|average|record|track|pace|top|nasdaq|nyse|wall\s+street")
CAUSE = words(
    r"\b(?:after|amid|amidst|because|due\s+to|following|driven\s+by|on\s+the\s+back\s+of|thanks\s+to"
    r"|weighed\s+(?:down\s+)?by|pressured\s+by|hit\s+by|sparked\s+by|triggered\s+by|fu?elled\s+by|caused\s+by"
    r"|led\s+by|boosted\s+by|dragged\s+(?:down\s+)?by|in\s+response\s+to|reacting\s+to|as\s+a\s+result\s+of)\b"
    rf"|\bon\s+(?!\d|(?:{_DAY_WORDS})\b)[a-z]"
    r"|\bas\s+(?!of\b|well\b|much\b|many\b|low\b|high\b|little\b|far\b|long\b|a\s+whole\b|usual\b|expected\b|\d)[a-z]"
    r"|(?<!原)因为?(?!素)|由于|源于|归因于|得益于|受[^。！？]{0,20}?(?:影响|拖累|提振|推动|打压|冲击|带动|消息)"
    r"|拖累|提振|带动|消息传出|之后|后[，,]|原因是|主因|起因")
REPORT = words(r"\b(?:report|reports|reporting|earnings|results|release|releases|announce[sd]?|call|quarter)\b"
                r"|财报|业绩|季报|年报|中报|发布|公布|披露")
ANALYST = words(r"\b(?:targets?|ratings?|rated|rate|consensus|analysts?|upgrade[sd]?|downgrade[sd]?|overweight"
                 r"|underweight|outperform|buy|hold|sell|recommendations?)\b|目标价|评级|买入|增持|减持|持有|分析师|一致预期")
DIVIDEND = words(r"\b(?:dividends?|payouts?|yield|distributions?|splits?|ex-?dividend)\b"
                  r"|分红|股息|派息|派现|每股派|送转|拆股|除息")
VALUATION = words(r"market\s+(?:cap|capitali[sz]ation|value)|\bvaluation|\bvalued\b|p/e|p/s|p/b|ev/ebitda|\bpeg\b"
                   r"|price[- ]to[- ](?:earnings|sales|book)|times\s+(?:earnings|sales)|\bmultiples?\b|\bworth\b"
                   r"|市值|市盈率|市净率|市销率|估值")
RATIO = words(r"p/e|p/s|p/b|ev/ebitda|\bpeg\b|price[- ]to[- ](?:earnings|sales|book)|times\s+(?:earnings|sales)"
               r"|\bmultiples?\b|市盈率|市净率|市销率|估值|倍")
INDUSTRY = words(r"\b(?:industry|industry's|sector|peers?|rivals|competitors)\b|行业|同行|同业|板块")
PRICE = words(r"\b(?:price|prices|priced|closed?|closes|closing|trad(?:ed|es|ing)|last|at|quote|shares?|stock)\b"
               r"|股价|收盘|收于|报价|现价|价格")
FUNDAMENTALS = words(r"\b(?:revenue|revenues|sales|net\s+income|income|profit|profits|earnings|eps|margin|margins"
                      r"|cash\s+flow|debt|loss|losses|deliveries|ebitda)\b"
                      r"|营收|收入|净利润|利润|每股收益|毛利|现金流|负债|亏损|盈利|交付")
ESTIMATE = words(r"\b(?:estimates?|expectations?|expected|consensus|forecasts?|street)\b|预期|预估|一致预期")
BEAT_MISS = words(r"\b(?:beat|beats|missed|miss|misses|topped|tops|exceeded|exceeds|surpassed|fell\s+short|short"
                   r"|in\s+line|above|below|ahead\s+of|shy\s+of|matched|met)\b"
                   r"|超出|超过|超预期|不及|符合|高于|低于|好于|逊于|未达|达到")
GUIDANCE = words(r"\b(?:guidance|guides?|guided|outlook|forecasts?|forecasted|expects|projects?|sees)\b"
                  r"|指引|展望|预计|预告|预期")
HOLDERS = words(r"\b(?:holders?|holds|held|owns|owned|stake|institutions?|institutional|shareholders?|insiders?"
                 r"|ownership|funds?)\b|股东|持股|持有|持仓|机构|基金")
HIGH_LOW = words(r"52[- ]?(?:week|wk)|\b(?:high|low|highs|lows|record|all[- ]time|peak|trough|range)\b"
                  r"|52周|新高|新低|最高|最低|高点|低点|区间")
INSIDERS = words(r"\bform\s*4\b|\bopen-market\b|\binsiders?\b|\b(?:sales?|sold|purchases?|bought|awards?|grants?"
                  r"|exercises?)\b|内部人|公开市场|卖出|买入|获授|行权")
PORTFOLIO = words(r"\b13F|\bholdings?\b|\bpositions?\b|\bportfolio\b|持仓|建仓|增持|减持|清仓")
PROFILE = words(r"\b(?:sector|industry|business|designs?|makes|sells|provides|develops|operates|employees"
                 r"|ceo|headquartered|founded|company|segments?)\b|主营|业务|行业|板块|员工|总部|成立|公司")
# A sentence that says something could not be found or explained.
GAP = words(r"\b(?:no|not|none|nothing|cannot|can't|couldn't|could\s+not|unable|unclear|unknown|unavailable"
             r"|without|n/a)\b|未能|未找到|未获取|没有|暂无|无法|不明|尚未|不清楚|缺少")
# … and what each gap sentence is about.
GAP_TOPIC: dict[str, re.Pattern] = {
    "why": words(r"\b(?:explains?|explained|reasons?|causes?|why|drivers?)\b|原因|解释|缘由|为何"),
    "calendar": words(r"\b(?:earnings|report|reports|results|dates?|calendar|schedule)\b|财报|业绩|日期|何时|时间"),
    "analyst": ANALYST, "dividend": DIVIDEND, "valuation": VALUATION, "expensive": RATIO,
    "price": words(r"\b(?:price|prices|quotes?|history|performance|returns?)\b|股价|行情|价格|表现"),
    "fundamentals": FUNDAMENTALS, "surprise": ESTIMATE, "guidance": GUIDANCE, "holders": HOLDERS,
    "high_low": HIGH_LOW, "insiders": INSIDERS, "portfolio": PORTFOLIO,
    "profile": words(r"\b(?:profile|business|company|sector|industry)\b|公司简介|简介|主营|业务"),
    "news": words(r"\b(?:news|reports?|headlines?|articles?)\b|新闻|消息|报道"),
    "compare": words(r"\b(?:compar\w*|rank\w*|versus|vs)\b|比较|对比|相比"),
    "peers": INDUSTRY,
}


# Metrics a question may name, and the intents whose answer must then name them too.
NAMED_METRICS = {"payout_ratio": {"dividend"}, "pe_forward": {"valuation", "expensive"}, "upside": {"analyst"}}
# The words that say which metric a ranking is by, when the question asks for one.
METRIC_WORDS: dict[str, re.Pattern] = {
    "dividend_yield": words(r"\byields?\b|股息率|收益率"),
    # the answer says "pays out 64.50% of its earnings as dividends" (lead.payout)
    "payout_ratio": words(r"\bpayout|\bpa(?:y|ys|id)\s+out\b|分红率|分红比例|派息率|股利支付率"),
    "pe_trailing": RATIO, "pe_forward": words(r"\bforward|预期市盈率|远期市盈率|动态市盈率"),
    "upside": words(r"\bupside|\btargets?\b|目标价|上涨空间"),
}
