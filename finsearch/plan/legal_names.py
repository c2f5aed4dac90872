"""Company legal names: "Bayerische Motoren Werke AG", "Banco Santander SA", "台湾积体电路制造股份有限公司".

A legal form after a name (AG, SE, NV, PLC, SA, SpA, Inc, Corp, Ltd, Co, LLC, Holdings, Group,
股份有限公司, 有限公司, 集团 …) is never a ticker (AG is a silver miner, SE an e-commerce group): it
marks the words before it as a company's name, which is looked up, without the form, as
1. a name in the alias table ("Microsoft Corp", "ASML Holding NV"; "Toyota Motor Corp": Toyota);
2. an index company's name in the bundled list (`listings`): "Siemens AG" is SIE.DE;
3. its initials, where the table knows them: "Bayerische Motoren Werke AG" is BMW, "Taiwan
   Semiconductor Manufacturing Co" TSM;
4. in Chinese, a short name inside it ("江苏恒瑞医药股份有限公司": 恒瑞医药, from the table or the
   A-share list) or made of its characters in order ("台湾积体电路制造股份有限公司": 台积电).
A name none of these know is left to the symbol search; its legal form is still no ticker.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from functools import lru_cache

from .alias_table import AliasTable, Instrument, TableMatch, TableRead, has_cjk
from .codes import a_share_ticker
from .legal_forms import FORM as _FORM
from .legal_forms import FORM_WORD as _FORM_WORD
from .legal_forms import core
from .listings import a_share_names, index_companies


@dataclasses.dataclass(frozen=True)
class LegalName:
    start: int                      # the name's first word …
    end: int                        # … to the end of its legal form
    instrument: Instrument | None   # None: a name nothing here knows
    read_as: TableRead              # "nickname" too: by its initials, or a short name made of its characters
    form: tuple[int, int]           # where the legal form stands

    def symbol_shaped(self, text: str) -> list[tuple[int, int]]:
        """Where the form's words look like a symbol ("AG", "se"): a name left unknown keeps its
        capitalised forms ("Acme Widgets Inc" is looked up whole) and gives up only these."""
        start, end = self.form
        return [(start + m.start(), start + m.end()) for m in re.finditer(r"[A-Za-z]+", text[start:end])
                if m.group(0).isupper() or m.group(0).islower()]


# -- legal forms ------------------------------------------------------------------------------

_FORM_CHAIN = re.compile(rf"(?:(?:\s*,)?\s+(?:&\s+)?{_FORM}(?![A-Za-z0-9/])){{1,4}}")
# A Chinese legal form: 股份有限公司, (集团)股份有限公司, 集团控股有限公司, 有限责任公司, 集团 …
_FORM_ZH = re.compile(r"(?:[（(]集团[)）])?(?:集团)?(?:控股)?(?:股份)?有限(?:责任)?公司"
                      r"|(?:集团)?股份公司|集团(?:公司)?")

# Words that end a name read backwards from its form: question words, verbs, prepositions.
_NOT_NAME = frozenset("""
what what's whats why how how's hows is are was were do does did has have had can could will would should
tell show give explain compare between versus vs vs. v or in on at for to from by with about after before since
during over under into buy sell own hold than i me my we our you your it its this that these those the a an
price prices stock stocks share shares news today latest
""".split())
_INNER = frozenset({"of", "and", "&", "de", "del", "des", "la", "le", "du", "von", "van", "der", "für", "und", "y"})
# What a legal name can be ("Silver" in "First Majestic Silver AG" is no commodity).
_COMPANY_KINDS = ("equity", "etf", "unlisted")
# What a legal name can be ("Silver" in "First Majestic Silver AG" is no commodity).
_COMPANY_KINDS = ("equity", "etf", "unlisted")
_WORD = re.compile(r"(?<![\w&'’.\-])[\w&'’.\-]+$")


def find(text: str, table: AliasTable, hits: Sequence[TableMatch]) -> list[LegalName]:
    """Every legal name in the text; `hits`: the alias table's matches in it (`table.find`)."""
    found = [name for m in _FORM_CHAIN.finditer(text) if (name := _english(text, m, table, hits))]
    found += [name for m in _FORM_ZH.finditer(text) if (name := _chinese(text, m, table, hits))]
    found += [name for m in _FORM_AFTER_CJK.finditer(text) if (name := _latin_form_after_chinese(m, hits))]
    return sorted(found, key=lambda n: n.start)


# "空客SE", "西门子 AG": a Latin form right after a company's Chinese name.
_FORM_AFTER_CJK = re.compile(rf"(?<=[\u4e00-\u9fff])\s?{_FORM}(?![A-Za-z0-9/])")


def _latin_form_after_chinese(form: re.Match, hits: Sequence[TableMatch]) -> LegalName | None:
    """The company whose Chinese name the form follows; None when no company's name ends there
    ("特斯拉和AG": 和 names nothing, so AG is still the ticker)."""
    start = form.start() + (form.group(0)[:1].isspace())
    hit = next((h for h in hits if h.end == form.start() and h.instrument.kind in _COMPANY_KINDS), None)
    if hit is None:
        return None
    return LegalName(hit.start, form.end(), hit.instrument, hit.read_as, (start, form.end()))


# -- English ------------------------------------------------------------------------------------

def _english(text: str, chain: re.Match, table: AliasTable, hits: Sequence[TableMatch]) -> LegalName | None:
    words = _words_before(text, chain.start())
    if not any(ch.isalpha() for w in words for ch in w[2]):
        return None
    form = chain.span()
    lower_case = text == text.lower()
    # Longest first: "Banco Santander", then "Santander".
    candidates = [words[i:] for i in range(len(words)) if words[i][2].lower() not in _INNER]
    for name in candidates:
        found = _by_name(name, text, form, table, hits)
        if found:
            return LegalName(name[0][0], form[1], found[0], found[1], form)
    if lower_case:
        return None             # lower-case words before "ag" need not be a name at all
    # "Toyota Motor Corp": the table's name opens it; else a name nothing here knows.
    head = next((h for h in hits if candidates and h.start == candidates[0][0][0] and h.end <= form[1]
                 and h.instrument.kind in _COMPANY_KINDS), None)
    if head is not None:
        return LegalName(head.start, form[1], head.instrument, head.read_as, form)
    if words[-1][2][:1].isupper():
        return LegalName(words[-1][0], form[1], None, "exact", form)
    return None


def _words_before(text: str, end: int) -> list[tuple[int, int, str]]:
    """The words of a name that ends at `end`, read backwards to a question word, a comma or a
    legal form (at most six); in a question typed in mixed case, capitalised words and inner
    ones ("of", "&") only. [] when they cannot be a name ("PAAS and AG")."""
    mixed = text != text.lower()
    words: list[tuple[int, int, str]] = []
    cursor = end
    while len(words) < 6:
        m = _WORD.search(text, 0, cursor)
        if m is None:
            break
        word = m.group(0)
        lower = word.lower().strip(".")
        if lower in _NOT_NAME or _FORM_WORD.fullmatch(word):
            break
        if mixed and not (word[:1].isupper() or word[:1].isdigit() or lower in _INNER):
            break
        words.insert(0, (m.start(), m.end(), word))
        space = re.search(r"[ \t]+$", text[:m.start()])
        if space is None:
            break
        cursor = space.start()
    if words and words[-1][2].lower() in _INNER:
        return []
    while words and words[0][2].lower() in _INNER:
        words.pop(0)
    return words


def _by_name(name: list[tuple[int, int, str]], text: str, form: tuple[int, int], table: AliasTable,
             hits: Sequence[TableMatch]) -> tuple[Instrument, TableRead] | None:
    start, end = name[0][0], name[-1][1]
    # 1. the table names exactly these words (with or without the form: "shell plc", "asml holding")
    exact = next((h for h in hits if h.start == start and end <= h.end <= form[1]
                  and h.instrument.kind in _COMPANY_KINDS), None)
    if exact is not None and _ends_on_word(text, exact.end, end, form):
        return exact.instrument, exact.read_as
    # 2. an index company of that name
    ticker = _index_names().get(core(text[start:end]))
    if ticker:
        known = table.by_ticker.get(ticker.upper())
        return known or Instrument(ticker, _plain(text[start:end]), "equity"), "exact"
    # 3. its initials, three letters or more: "Bayerische Motoren Werke" → BMW
    letters = [w[2][0] for w in name if w[2].lower() not in _INNER and w[2][0].isalpha()]
    if len(letters) >= 3 and len(letters) == len([w for w in name if w[2].lower() not in _INNER]):
        initials = "".join(letters)
        inst = table.by_ticker.get(initials.upper())
        if inst is None:
            inst = next((h.instrument for h in table.find(initials.lower())
                         if h.start == 0 and h.end == len(initials)), None)
        if inst is not None and inst.kind == "equity":
            return inst, "nickname"
    return None


def _ends_on_word(text: str, hit_end: int, name_end: int, form: tuple[int, int]) -> bool:
    """A table name that ends at the name's end, or inside its form at a word's end."""
    return hit_end == name_end or (form[0] <= hit_end <= form[1] and not text[hit_end:hit_end + 1].isalnum())


def _plain(name: str) -> str:
    return " ".join(name.split())


@lru_cache(maxsize=1)
def _index_names() -> dict[str, str]:
    """Core name → Yahoo symbol of each index company, names that two companies share left out."""
    by_core: dict[str, set[str]] = {}
    for name, ticker in index_companies().items():
        by_core.setdefault(core(name), set()).add(ticker)
    return {name: next(iter(tickers)) for name, tickers in by_core.items() if len(tickers) == 1 and name}


# -- Chinese ------------------------------------------------------------------------------------

_RUN = re.compile(r"[\u4e00-\u9fff]{1,16}$")


def _chinese(text: str, form: re.Match, table: AliasTable, hits: Sequence[TableMatch]) -> LegalName | None:
    run = _RUN.search(text, 0, form.start())
    if run is None or len(run.group(0)) < 2:
        return None
    start, end = run.span()
    words = run.group(0)
    # The name without its form first ("比亚迪", not the H share's "比亚迪股份"), then a table name
    # running into the form ("美的集团").
    inside = [(start + h.start, h) for h in table.find(words) if h.instrument.kind in _COMPANY_KINDS]
    inside = inside or [(h.start, h) for h in hits if start <= h.start < end and h.end <= form.end()
                        and h.instrument.kind in _COMPANY_KINDS]
    if inside:
        # The longest company name in it, the one nearest the form if two are as long
        # ("中国石油" in 中国石油天然气, not 天然气 the commodity).
        at, hit = max(inside, key=lambda found: (found[1].end - found[1].start, found[0]))
        return LegalName(at, form.end(), hit.instrument, hit.read_as, form.span())
    listed = [(words.find(name), name, code) for name, code in _short_names().items() if name in words]
    if listed:
        at, name, code = max(listed, key=lambda c: (len(c[1]), -c[0]))
        ticker = a_share_ticker(code)
        if ticker:
            return LegalName(start + at, form.end(), table.by_ticker.get(ticker) or Instrument(ticker, name, "equity"),
                             "exact", form.span())
    shortened = _shortened(words, table)
    if shortened is not None:
        at, inst = shortened
        return LegalName(start + at, form.end(), inst, "nickname", form.span())
    return None


def _shortened(words: str, table: AliasTable) -> tuple[int, Instrument] | None:
    """A name of three characters or more made of the legal name's characters in order, its first
    one first and none far apart (台积电 in 台湾积体电路制造); the one reaching furthest into it wins."""
    best: tuple[tuple[int, int], int, Instrument] | None = None
    for short, inst in _short_forms(table):
        at = words.find(short[0])
        if at < 0:
            continue
        places = _in_order(words, short, at)
        if places is None or places[-1] - places[0] + 1 > 3 * len(short) or len(words) - places[-1] - 1 > 6:
            continue
        rank = (places[-1], len(short))
        if best is None or rank > best[0]:
            best = (rank, places[0], inst)
    return (best[1], best[2]) if best else None


def _in_order(words: str, short: str, at: int) -> list[int] | None:
    places = [at]
    for ch in short[1:]:
        at = words.find(ch, at + 1)
        if at < 0:
            return None
        places.append(at)
    return places


@lru_cache(maxsize=1)
def _short_names() -> dict[str, str]:
    """A-share short name → code, three characters or more, without the ST marks ("*ST全新" → 全新)."""
    names: dict[str, str] = {}
    for code, name in a_share_names().items():
        name = re.sub(r"^\*?ST", "", name)
        if len(name) >= 3 and has_cjk(name):
            names.setdefault(name, code)
    return names


def _short_forms(table: AliasTable) -> list[tuple[str, Instrument]]:
    """The Chinese names of companies the table and the A-share list know, three characters or more."""
    forms = [(name, inst) for name, inst in table.cjk_spellings.items() if inst.kind == "equity" and len(name) >= 3]
    for name, code in _short_names().items():
        ticker = a_share_ticker(code)
        if ticker:
            forms.append((name, table.by_ticker.get(ticker) or Instrument(ticker, name, "equity")))
    return forms
