"""Names derived from what an entry says about itself, so the table lists facts, not phrasings.

People name a company by what it makes or owns ("the Wegovy maker", "微信的母公司", "owner of
Instagram") or by who runs it ("Jeff Bezos company", "雷军的公司"), and a Treasury yield by its
tenor in any order ("美债十年期", "US 10-year", "10年期美国国债"). An entry states the facts
once — `makes: ["wegovy", "ozempic"]`, `led_by: ["bezos"]`, `tenor_years: 10` — and these
templates turn them into the ways of saying them, in English and Chinese. A derived form never
overrides a name written in the table itself (`AliasTable` keeps the written one).
"""

from __future__ import annotations

# "{p}": a product, brand or service the company makes or owns.
_MAKER_EN = ("{p} maker", "{p}-maker", "{p} makers", "maker of {p}", "maker of the {p}", "{p}'s maker",
             "{p} manufacturer", "manufacturer of {p}", "{p} company", "company behind {p}",
             "company behind the {p}", "company that makes {p}", "company that makes the {p}",
             "company that owns {p}", "{p} parent", "{p}'s parent", "{p} parent company",
             "{p}'s parent company", "parent of {p}", "parent company of {p}", "{p} owner", "{p}'s owner",
             "owner of {p}", "{p} developer", "developer of {p}", "{p}'s developer", "{p} creator",
             "creator of {p}", "{p} producer", "producer of {p}")
_MAKER_ZH = ("{p}制造商", "{p}厂商", "{p}生产商", "{p}的制造商", "{p}的厂商", "{p}的生产商", "{p}母公司",
             "{p}的母公司", "{p}背后的公司", "{p}的公司", "做{p}的公司", "做{p}的那家公司", "生产{p}的公司",
             "{p}开发商", "{p}的开发商", "{p}所属公司", "{p}的所属公司", "{p}的东家", "拥有{p}的公司",
             "{p}所在的公司", "{p}出品方", "{p}的出品方")
# "{n}": a founder or chief the company is known by.
_LEADER_EN = ("{n}'s company", "{n} company", "{n}'s firm", "{n}'s business", "company run by {n}",
              "company led by {n}", "company founded by {n}")
_LEADER_ZH = ("{n}的公司", "{n}旗下公司", "{n}旗下的公司", "{n}的企业", "{n}掌舵的公司", "{n}创办的公司",
              "{n}的集团")

_TENOR_EN = {2: ("2", "two"), 3: ("3", "three"), 5: ("5", "five"), 7: ("7", "seven"),
             10: ("10", "ten"), 20: ("20", "twenty"), 30: ("30", "thirty")}
_TENOR_ZH = {2: ("2", "两", "二"), 3: ("3", "三"), 5: ("5", "五"), 7: ("7", "七"), 10: ("10", "十"),
             20: ("20", "二十"), 30: ("30", "三十")}


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def derived_descriptions(entry: dict) -> list[str]:
    """The description forms an entry's `makes` and `led_by` facts give, lower case."""
    forms: list[str] = []
    for product in entry.get("makes", ()):
        product = product.lower()
        templates = _MAKER_ZH if has_cjk(product) else _MAKER_EN + _MAKER_ZH
        forms.extend(t.format(p=product) for t in templates)
    for leader in entry.get("led_by", ()):
        leader = leader.lower()
        templates = _LEADER_ZH if has_cjk(leader) else _LEADER_EN + _LEADER_ZH
        forms.extend(t.format(n=leader) for t in templates)
    return forms


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
