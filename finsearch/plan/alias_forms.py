"""Names derived from what an entry says about itself, so the table lists facts, not phrasings.

People name a Treasury yield by its tenor in any order ("美债十年期", "US 10-year", "10年期美国
国债"): an entry states `tenor_years: 10` once and these templates turn it into the ways of
saying it, in English and Chinese. (What a company makes and who runs it are read where they
stand in a question, by `maker_phrases`.) A derived form never overrides a name written in the
table itself (`AliasTable` keeps the written one).
"""

from __future__ import annotations

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
