"""Maker, owner and leader phrases, every one in a question: "the one that makes the A320",
"whoever owns YouTube", "the Wegovy maker", "做淘宝的那家", "微信的母公司", "雷军的公司".

People name a company by what it makes or owns, or by who runs it, and a comparison names
both sides the same way ("the company that makes X or the one that makes Y"). The table states
the facts once per entry (`makes`, `led_by`); this reader finds each mention of a fact and the
words around it that make it a phrase for its company: a cue before it ("maker of", "the one
that makes", "做…", "给苹果代工…") or after it ("… maker", "…的母公司", "…的那家"). Each cue is
read wherever it stands, so the second phrase of a question is read like the first; a fact with
no cue around it ("windows is slow") names nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Generic, TypeVar

Owner = TypeVar("Owner")

_CJK = r"\u4e00-\u9fff"

# -- English ------------------------------------------------------------------------------

# Who does the making: "the company / one / people …"; "the" is left out of the phrase, so a
# name the table writes out ("iphone maker") still meets the same words.
_HEAD = r"(?:company|companies|firm|firms|one|ones|business|outfit|people|folks|guys|team|corporation|maker|makers)"
_MAKES = (r"(?:makes?|made|making|owns?|owned|builds?|built|produces?|produced|sells?|sold|runs?|operates?"
          r"|develops?|developed|designs?|designed|manufactures?|manufactured|creates?|created|invented"
          r"|publish(?:es)?|published|launched|acquired|bought|controls?|brought\s+us|gave\s+us|puts?\s+out"
          r"|(?:is|was|are|were|'s|'re)\s+behind)")
_BEFORE_PRODUCT_EN = re.compile(
    rf"(?:\b{_HEAD}\s+(?:(?:that|which|who)(?:\s+|(?='))(?:also\s+|now\s+)?)?{_MAKES}"  # company (that) makes
    rf"|\b{_HEAD}\s+(?:behind|making|owning|selling|producing|building|with)"  # company behind
    rf"|\b(?:whoever|who)\s*{_MAKES}"                                           # whoever owns
    r"|\b(?:makers?|manufacturers?|owners?|parent(?:\s+company)?|developers?|creators?|producers?|inventors?"
    r"|publishers?|operators?|sellers?)\s+of)"                                  # maker of
    r"\s+(?:the\s+|an?\s+|those\s+|these\s+)?$")
# After the product, perhaps past one more word ("the geforce card maker", "instagram's parent").
_AFTER_PRODUCT_EN = (r"(?:makers?|manufacturers?|owners?|parent(?:\s+company)?|developers?|creators?|producers?"
                     r"|company|people|guys|folks)\b")
_BEFORE_LEADER_EN = re.compile(
    rf"\b{_HEAD}\s+(?:(?:that|which)\s+(?:is\s+|was\s+)?|now\s+)?(?:run|led|founded|started|headed|owned|controlled"
    r"|chaired|helmed|co-founded)\s+by\s+$")
_AFTER_LEADER_EN = r"(?:company|companies|firm|business|outfit|empire)\b"
# Words that join two names rather than describe one: never the word between a fact and its cue.
_JOINERS = frozenset("and or vs versus the of to for with in on from than at by".split())

# -- Chinese ------------------------------------------------------------------------------

# 做/造/生产… before the product, perhaps after who it is made for ("给苹果代工芯片的那家").
_BEFORE_PRODUCT_ZH = re.compile(
    rf"(?:(?:给|为|替|帮)[{_CJK}A-Za-z0-9]{{1,6}}?)?"
    r"(?P<verb>做|造|生产|制造|出品|推出|开发|研发|运营|旗下有|拥有|持有|经营|打造|设计|发行|销售|卖|出|搞)?$")
# The company after it: "的那家", "的公司", "母公司", "背后的公司"; a few characters may come
# between ("做iPhone手机的那家").
# "的那个" names a company only after a verb ("做iPhone的那个"; "iPhone的那个问题" is a problem).
_COMPANY_AFTER_DE = r"(?:那家|那一家|(?P<vague>那个|那只|那支)|公司|企业|厂商|厂家|集团|东家|老板|所在的公司|" \
                    r"母公司|制造商|生产商|开发商|所属公司|出品方|运营商)"
# … but never past a word that joins two names ("微信和淘宝的公司" is two companies).
_GAP_ZH = rf"(?:(?![和与跟及或同对比还、])[{_CJK}])"
_AFTER_PRODUCT_ZH = re.compile(
    rf"(?:{_GAP_ZH}{{0,3}}?的{_COMPANY_AFTER_DE}|的?那(?:一)?家|母公司|制造商|厂商|生产商|开发商|所属公司|出品方"
    r"|运营商|背后的公司|背后的那家|背后公司|所在的公司|所属的公司)(?:公司)?")
# After "做X的" with no noun: a join, a pause, the end, or the words of what is asked.
_WHOEVER_ZH = re.compile(r"的(?=$|[和与跟及或、,，。.?？!！\s]|还是|今|最近|这|本|上|近|谁|哪|股|市|涨|跌|怎|表现|走势"
                         r"|财报|业绩)")
_AFTER_LEADER_ZH = re.compile(
    r"(?:(?:旗下|掌舵|创办|创立|领导|执掌|带领|管理|开|办)的?|的)?(?:那家|那一家|公司|企业|集团)(?:公司)?")


@dataclasses.dataclass(frozen=True)
class FactPhrase(Generic[Owner]):
    start: int
    end: int
    owner: Owner


class _Facts(Generic[Owner]):
    """Lower-case facts (products or leaders) found at a place: the longest one there."""

    def __init__(self, facts: dict[str, Owner]):
        self.owners = facts
        self._lengths = sorted({len(f) for f in facts}, reverse=True)

    def mentions(self, lower: str) -> Iterator[tuple[int, int, Owner]]:
        """(start, end, owner) for each fact in the text, the longest at each place, not
        overlapping; an English fact is a whole word, perhaps plural ("iphones")."""
        i = 0
        while i < len(lower):
            found = self._longest_at(lower, i)
            if found is None:
                i += 1
                continue
            fact, end = found
            yield i, end, self.owners[fact]
            i = end

    def _longest_at(self, lower: str, i: int) -> tuple[str, int] | None:
        """The longest fact at `i` and where its mention ends (past a plural ending)."""
        if lower[i].isascii() and not _word_starts(lower, i):
            return None
        for length in self._lengths:
            fact = lower[i:i + length]
            if len(fact) < length or fact not in self.owners:
                continue
            end = i + length
            if not fact[-1].isascii():
                return fact, end
            for plural in ("", "s", "es"):      # "iphones", "f-150s"
                if lower.startswith(plural, end) and _word_ends(lower, end + len(plural)):
                    return fact, end + len(plural)
        return None


class MakerPhrases(Generic[Owner]):
    """Every maker, owner or leader phrase in a text, with the company it names."""

    def __init__(self, products: dict[str, Owner], leaders: dict[str, Owner]):
        self._products = _Facts(products)
        self._leaders = _Facts(leaders)

    def find(self, lower: str) -> list[FactPhrase[Owner]]:
        """Phrases in a lower-case text (curly apostrophes already straight), in order."""
        found: list[FactPhrase[Owner]] = []
        for facts, is_product in ((self._products, True), (self._leaders, False)):
            for start, end, owner in facts.mentions(lower):
                span = _product_phrase(lower, start, end) if is_product else _leader_phrase(lower, start, end)
                if span:
                    found.append(FactPhrase(span[0], span[1], owner))
        return sorted(found, key=lambda p: p.start)


def _product_phrase(lower: str, start: int, end: int) -> tuple[int, int] | None:
    """The phrase a product mention stands in, or None when no cue makes it one."""
    before = _BEFORE_PRODUCT_EN.search(lower, 0, start)
    after_end = _after_en(lower, end, _AFTER_PRODUCT_EN)
    zh_after = _AFTER_PRODUCT_ZH.match(lower, end) or _made_by_whoever(lower, start, end)
    if before is None and after_end is None and zh_after is None:
        return None
    first = before.start() if before else start
    if zh_after and before is None:
        zh_before = _BEFORE_PRODUCT_ZH.search(lower, max(0, start - 12), start)
        first = zh_before.start() if zh_before and zh_before.group(0) else start
        if zh_after.groupdict().get("vague") and not (zh_before and zh_before.group("verb")):
            zh_after = None
            if after_end is None:
                return None
    last = max(end, after_end or end, zh_after.end() if zh_after else end)
    return first, last


def _made_by_whoever(lower: str, start: int, end: int) -> re.Match | None:
    """"做微信的" with no noun after it: whoever makes it ("做微信的和做淘宝的谁涨得多"), when a
    verb of making comes before and a join, a pause or what is asked of it comes after."""
    verb = _BEFORE_PRODUCT_ZH.search(lower, max(0, start - 12), start)
    if verb is None or not verb.group("verb"):
        return None
    return _WHOEVER_ZH.match(lower, end)


def _leader_phrase(lower: str, start: int, end: int) -> tuple[int, int] | None:
    before = _BEFORE_LEADER_EN.search(lower, 0, start)
    after_end = _after_en(lower, end, _AFTER_LEADER_EN)
    zh_after = _AFTER_LEADER_ZH.match(lower, end)
    if before is None and after_end is None and zh_after is None:
        return None
    return before.start() if before else start, max(end, after_end or end, zh_after.end() if zh_after else end)


_POSSESSIVE = re.compile(r"(?:'s|s'|')?(?:\s*-\s*|\s+)")
_GAP_WORD = re.compile(r"([a-z0-9][a-z0-9&.]*)\s+")


def _after_en(lower: str, end: int, cue: str) -> int | None:
    """Where an English cue after a fact ends: right after it ("ozempic maker", "instagram's
    owner") or past one describing word ("geforce card maker"), never past a joining word."""
    m = _POSSESSIVE.match(lower, end)
    if m is None:
        return None
    at = m.end()
    direct = re.compile(cue).match(lower, at)
    if direct:
        return direct.end()
    gap = _GAP_WORD.match(lower, at)
    if gap and gap.group(1) not in _JOINERS:
        past = re.compile(cue).match(lower, gap.end())
        if past:
            return past.end()
    return None


def _word_starts(text: str, i: int) -> bool:
    return i == 0 or not (text[i - 1].isascii() and text[i - 1].isalnum())


def _word_ends(text: str, end: int) -> bool:
    return end == len(text) or not (text[end].isascii() and text[end].isalnum())
