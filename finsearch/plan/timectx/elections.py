"""National elections by place, each on the day its result was known, with where the date comes from.

"Since the election" is the United States' presidential election unless the question names
another place ("the Indian election", "英国大选") or is about another market (the Nifty → India's).
Per place the table holds the elections that decide who governs: the presidential election
(US, KR, TW, MX, BR), the lower house's general election (IN, GB, JP, DE, CA, AU), both in
France, and the European Parliament's (EU). Each place is complete from `COMPLETE_FROM` up to
`events.CHECKED_THROUGH`. The day is the one the result became known: polling day where the
count or the exit poll told it that night (local time), the counting day in India.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date

from ...reference.markets import Market

COMPLETE_FROM = date(2016, 1, 1)


@dataclasses.dataclass(frozen=True)
class Election:
    place: str           # ISO 3166 code of the country; EU for the European Parliament
    day: date
    source: str


_ECI = "Election Commission of India, General Election {} results (counting day), https://results.eci.gov.in/"
_COMMONS = "House of Commons Library, General election {} results, https://commonslibrary.parliament.uk/"
_FRANCE = "Ministère de l'Intérieur, résultats de l'élection présidentielle {} (second tour), " \
          "https://www.resultats-elections.interieur.gouv.fr/"
_FRANCE_ASSEMBLY = "Ministère de l'Intérieur, résultats des élections législatives {} (second tour), " \
                   "https://www.resultats-elections.interieur.gouv.fr/"
_SOUMU = "総務省 (MIC), 衆議院議員総選挙 {} 結果, https://www.soumu.go.jp/senkyo/"
_CEC = "中央選舉委員會 (Central Election Commission), {} presidential election, https://www.cec.gov.tw/"
_NEC = "National Election Commission of Korea, {} presidential election, https://www.nec.go.kr/"
_BUNDESWAHL = "Die Bundeswahlleiterin, Bundestagswahl {}, https://www.bundeswahlleiterin.de/"
_ELECTIONS_CA = "Elections Canada, {} general election, https://www.elections.ca/"
_AEC = "Australian Electoral Commission, {} federal election, https://www.aec.gov.au/"
_INE = "Instituto Nacional Electoral, {} presidential election (conteo rápido), https://www.ine.mx/"
_TSE = "Tribunal Superior Eleitoral, {} presidential election (second round), https://www.tse.jus.br/"
_EP = "European Parliament, {} European elections results, https://results.elections.europa.eu/"
_FEC = "FEC, Federal Elections {}, https://www.fec.gov/"


def _held(place: str, day: str, source: str) -> Election:
    return Election(place, date.fromisoformat(day), source.format(day[:4]))


ELECTIONS: tuple[Election, ...] = (
    _held("US", "2016-11-08", _FEC), _held("US", "2020-11-03", _FEC),
    _held("US", "2024-11-05", "FEC, Official 2024 Presidential General Election Results, https://www.fec.gov/"),
    _held("IN", "2014-05-16", _ECI), _held("IN", "2019-05-23", _ECI), _held("IN", "2024-06-04", _ECI),
    _held("GB", "2017-06-08", _COMMONS), _held("GB", "2019-12-12", _COMMONS), _held("GB", "2024-07-04", _COMMONS),
    _held("FR", "2017-05-07", _FRANCE), _held("FR", "2017-06-18", _FRANCE_ASSEMBLY),
    _held("FR", "2022-04-24", _FRANCE), _held("FR", "2022-06-19", _FRANCE_ASSEMBLY),
    _held("FR", "2024-07-07", _FRANCE_ASSEMBLY),
    _held("JP", "2017-10-22", _SOUMU), _held("JP", "2021-10-31", _SOUMU), _held("JP", "2024-10-27", _SOUMU),
    _held("TW", "2016-01-16", _CEC), _held("TW", "2020-01-11", _CEC), _held("TW", "2024-01-13", _CEC),
    _held("KR", "2017-05-09", _NEC), _held("KR", "2022-03-09", _NEC), _held("KR", "2025-06-03", _NEC),
    _held("DE", "2017-09-24", _BUNDESWAHL), _held("DE", "2021-09-26", _BUNDESWAHL),
    _held("DE", "2025-02-23", _BUNDESWAHL),
    _held("CA", "2019-10-21", _ELECTIONS_CA), _held("CA", "2021-09-20", _ELECTIONS_CA),
    _held("CA", "2025-04-28", _ELECTIONS_CA),
    _held("AU", "2016-07-02", _AEC), _held("AU", "2019-05-18", _AEC), _held("AU", "2022-05-21", _AEC),
    _held("AU", "2025-05-03", _AEC),
    _held("MX", "2018-07-01", _INE), _held("MX", "2024-06-02", _INE),
    _held("BR", "2018-10-28", _TSE), _held("BR", "2022-10-30", _TSE),
    _held("EU", "2019-05-26", _EP), _held("EU", "2024-06-09", _EP),
)

# How a question names a place, in English and Chinese. Europe is read only inside the words for
# the election itself ("the European elections"): "European stocks since the election" means the US one.
_PLACE_WORDS: dict[str, str] = {
    # "us" in lower case is a pronoun in a whole question ("show us …"); in "the us election" it is not.
    "US": r"\bu\.s\.|\bamerican?\b|\bunited\s+states\b|美国|美國|(?-i:\bUSA?\b)",
    "IN": r"\bindian?(?:'s)?\b|\blok\s+sabha\b|\bmodi\b|印度",
    "GB": r"\buk\b|\bu\.k\.|\bbritain\b|\bbritish\b|\bunited\s+kingdom\b|英国|英國",
    "FR": r"\bfrench\b|\bfrance(?:'s)?\b|法国|法國",
    "JP": r"\bjapan(?:ese|'s)?\b|日本",
    "TW": r"\btaiwan(?:ese|'s)?\b|台湾|臺灣|台灣",
    "KR": r"\b(?:south\s+)?korean?(?:'s)?\b|韩国|韓國",
    "DE": r"\bgerman(?:y|y's)?\b|\bbundestag\b|德国|德國",
    "CA": r"\bcanad(?:a|ian)(?:'s)?\b|加拿大",
    "AU": r"\baustralian?(?:'s)?\b|\baussie\b|澳大利亚|澳洲",
    "MX": r"\bmexic(?:o|an)(?:'s)?\b|墨西哥",
    "BR": r"\bbrazil(?:ian|'s)?\b|巴西",
}
_EUROPE = r"\beu\b|\beuropean\b|\beurope(?:'s)?\b|欧洲议会|欧盟|歐洲議會|歐盟"
_PLACES = {place: re.compile(words, re.I) for place, words in _PLACE_WORDS.items()}
_IN_THE_WORDS = {**_PLACES, "US": re.compile(_PLACE_WORDS["US"] + r"|\bus\b", re.I),
                 "EU": re.compile(_EUROPE, re.I)}

# The place whose elections move a market, by its exchange calendar (reference/markets).
_MARKET_PLACES = {"XNYS": "US", "XBOM": "IN", "XLON": "GB", "XPAR": "FR", "XTKS": "JP", "XTAI": "TW",
                  "XKRX": "KR", "XETR": "DE", "XFRA": "DE", "XTSE": "CA", "XASX": "AU"}


def named_in(words: str, whole_question: bool = False) -> tuple[str, ...]:
    """The places `words` name ("since the Indian election" → IN); in a whole question Europe does
    not count (it names the stocks, not the election)."""
    table = _PLACES if whole_question else _IN_THE_WORDS
    return tuple(place for place, pattern in table.items() if pattern.search(words))


def of_market(market: Market | None) -> str | None:
    """The place whose elections a market's questions mean; None for a market without one in the table."""
    return _MARKET_PLACES.get(market.calendar) if market is not None and market.calendar else None


# The words that name a place right before "election" / "大选", for the time rules' patterns
# (`named_in` then reads which place they name).
NAMES_EN = (r"u\.?s\.?a?|american?|united\s+states|india|indian|lok\s+sabha|u\.?k\.?|british|britain|french|france"
            r"|japan|japanese|taiwan|taiwanese|(?:south\s+)?korean?|german|germany|bundestag|canada|canadian"
            r"|australian?|mexico|mexican|brazil|brazilian|eu|european(?:\s+parliament)?|europe")
NAMES_ZH = (r"美国|美國|印度|英国|英國|法国|法國|日本|台湾|臺灣|台灣|韩国|韓國|德国|德國|加拿大|澳大利亚|澳洲"
            r"|墨西哥|巴西|欧洲议会|歐洲議會|欧盟|歐盟|欧洲|歐洲")
