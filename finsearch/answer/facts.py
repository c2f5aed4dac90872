"""Extractive sentences for the heuristic answer: the figures in one piece of finance
evidence, written out in the answer's language, each sentence ending with its citation.

Numbers are copied from the evidence as they are, rounded only for display, so every
figure in a heuristic answer is traceable to the item it cites.
"""

from __future__ import annotations

from datetime import date

from ..evidence import Evidence
from ..phrases import Language, say
from ..phrases.dates import DaySpan
from ..phrases.numbers import decimal, finite, money, pct
from .markdown import escape
from .told import Told

NOTHING_TOLD = Told()
# A window whose last close falls more than this many days before its end (more than a weekend
# or a holiday) says so: "to 03-17" measured to 03-14 would otherwise read as measured to 03-17.
SHORT_WINDOW_DAYS = 4
# Statement lines in the order an answer names them (at most four).
LINES = ("revenue", "gross_profit", "operating_income", "net_income", "eps", "free_cash_flow",
         "operating_cash_flow", "cash", "debt")


def _dict(value) -> dict:
    """A nested payload field that should be an object (payloads are free-form: anything else
    reads as empty)."""
    return value if isinstance(value, dict) else {}


def _records(value) -> list[dict]:
    """A nested payload field that should be a list of objects, with anything else left out."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def label(ticker: str | None, names: dict[str, str], language: Language) -> str:
    ticker = ticker or ""
    name = names.get(ticker, ticker)
    if not name or name == ticker:
        return escape(ticker)
    return escape(say("instrument", language, name=name, ticker=ticker))


def price_history(item: Evidence, r: int, names: dict, language: Language, when: str,
                  told: Told = NOTHING_TOLD) -> list[str]:
    """The period's change, its biggest daily moves and its range, less what `told` (the opening)
    gave already: a change it gave leaves only the closes, a move it gave only the other move."""
    history = item.prices
    if history is None:
        return []
    stats, cur = history.stats, history.currency
    who = label(history.ticker, names, language)
    ret, start_close, end_close = stats.return_pct, stats.start_close, stats.end_close
    out = []
    if ret is not None and start_close is not None and end_close is not None:
        start, end = stats.focus or ((item.period or {}).get("start"), (item.period or {}).get("end"))
        closes = {"start_close": money(start_close, cur, language), "start_date": stats.start_date or "",
                  "end_close": money(end_close, cur, language), "end_date": stats.end_date or "", "ref": r}
        if not told.cited(ret, r):
            out.append(say("facts.period_change", language, who=who, when=escape(when), span=DaySpan(start, end),
                           verb=say("facts.rose" if ret >= 0 else "facts.fell", language), change=pct(ret, False),
                           **closes))
        elif not (told.on_day(start_close, stats.start_date, percent=False)
                  and told.on_day(end_close, stats.end_date, percent=False)):
            out.append(say("facts.period_closes", language, who=who, **closes))
        short = _days_short(stats.end_date, end)
        if short > SHORT_WINDOW_DAYS:        # the window says the days it actually measured
            out.append(say("facts.short_window", language, end_date=stats.end_date or "", end=end or "",
                           days=str(short), ref=r))
    top = stats.biggest_moves[:2]
    untold = [m for m in top if not told.on_day(m.change_pct, m.date)]
    if untold:
        days = say("list.and", language).join(
            say("facts.move_day", language, change=pct(m.change_pct), date=m.date) for m in untold)
        key = "facts.other_move" if len(untold) < len(top) else \
            "facts.biggest_moves" if len(top) > 1 else "facts.biggest_move"
        out.append(say(key, language, moves=days, ref=r))
    if stats.high is not None and stats.low is not None:
        out.append(say("facts.period_range", language, low=money(stats.low, cur, language),
                       high=money(stats.high, cur, language), ref=r))
    return out


def _days_short(measured: str | None, asked: str | None) -> int:
    try:
        return (date.fromisoformat(str(asked)[:10]) - date.fromisoformat(str(measured)[:10])).days
    except ValueError:
        return 0


def comparison(histories: list[tuple[Evidence, int]], names: dict, language: Language, when: str) -> str:
    """One sentence ranking several instruments by period return, best first."""
    ranked = []
    for item, r in histories:
        ret = item.prices.stats.return_pct if item.prices else None
        if ret is not None:
            ranked.append((ret, label(item.ticker, names, language), r))
    ranked.sort(key=lambda x: -x[0])
    if len(ranked) < 2:
        return ""
    ranking = say("list.sep", language).join(f"{who} {pct(ret)}" for ret, who, _ in ranked)
    return say("facts.ranking", language, when=escape(when), ranking=ranking, best=ranked[0][1],
               refs="".join(f"[{r}]" for _, _, r in ranked))


def quote(item: Evidence, r: int, names: dict, language: Language, dated: bool = False,
          told: Told = NOTHING_TOLD) -> list[str]:
    """The quote's price, change and market cap; `dated`: newer closes have left it behind, so it
    is said as a quote of its day ("was quoted at … on …"), not as the last trade. A price `told`
    gave for the quote's day (the period's last close) is not given again: only the day's change
    and the market cap are."""
    q = item.quote
    if q is None or q.last is None:
        return []
    cap = say("facts.market_cap", language, value=money(q.market_cap, q.currency, language)) \
        if q.market_cap else ""
    as_of = str(q.as_of or item.published or "")[:10]
    if told.on_day(q.last, as_of, percent=False):
        return [say("facts.quote_day", language, who=label(q.ticker, names, language), change=pct(q.change_pct),
                    market_cap=cap, as_of=as_of, ref=r)]
    return [say("facts.quote_dated" if dated else "facts.quote", language, who=label(q.ticker, names, language),
                last=money(q.last, q.currency, language), change=pct(q.change_pct), market_cap=cap,
                as_of=as_of, ref=r)]


def financials(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    lines = _dict(d.get("lines"))
    cur, who = d.get("currency"), label(item.ticker, names, language)
    parts = []
    for key in LINES:
        value = finite(lines.get(key))
        if value is None:
            continue
        shown = decimal(value) if key == "eps" else money(value, cur, language)
        parts.append(f"{say(f'facts.line.{key}', language)} {shown}")
        if len(parts) == 4:
            break
    if not parts:
        return []
    period = escape(str(d.get("period_label") or (item.period or {}).get("end") or ""))
    return [say("facts.statements", language, who=who, period=period,
                lines=say("list.sep", language).join(parts), ref=r)]


def earnings(item: Evidence, r: int, names: dict, language: Language, told: Told = NOTHING_TOLD) -> list[str]:
    """The last reported EPS against its estimate, and the next report's date; when `told` (the
    opening) gave the EPS and the estimate, only what it did not: the surprise and the day."""
    d = item.data or {}
    who, out = label(item.ticker, names, language), []
    reported = [h for h in _records(d.get("history")) if finite(h.get("eps_reported")) is not None]
    if reported:
        last = max(reported, key=lambda h: str(h.get("date")))
        day, surprise = str(last.get("date"))[:10], finite(last.get("surprise_pct"))
        values = {"who": who, "date": day, "surprise": pct(surprise), "ref": r}
        if not (told.said(finite(last.get("eps_reported")), day, percent=False)
                and told.said(finite(last.get("eps_estimate")), day, percent=False)):
            out.append(say("facts.eps", language, eps=decimal(last.get("eps_reported")),
                           estimate=decimal(last.get("eps_estimate")), **values))
        elif surprise is not None and not told.said(surprise, day):
            out.append(say("facts.eps_surprise", language, **values))
    if isinstance(d.get("next_date"), str) and d["next_date"]:
        out.append(say("facts.next_report", language, date=str(d["next_date"])[:10], ref=r))
    return out


def analyst(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    cur, who, out = d.get("currency"), label(item.ticker, names, language), []
    t = _dict(d.get("targets"))
    if finite(t.get("mean")) is not None:
        out.append(say("facts.price_target", language, who=who, mean=money(t["mean"], cur, language),
                       low=money(t.get("low"), cur, language), high=money(t.get("high"), cur, language), ref=r))
    rec = _dict(d.get("recommendations"))
    # Each count as the source gives it: a "58 buy" summed from strong buys and buys is a
    # figure no evidence holds, and the audit would flag it.
    counts = [say(f"facts.rating.{kind}", language, n=int(finite(rec.get(kind)) or 0))
              for kind in ("strong_buy", "buy", "hold", "sell", "strong_sell") if finite(rec.get(kind))]
    if counts:
        out.append(say("facts.ratings", language, counts=say("list.sep", language).join(counts), ref=r))
    return out


def dividends(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    cur, who, out = d.get("currency"), label(item.ticker, names, language), []
    paid = _records(d.get("dividends"))
    if paid:
        last = paid[-1]
        out.append(say("facts.dividend", language, who=who, amount=money(last.get("amount"), cur, language),
                       date=last.get("date"), ref=r))
    if finite(d.get("trailing_yield_pct")) is not None:
        out.append(say("facts.dividend_yield", language, share=pct(d["trailing_yield_pct"], False), ref=r))
    return out


def profile(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    who, out = label(item.ticker, names, language), []
    if d.get("sector") or d.get("industry"):
        out.append(say("facts.sector", language, who=who, sector=escape(str(d.get("sector") or "")),
                       industry=escape(str(d.get("industry") or "")), ref=r))
    ratios = _dict(d.get("ratios"))
    if finite(ratios.get("trailing_pe")) is not None:
        out.append(say("facts.trailing_pe", language, pe=decimal(ratios["trailing_pe"]), ref=r))
    return out


def holders(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    who, out = label(item.ticker, names, language), []
    major = _dict(d.get("major"))
    if finite(major.get("institutions_pct")) is not None:
        out.append(say("facts.institutions", language, who=who, share=pct(major["institutions_pct"], False),
                       ref=r))
    top = _records(d.get("institutional"))[:1]
    if top and top[0].get("holder"):
        out.append(say("facts.top_holder", language, holder=escape(str(top[0]["holder"])),
                       share=pct(top[0].get("pct"), False), ref=r))
    return out


# The writers that leave out what the opening told: they are passed it.
TOLD_WRITERS = {"quote": quote, "earnings": earnings}
WRITERS = {"quote": quote, "financials": financials, "earnings": earnings, "analyst": analyst,
           "dividends": dividends, "profile": profile, "holders": holders}
