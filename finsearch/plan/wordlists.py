"""Word lists that keep ordinary words from being read as tickers or company names."""

from __future__ import annotations

import re
from functools import lru_cache

# Upper-case words that are never a bare ticker: ordinary English words (so "IT sector",
# "ALL of it", "NOW" stay words) and finance acronyms (EPS, ETF, CEO …). A real ticker
# among them is still found through its company name or a `$` prefix.
COMMON_UPPER_WORDS = frozenset("""
A I AN AS AT BE BY DO GO HE IF IN IS IT ME MY NO OF OK ON OR SO TO UP US WE
ALL AND ANY ARE BIG BUT CAN CAR DAY DID FOR GET GOT HAS HAD HER HIM HIS HOW KEY LOW
MAN MAY NEW NOT NOW OLD ONE OUR OUT OWN RUN SAW SEE SHE THE TOO TWO USE WAS WAY WHO
WHY YES YET YOU ALSO BEEN BEST BOTH CALL CASH COME DATA DEAL DOES DOWN EACH EVEN FAST
FELL FROM FULL GAIN GIVE GOOD HAVE HIGH HOLD HOME INTO JUST KEEP LAST LATE LESS LIKE
LIVE LONG LOOK LOSS LOST MADE MAKE MANY MORE MOST MOVE MUCH MUST NEAR NEED NEWS NEXT
ONLY OPEN OVER PAST PLAY POST RATE REAL RISE ROSE SAFE SAID SALE SAME SELL SHOW SOME
SUCH SURE TAKE TELL THAN THAT THEM THEN THEY THIS TIME TRUE TURN VERY WANT WEEK WELL
WENT WERE WHAT WHEN WILL WITH WORK YEAR YOUR ABOUT AFTER AGAIN BELOW COULD DROP EARLY
FIRST GREAT LARGE LATER MIGHT MONTH NEVER OTHER PRICE QUITE RALLY SHARE SINCE STILL
STOCK THEIR THERE THESE THING THINK THOSE TODAY TRADE UNDER WATCH WHERE WHICH WHILE
WORLD WOULD BUY HOLD SELL
AI API ATH BPS CAGR CEO CFO COO CTO CPI DCF EBIT EPS ESG ETF ETFS EU EV EVS FAQ FCF FED
FOMC FX FY GDP HK IPO IPOS LLM M&A NAV NYSE OTC P&L PCE PE PEG PMI PPI QE QT ROA ROE
ROI SEC SPAC TTM UK USA USD EUR CNY RMB HKD JPY GBP VS YTD YOY QOQ MOM WTD MTD QTD
ADR ADRS ETA GAAP IR OPEC PR Q Q1 Q2 Q3 Q4 H1 H2 TSX LSE SSE SZSE HKEX NASDAQ AMEX CBOE CME
DOW JONES SP OK UTC EST PST GMT AM PM TV PC CPU GPU AR VR OS EPA FDA FTC DOJ IRS IMF
ECB BOJ PBOC BOE RBA SNB US10Y VIX EV
""".split())

# Capitalised words that start sentences or name non-companies; never a company name
# on their own (they may still appear inside an alias such as "General Motors").
CAPITALISED_STOPWORDS = frozenset("""
What Why How When Where Which Who Whom Whose Is Are Was Were Do Does Did Can Could Will
Would Should Shall May Might Must Has Have Had Tell Show Give Explain Compare Summarize
Summarise List Find Get Please The A An And Or But If In On At For Of To From By With
About After Before Since During Over Under Between Into Its It This That These Those
There Here Today Yesterday Tomorrow Now Latest Last Next Past Recent This Year Week
Month Quarter Day Monday Tuesday Wednesday Thursday Friday Saturday Sunday January
February March April May June July August September October November December Jan Feb
Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Q1 Q2 Q3 Q4 H1 H2 FY I Me My We Our You Your
They Their He She His Her Stock Stocks Shares Share Market Markets Price Prices Index
Fed Federal Reserve Treasury Treasuries Congress Senate House White Government China
Chinese America American US USA United States Europe European Japan Japanese India
Indian Germany German UK Britain British Hong Kong Taiwan Korea Wall Street CEO CFO
AI Earnings Revenue Profit News Report Reports Analyst Analysts Rating Ratings Target
Dividend Dividends Yield Yields Inflation Rates Rate Interest GDP CPI Election Trump
Biden Harris Powell Musk Buffett Also Then Than So Not No Yes Any All Some Both Each
Other Such Very Just Only Even Still Again Ever What's Why's How's Let Lets Let's
Bull Bear Bullish Bearish Recession Crypto Bitcoin Oil Gold Silver Dollar Euro Yen
Yuan Tech Technology Sector Sectors Industry Energy Banks Bank Financials Semiconductor
Semiconductors Chip Chips EV EVs IPO ETF ETFs Nasdaq Dow S&P Standard Poor's Jones
""".split())


@lru_cache(maxsize=1)
def _english_words() -> frozenset[str]:
    # Webster's Second (public domain, 234k words, from the english-words package): a lower-case
    # word found there ("cost", "hold", "apply", "user") is read as a word, never as a ticker
    # or a misspelt name.
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2"], lower=True, alpha=True))


def is_ordinary_word(word: str) -> bool:
    """An English or finance word (any case), as opposed to a symbol or a name."""
    lower = word.lower()
    return (word.upper() in COMMON_UPPER_WORDS or lower in _LOWER_STOPWORDS
            or lower in _english_words())


_LOWER_STOPWORDS = frozenset(w.lower() for w in CAPITALISED_STOPWORDS)

def is_word_form(word: str) -> bool:
    """An ordinary word, a form of one (plurals, -ed, -ing: the dictionary lists stems only), a
    word the dictionary is too old for (`RECENT_WORDS`), or a contraction typed without its
    apostrophe ("hows", "isnt")."""
    lower = word.lower()
    stems = {lower, lower.removesuffix("s"), lower.removesuffix("es"), lower.removesuffix("ed"),
             lower.removesuffix("d"), lower.removesuffix("ing"), lower.removesuffix("ing") + "e"}
    if lower.endswith("ies"):
        stems.add(lower[:-3] + "y")
    if _CONTRACTED.fullmatch(lower):
        return True
    return any(s and (is_ordinary_word(s) or s in RECENT_WORDS) for s in stems)


_CONTRACTED = re.compile(r"(?:how|what|where|who|when|why|that|there|it|is|are|was|were|do|does|did|has|have|had|"
                         r"can|could|would|should|wo|ai)(?:s|nt|re|ll|ve|d)")

# Words of markets and technology newer than the dictionary (Webster's Second is from 1934), so
# "how's fintech doing" is a topic, not an unknown company.
RECENT_WORDS = frozenset("""
crypto cryptos cryptocurrency cryptocurrencies fintech internet online smartphone ecommerce biotech startup
blockchain chatbot megacap smallcap midcap largecap microcap ethereum altcoin memecoin stablecoin nft esports
podcast website stagflation buyback selloff datacenter gpu chipmaker automaker equity reit payout hodl fomo yolo
tldr btw imo lol idk insurtech proptech regtech edtech healthtech cleantech greentech agtech deeptech lidar
robotaxi hyperscaler cybersecurity cyber metaverse app apps saas fabless foundry drone ebitda forex bullish
bearish wsb meme memes stonk stonks dotcom broadband wifi telecom biopharma pharma medtech opex capex
benchmark benchmarks healthcare disco
""".split())

# Chinese words that sit one character from an instrument's name and must never be read as a
# slip for it (美联储, the Fed, is not 美联航, United Airlines; 中间 is not 中建).
CJK_TERMS_NOT_NAMES = frozenset({"美联储", "美联社", "联储局", "港联储",
                                 # … and everyday words that sound like a short company name
                                 "中间", "三亿", "微薄", "顺风", "宝妈", "歌儿", "中旅", "伊犁", "百世", "瑞星",
                                 "高升", "谷哥"})
