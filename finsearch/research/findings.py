"""What a company report's evidence says, read once for the whole report: the price and the
multiples, the analysts' targets and rating changes, the latest results against estimates,
the guidance against consensus, the period's price action and the stories that name a risk.

Sections are researched independently; the executive summary, its stance, the valuation
verdict and the report's tables all read these findings, so each figure is read in one place
(the chat's `quantities`, `freshness` and `derived`, the cause model's kinds) and cited from
the item that holds it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Literal

from ..answer.cause_kinds import KINDS
from ..answer.derived import Derived, upside
from ..answer.freshness import current
from ..answer.quantities import Quantity, quantities
from ..evidence import Evidence
from ..payloads import PriceStats

RISK_WORDS = re.compile(
    r"\brisk|\bprobe|\bantitrust|\bban\b|\bbans\b|\bexport|\bcurb|\brestrict|\blawsuit|\bsue[sd]?\b|\bcompetit|"
    r"\bslow|\bwarn|\bconcern|\bworr|\bdecline|\bfall|\bfell|\bdrop|\bmiss|\bshortage|\bregulat|\btariff|"
    r"风险|调查|限制|禁令|诉讼|竞争|放缓|担忧|下跌|下滑|不及预期|监管|关税", re.I)
# A rating change a headline reports ("Jefferies downgrades Adobe to hold", "获券商上调评级").
_DOWNGRADE = re.compile(r"\bdowngrad\w*|\bcuts?\s+(?:\w+\s+){0,3}to\s+(?:hold|sell|neutral|underweight)\b"
                        r"|下调(?:评级|至)|评级下调", re.I)
_UPGRADE = re.compile(r"\bupgrad\w*\b(?!\s+cycle)|\braises?\s+(?:\w+\s+){0,3}to\s+(?:buy|outperform|overweight)\b"
                      r"|上调(?:评级|至)|评级上调", re.I)
_GUIDANCE = {k.id: k for k in KINDS if k.id in ("guidance_cut", "guidance_raise")}

_GUIDANCE_TITLE = re.compile(r"\bguidance|\boutlook|\bforecast|指引|展望|业绩预告", re.I)

Action = Literal["upgrade", "downgrade"]


@dataclasses.dataclass(frozen=True)
class RatingChange:
    action: Action
    item: Evidence
    day: str | None = None
    firm: str | None = None
    to: str | None = None          # the new rating, when the analyst data says it


@dataclasses.dataclass(frozen=True)
class Guidance:
    direction: Literal[-1, 1]      # below (-1) or above (+1) expectations
    item: Evidence


@dataclasses.dataclass(frozen=True)
class Findings:
    ticker: str | None
    found: tuple[Quantity, ...] = ()
    price: Quantity | None = None
    target: Quantity | None = None                 # the analysts' mean target
    to_target: Derived | None = None               # upside (+) or downside (-) to it, in %
    analyst: Evidence | None = None
    changes: tuple[RatingChange, ...] = ()
    eps: tuple[Quantity, Quantity] | None = None   # (reported, estimate) of the latest quarter
    guidance: Guidance | None = None
    history: Evidence | None = None                # the main instrument's price history
    peers: tuple[str, ...] = ()                    # other instruments with multiples retrieved
    risk_stories: tuple[Evidence, ...] = ()

    def value(self, kind: str, ticker: str | None = None) -> Quantity | None:
        now = current(list(self.found), kind, ticker or self.ticker or "")
        return now.value if now else None

    @property
    def stats(self) -> PriceStats | None:
        return self.history.prices.stats if self.history is not None and self.history.prices else None

    @property
    def results(self) -> Literal["beat", "missed", "met"] | None:
        if self.eps is None:
            return None
        gap = self.eps[0].value - self.eps[1].value
        return "beat" if gap > 0 else "missed" if gap < 0 else "met"

    @property
    def downgrades(self) -> list[RatingChange]:
        return [c for c in self.changes if c.action == "downgrade"]

    @property
    def upgrades(self) -> list[RatingChange]:
        return [c for c in self.changes if c.action == "upgrade"]


def read(evidence: list[Evidence], ticker: str | None) -> Findings:
    """The findings about `ticker` (the report's company) in every item the sections were given."""
    if ticker is None:
        return Findings(None)
    finance = [e for e in evidence if e.kind == "finance"]
    found = tuple(quantities(finance, []))
    mine = [e for e in evidence if e.ticker == ticker or e.ticker is None]
    stories = [e for e in mine if e.kind != "finance"]
    price = _pick(found, "price", ticker, prefer="quote")
    target = _pick(found, "target_mean", ticker)
    analyst = next((e for e in finance if e.source == "analyst" and e.ticker == ticker), None)
    reported, estimate = _pick(found, "eps_reported", ticker), _pick(found, "eps_estimate", ticker)
    histories = [e for e in finance if e.payload == "price_history" and e.ticker == ticker and e.prices]
    history = max(histories, key=lambda e: e.prices.stats.trading_days or 0, default=None)
    peers = tuple(dict.fromkeys(e.ticker for e in finance if e.ticker and e.ticker != ticker
                                and e.source in ("quote", "profile")))
    return Findings(
        ticker, found, price, target,
        upside(target, price) if target and price else None, analyst,
        tuple(_changes(analyst, stories)),
        (reported, estimate) if reported and estimate and reported.item is estimate.item else None,
        _guidance(stories), history, peers,
        tuple(s for s in stories if RISK_WORDS.search(f"{s.title} {s.snippet}")))


def _pick(found, kind: str, ticker: str, prefer: str | None = None) -> Quantity | None:
    if prefer:
        own = [q for q in found if q.kind == kind and q.ticker == ticker and q.item.source == prefer]
        if own:
            return own[0]
    now = current(list(found), kind, ticker)
    return now.value if now else None


def _changes(analyst: Evidence | None, stories: list[Evidence]) -> list[RatingChange]:
    """Rating changes in the analyst data, then those only a headline reports."""
    out: list[RatingChange] = []
    for change in ((analyst.data or {}).get("changes") or []) if analyst is not None else []:
        action = str(change.get("action") or "").lower()
        if action in ("upgrade", "downgrade") and isinstance(change, dict):
            out.append(RatingChange(action, analyst, str(change.get("date") or "")[:10] or None,
                                    change.get("firm"), change.get("to")))
    firms = {str(c.firm).lower() for c in out if c.firm}
    for story in stories:
        action = "downgrade" if _DOWNGRADE.search(story.title) else "upgrade" if _UPGRADE.search(story.title) else None
        if action and not any(f in story.title.lower() for f in firms):
            out.append(RatingChange(action, story, (story.published or "")[:10] or None))
    return out


def _guidance(stories: list[Evidence]) -> Guidance | None:
    # A story whose headline is the guidance first, then the newest.
    for story in sorted(stories, key=lambda e: (bool(_GUIDANCE_TITLE.search(e.title)), e.published or ""),
                        reverse=True):
        text = f"{story.title}. {story.snippet}"
        if _GUIDANCE["guidance_cut"].named_in(text):
            return Guidance(-1, story)
        if _GUIDANCE["guidance_raise"].named_in(text):
            return Guidance(1, story)
    return None


def is_rating_news(item: Evidence) -> bool:
    return bool(_DOWNGRADE.search(item.title) or _UPGRADE.search(item.title)
                or re.search(r"\banalyst|\bprice target|\brating|评级|目标价|研报", item.title, re.I))


def is_guidance_news(item: Evidence) -> bool:
    text = f"{item.title}. {item.snippet}"
    return any(k.named_in(text) for k in _GUIDANCE.values()) or bool(_GUIDANCE_TITLE.search(item.title))
