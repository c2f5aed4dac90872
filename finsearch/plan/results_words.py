"""How people ask for a company's results and ratios in everyday words, English and Chinese:
what it made or lost over a period ("how much did google make", "上半年亏了多少"), how it did in a
quarter ("how did JPM do in Q3"), and the ratios by their short names (ROE, P/E, 净利率).

Regex sources for `intents.INTENT_PATTERNS`: the "fundamentals" and "valuation" readings plan
the sources that hold these figures (rule_table: financials, earnings, profile, quote)."""

from __future__ import annotations

import re

# Latin letters around an abbreviation, never CJK: "茅台PE多少", "宁德时代的ROE".
_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"

# The periods a company reports on: a quarter, a half, a fiscal year.
REPORTING_PERIOD = (r"\bq[1-4]\b|\b[1-4]q\b|\bquarter\b|\bfiscal\b|\bfy\s?\d{2,4}\b|\bh[12]\b"
                    r"|\b(?:first|second)\s+half\b|[一二三四1-4]季度|上(?:个)?季度|本季度|这个?季度|上半年|下半年|财年")

# What a company made or lost: an amount over a period is its income, not a move of its stock.
# Not what the asker made ("how much would I have made", "我亏了多少"); a loss needs money or a
# reporting period ("how much did tesla lose today" is its stock).
AMOUNT_EARNED = (
    r"\bhow\s+much\s+(?:money\s+|profit\s+|cash\s+)?(?:did|does|do|has|have|will|is|was)\s+(?!i\b|we\b|you\b)"
    r"[^.?!]{1,40}?\b(?:make|makes|made|making|earn|earns|earned|earning|net|bring\s+in|generate)\b"
    r"|\bhow\s+much\s+money\s+(?:did|does|do|has|have|is|was)\s+(?!i\b|we\b|you\b)[^.?!]{1,40}?\blos(?:e|es|ing|t)\b"
    rf"|\bhow\s+much\s+(?:did|does|has|have)\s+(?!i\b|we\b|you\b)[^.?!]{{1,40}}?\blos[et]\b[^.?!]{{0,20}}(?:{REPORTING_PERIOD})"
    r"|\b(?:mak(?:e|es|ing)|made|los(?:e|es|ing|t))\s+(?:any\s+|much\s+|more\s+|less\s+)?money\b"
    r"|\bwhat\s+did\b[^.?!]{1,40}\bearn\b|\bearned\b|\bin\s+the\s+(?:red|black)\b|\bbreak(?:s|ing)?\s+even\b"
    r"|(?<![我你])(?:赚|挣|亏|赔)了?(?:多少|几|钱)|净赚|净亏|扭亏|转亏|转盈|盈亏"
)

# "How did JPM do in Q3": a reporting period named after a company asks for its results (its stock
# is asked for by name: "how did JPM stock do in Q3").
PERIOD_RESULTS = (
    r"\bhow(?:['’]d|\s+(?:did|does|has|have|was|were|is))\b(?:(?!\b(?:stocks?|shares?|price)\b)[^.?!]){1,40}?"
    r"\b(?:do|doing|done|fare|fared|perform|performed|go|went)\b[^.?!]{0,25}?"
    rf"(?:{REPORTING_PERIOD})"
    r"|\bhow(?:['’]d|\s+(?:did|was|were|is))\b[^.?!]{1,30}?(?:'s|’s)\s+(?:latest\s+|last\s+)?"
    r"(?:q[1-4]|quarter|fiscal\s+year|first\s+half)\b"
    r"|(?:[一二三四1-4]季度|上(?:个)?季度|本季度|上半年|下半年|财年)"
    r"(?:(?!股价|股票|走势|行情|涨|跌)[^。？！]){0,4}(?:表现|成绩|做得|干得)(?:怎么样|如何|好吗|好不好)?"
)

# Ratios and figures by their short names (the statements' own words are in the fundamentals reading).
RATIOS_REPORTED = (
    rf"{_L}(?:roe|roa|roic|ebitda|eps){_R}|\breturn\s+on\s+(?:equity|assets|invested\s+capital|capital)"
    r"|\bbook\s+value|\bbottom\s+line|\btop\s+line|\boperating\s+(?:income|profit|margin)"
    r"|净资产收益率|资产收益率|净利率|利润率|净利|营业额|销售额|扣非|归母|每股净资产|财务报告|财务报表|财务数据"
)

# The earnings multiple by its short names, in a sentence about a stock ("what's the PE on costco").
MULTIPLE_NAMED = (
    rf"{_L}p/?e{_R}(?!\s*(?:firms?|funds?|-?backed|investors?|deals?|industry|teachers?|class)\b)"
    rf"|{_L}peg{_R}|{_L}p/[bs]{_R}|\bprice[- ]to[- ](?:book|sales)|\b(?:forward|trailing|ttm)\s+p/?e\b"
    r"|\bearnings\s+multiple|市销率|静态市盈率|动态市盈率"
)


# The asker's own position: "投了200000买宁德时代，今年赚了多少", "if I bought nvda at 120, how much did I
# make" ask what the stock did, not what the company earned.
OWN_POSITION = re.compile(
    r"\b(?:i|we)\s+(?:bought|buy|own|hold|have|invested|put|paid|made|make|lost|lose)\b|\bmy\s+(?:position|shares|stake|investment)"
    r"|\bif\s+(?:i|we|you)\b|\bbought\s+(?:at|in)\b|\bcost\s+basis"
    r"|我(?:们)?(?:的|在|持有|买|有|投|亏|赚)|买的|买了|买入|买进|投了|投入|成本价?|持有|本金|套牢|抄底", re.I)
_AMOUNT_EARNED = re.compile(AMOUNT_EARNED, re.I)


def own_position_only(question: str, results: re.Pattern) -> bool:
    """True when the only results words of a question are an amount made or lost on the asker's own
    position (`results`: the whole fundamentals reading, compiled)."""
    return bool(OWN_POSITION.search(question)) and not results.search(_AMOUNT_EARNED.sub(" ", question))
