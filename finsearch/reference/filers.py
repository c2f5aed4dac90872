"""Well-known institutional investment managers that file Form 13F, by name and SEC CIK.

    filer_named("伯克希尔最新13F持仓") → Filer(Berkshire Hathaway Inc, 1067983, …)
    resolve("Bridgewater") / resolve("1350694") / resolve("CIK0001350694") → Filer | None

EDGAR has no search of 13F filers by name in its JSON API, so the `sec_13f` source takes a
name from this small table or a CIK given directly. The planner reads the same table to see
that a question asks about an institution's holdings, so the names live once, here.
"""

from __future__ import annotations

import dataclasses
import re


@dataclasses.dataclass(frozen=True)
class Filer:
    name: str                      # as EDGAR names the filer
    cik: int
    aliases: tuple[str, ...]       # lower-case names and nicknames people use, EN and ZH
    tickers: tuple[str, ...] = ()  # the filer's own listings: "What does Berkshire hold?" is not about BRK-B


FILERS: tuple[Filer, ...] = (
    Filer("Berkshire Hathaway Inc", 1067983,
          ("berkshire hathaway", "berkshire", "buffett", "伯克希尔哈撒韦", "伯克希尔", "巴菲特"), ("BRK-B", "BRK-A")),
    Filer("Bridgewater Associates, LP", 1350694, ("bridgewater", "ray dalio", "dalio", "桥水", "达利欧")),
    Filer("Renaissance Technologies LLC", 1037389, ("renaissance technologies", "renaissance", "rentec",
                                                    "文艺复兴科技", "文艺复兴")),
    Filer("Vanguard Group Inc", 102909, ("vanguard", "先锋领航", "先锋集团")),
    Filer("BlackRock Inc.", 1364742, ("blackrock", "贝莱德"), ("BLK",)),
    Filer("Citadel Advisors LLC", 1423053, ("citadel", "ken griffin", "城堡投资", "城堡基金")),
    Filer("Pershing Square Capital Management, L.P.", 1336528, ("pershing square", "bill ackman", "ackman",
                                                                 "潘兴广场", "阿克曼")),
    Filer("Scion Asset Management, LLC", 1649339, ("scion asset management", "scion", "michael burry", "burry",
                                                   "迈克尔·伯里", "伯里")),
    Filer("ARK Investment Management LLC", 1697748, ("ark invest", "ark investment", "cathie wood",
                                                     "方舟投资", "木头姐")),
    Filer("Soros Fund Management LLC", 1029160, ("soros fund management", "soros", "索罗斯")),
    Filer("Bill & Melinda Gates Foundation Trust", 1166559, ("gates foundation", "盖茨基金会")),
    Filer("Baupost Group LLC/MA", 1061768, ("baupost", "seth klarman", "klarman", "包普斯特")),
    Filer("Duquesne Family Office LLC", 1536411, ("duquesne", "druckenmiller", "德鲁肯米勒")),
)

_CIK = re.compile(r"^(?:cik)?\s*0*(\d{1,10})$", re.I)


def _pattern(alias: str) -> re.Pattern:
    # Latin names as whole words ("ark" not in "market"); Chinese names anywhere.
    if alias.isascii():
        return re.compile(rf"(?<![a-z]){re.escape(alias)}(?![a-z])", re.I)
    return re.compile(re.escape(alias))


_BY_ALIAS = sorted(((alias, _pattern(alias), filer) for filer in FILERS for alias in filer.aliases),
                   key=lambda entry: -len(entry[0]))


def filer_named(text: str) -> Filer | None:
    """The table's filer a text names (its longest matching name wins), or None."""
    for _, pattern, filer in _BY_ALIAS:
        if pattern.search(text or ""):
            return filer
    return None


def resolve(value: str) -> Filer | None:
    """A filer from a name in the table or from a CIK ("1067983", "CIK0001067983"); a CIK not
    in the table gives a Filer named by its CIK (EDGAR's answer names it)."""
    text = " ".join(str(value or "").split())
    m = _CIK.match(text)
    if m:
        cik = int(m.group(1))
        return next((f for f in FILERS if f.cik == cik), None) or Filer(f"CIK {cik}", cik, ())
    if not text:
        return None
    folded = text.casefold()
    return next((f for f in FILERS if folded == f.name.casefold() or folded in f.aliases), None) \
        or filer_named(text)
