"""Names derived from what an entry says about itself, so the table lists facts, not phrasings.

People name a Treasury yield by its tenor in any order ("美债十年期", "US 10-year", "10年期美国
国债"): an entry states `tenor_years: 10` once and these templates turn it into the ways of
saying it, in English and Chinese. (What a company makes and who runs it are read where they
stand in a question, by `maker_phrases`.) A derived form never overrides a name written in the
table itself (`AliasTable` keeps the written one).
"""

from __future__ import annotations

import re

_TENOR_EN = {2: ("2", "two"), 3: ("3", "three"), 5: ("5", "five"), 7: ("7", "seven"),
             10: ("10", "ten"), 20: ("20", "twenty"), 30: ("30", "thirty")}
_TENOR_ZH = {2: ("2", "两", "二"), 3: ("3", "三"), 5: ("5", "五"), 7: ("7", "七"), 10: ("10", "十"),
             20: ("20", "二十"), 30: ("30", "三十")}


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def derived_aliases(entry: dict) -> list[str]:
    """A US Treasury yield's names from its `tenor_years`, every order people write them in
    (the longest match wins, so "…收益率" after any of them is simply left over)."""
    years = entry.get("tenor_years")
    if not years:
        return []
    forms: list[str] = []
    for n in _TENOR_EN[years]:
        for dash in ("-", " ", ""):
            tenor = f"{n}{dash}year"
            forms += [f"{tenor} treasury", f"{tenor} treasuries", f"{tenor} treasury yield", f"{tenor} yield",
                      f"{tenor} note", f"{tenor} bond", f"{tenor} us treasury", f"us {tenor}", f"u.s. {tenor}",
                      f"us {tenor} yield", f"us {tenor} treasury", f"{tenor} t-note", f"{tenor} bond yield",
                      f"treasury {tenor}", f"{tenor} government bond yield"]
        if n.isdigit():
            forms += [f"{n}{yr} {w}" for yr in ("yr", "-yr", "y", " yr") for w in ("yield", "treasury", "note")]
            forms += [f"us{n}y", f"us {n}y", f"us{n}yr", f"{n}y ust", f"{n}-year ust", f"ust {n}y"]
    for n in _TENOR_ZH[years]:
        for period in ("年期", "年"):
            tenor = f"{n}{period}"
            forms += [f"{tenor}美债", f"美债{tenor}", f"美国{tenor}国债", f"{tenor}美国国债", f"美国国债{tenor}",
                      f"{tenor}美国国债", f"美{tenor}国债", f"{tenor}期美债"]
    return list(dict.fromkeys(f for f in forms if not f.endswith("年期期美债")))


# -- short names ---------------------------------------------------------------------------

# Shortened words as company names are shortened in print and in listings' short names (EDGAR's
# conformed names, exchanges' short names: "Taiwan Semiconductor Mfg", "ON Semi", "Intl"): each
# full word may be written as any of its short forms.
_SHORT_WORDS = {"semiconductor": ("semi",), "semiconductors": ("semi",), "manufacturing": ("mfg",),
                "international": ("intl",), "technologies": ("tech",), "technology": ("tech",),
                "pharmaceuticals": ("pharma",), "pharmaceutical": ("pharma",), "laboratories": ("labs",),
                "communications": ("comms",), "brothers": ("bros",), "national": ("natl",),
                "management": ("mgmt",), "petroleum": ("petro",)}
# Words that say what line a company is in, dropped from the end of its name as people do ("Palo
# Alto" for Palo Alto Networks, "Thermo Fisher" for Thermo Fisher Scientific). Legal words
# (Inc, Corp, AG, PLC …) are the legal-suffix reader's, not these.
LINE_OF_BUSINESS = frozenset("""
semiconductor semiconductors manufacturing holdings holding group technologies technology systems networks
industries international platforms entertainment communications enterprises enterprise brands therapeutics
biosciences biologics solutions software laboratories labs services motors motor devices computer financial
bancorp resources partners worldwide global scientific interactive electronics automotive energy power airlines
electric healthcare health insurance pharmaceuticals pharmaceutical petroleum mining chemical products digital
aerospace
""".split())
_NOT_A_NAME_END = frozenset("and & of the for de".split())


def derived_short_names(entries: list[dict]) -> list[tuple[int, str, bool]]:
    """(entry index, lower-case name, shortened) for the other ways the table's names are typed:
    respelt with "&" spelt out or left out ("p and g", "s and p 500"), hyphens, dots and
    apostrophes left out ("coca cola", "mcdonalds", "jp morgan"), and, for a company, shortened
    (`shortened` True): words abbreviated ("taiwan semi") or the line of business dropped from the
    end of a name of three words or more ("palo alto", "thermo fisher"). A form is kept only where
    it names one company (its listings elsewhere count as the same) and nothing the table writes
    names anything else; a shortened name never starts with a place or an abbreviation and is
    never a single word ("taiwan", "semi mfg", "analog" stay unread)."""
    from .wordlists import CAPITALISED_STOPWORDS

    places = {w.lower() for w in CAPITALISED_STOPWORDS}
    written = {_folded(a): i for i, e in enumerate(entries)
               for f in ("aliases", "nicknames", "exact_aliases") for a in e.get(f, ())}
    company = _one_index_per_company(entries)
    owners: dict[str, set[int]] = {}
    shortened: dict[str, bool] = {}
    for index, entry in enumerate(entries):
        is_company = entry["kind"] in ("equity", "unlisted")      # an index or a coin is only respelt
        names = [a for a in entry.get("aliases", ()) if not has_cjk(a)] + [entry["name"].split(" (")[0]]
        for name in {_folded(n) for n in names}:
            if "share" in name or "class" in name:
                continue            # "… h-share", "… class a": a listing, not a name people shorten
            forms = _short_forms(name, places) if is_company else dict.fromkeys(_spellings(name, False), False)
            for form, short in forms.items():
                if form != name and written.get(form, index) == index:
                    owners.setdefault(form, set()).add(company[index])
                    shortened[form] = shortened.get(form, True) and short
    return [(min(indexes), form, shortened[form]) for form, indexes in owners.items()
            if len(indexes) == 1 and form not in written]


def _folded(name: str) -> str:
    return name.lower().replace("\u2019", "'")


def _one_index_per_company(entries: list[dict]) -> list[int]:
    """Each entry's company as the index of its first listing (TSM for TSM and 2330.TW)."""
    first = {e["ticker"]: i for i, e in enumerate(entries) if e["ticker"]}
    company = list(range(len(entries)))
    for i, entry in enumerate(entries):
        for other in entry.get("other_listings", ()):
            if other in first:
                j = first[other]
                company[i] = company[j] = min(company[i], company[j])
    return company


def _short_forms(name: str, places: set[str]) -> dict[str, bool]:
    """A company name's respellings (False) and shortened forms (True)."""
    words = name.split()
    cuts = [words]
    while len(cuts[-1]) > 2 and cuts[-1][-1] in LINE_OF_BUSINESS:
        cuts.append(cuts[-1][:-1])
    forms: dict[str, bool] = dict.fromkeys(_spellings(name, True), False)
    for cut in cuts:
        if cut is not words and (cut[0] in places or cut[-1] in _NOT_A_NAME_END):
            continue
        written_out = [""]
        for word in cut:
            written_out = [f"{head} {w}".strip() for head in written_out for w in (word, *_SHORT_WORDS.get(word, ()))]
        for form in written_out:
            if form != name and form.split()[0] not in _ABBREVIATIONS:
                for spelt in _spellings(form, True):
                    forms.setdefault(spelt, True)
    return forms


_ABBREVIATIONS = frozenset(w for short in _SHORT_WORDS.values() for w in short)


def _spellings(form: str, hyphens: bool) -> set[str]:
    """A name as typed with "&" and apostrophes in their other ways, and, where `hyphens`, its
    hyphens and dots too (an index keeps its hyphens: "euro-dollar" is not the eurodollar)."""
    spelt = {form}
    if "&" in form:
        spelt |= {form.replace(" & ", " and ").replace("&", " and ")}
        spelt |= {form.replace("&", "")} if " & " not in form else set()     # "at&t" → "att"
    if "-" in form and hyphens:
        spelt |= {f.replace("-", " ") for f in spelt} | {f.replace("-", "") for f in spelt}
    if "." in form and hyphens:
        spelt |= {" ".join(f.replace(".", "").split()) for f in spelt}
    if "'" in form:
        spelt |= {f.replace("'", "") for f in spelt}
    return {" ".join(f.split()) for f in spelt if len(f.replace(" ", "")) >= 4}


def derived_symbols(entries: list[dict]) -> list[tuple[int, str]]:
    """(entry index, symbol) for a share class's ticker written without its class ("BRK" for
    BRK-B and BRK-A, in the table's order), where no listing has that ticker."""
    tickers = {e["ticker"] for e in entries}
    classes = [(i, e["ticker"]) for i, e in enumerate(entries) if re.fullmatch(r"[A-Z]{2,4}-[A-Z]", e["ticker"] or "")]
    return [(i, ticker.split("-")[0]) for i, ticker in classes if ticker.split("-")[0] not in tickers]
