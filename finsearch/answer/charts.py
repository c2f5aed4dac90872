"""Interactive K-line (candlestick) charts from price-history evidence, with plotly.

    kline(history)         candlesticks + volume, MA20/MA50, range buttons, the biggest
                           moves marked (chart_marks), non-trading days removed from the axis;
                           intraday bars on the exchange's clock, its holidays from its calendar
    comparison(histories)  several instruments as % change from a common start
    figures_for(graph)     every chart a run's finished price nodes can draw

Pure data in, `plotly.graph_objects.Figure` out: the app shows them, the HTML report
embeds them, tests inspect them. A `ChartStyle` (chart_style) gives the labels' language and
which colour means up. The layout suits a phone as well as a desktop: the legend sits below the
plot, the toolbar is cut down, and move labels have room inside the plot.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, tzinfo

from ..catalogue import payload_of
from ..evidence import Evidence
from ..graph import NodeStatus, SearchGraph, SearchNode
from ..payloads import PriceHistory
from ..phrases import say
from ..reference import markets
from ..reference.markets import Market, bar_day
from .chart_marks import marks
from .chart_style import ChartStyle

RANGE_BUTTONS = [      # labelled in the chart's language (chart.range_<key>)
    ("1m", {"count": 1, "step": "month", "stepmode": "backward"}),
    ("3m", {"count": 3, "step": "month", "stepmode": "backward"}),
    ("6m", {"count": 6, "step": "month", "stepmode": "backward"}),
    ("ytd", {"count": 1, "step": "year", "stepmode": "todate"}),
    ("1y", {"count": 1, "step": "year", "stepmode": "backward"}),
    ("all", {"step": "all"}),
]
# Under the plot, from the left: at the top right a legend ran into the title on a phone.
# Placed against the figure's bottom edge (container), below the date labels, whatever the height.
LEGEND_BELOW = {"orientation": "h", "x": 0, "xanchor": "left", "y": 0, "yanchor": "bottom", "yref": "container"}
# The toolbar keeps what a reader needs (reset the zoom, save a picture); the rest covered the legend.
MODEBAR = {"remove": ["zoom", "pan", "select", "lasso", "zoomIn", "zoomOut", "autoScale", "toggleSpikelines",
                      "hoverClosestCartesian", "hoverCompareCartesian"]}
# From the figure's top left, below the toolbar's row (it shows on hover at the top right and
# covered a long title's end on a phone).
TITLE = {"x": 0, "xref": "container", "xanchor": "left", "y": 1, "yref": "container", "yanchor": "top",
         "pad": {"l": 8, "t": 38}}
HEADROOM = 0.3          # of the price range, above the highest high and below the lowest low
ARROW_PX, LEAN_PX = 22, 18   # the right margin leaves room for a label leaning right off the last day


def price_items(graph: SearchGraph) -> list[tuple[SearchNode, Evidence]]:
    """(node, evidence) for the price rows of finished nodes, one per ticker, in node order."""
    out, seen = [], set()
    for node in graph:
        if payload_of(node.source) != "price_history" or node.status is not NodeStatus.DONE:
            continue
        for item in node.evidence:
            ticker = item.ticker or node.args.get("ticker")
            if item.prices and item.prices.rows and ticker not in seen:
                seen.add(ticker)
                out.append((node, item))
    return out


def price_payloads(graph: SearchGraph) -> list[dict]:
    return [item.data for _, item in price_items(graph)]


def chart_specs(graph: SearchGraph) -> list[dict]:
    """A candlestick spec for every ticker with price rows (the `charts` of a run)."""
    specs = []
    for node, item in price_items(graph):
        rows = item.prices.rows
        specs.append({"ticker": item.ticker or node.args.get("ticker"), "type": "candlestick",
                      "start": rows[0][0], "end": rows[-1][0], "rows": len(rows),
                      "interval": item.prices.interval, "evidence_id": item.id, "node_id": node.id})
    return specs


def _moving_average(values: list[float], window: int) -> list[float | None]:
    out, total = [], 0.0
    for i, value in enumerate(values):
        total += value
        if i >= window:
            total -= values[i - window]
        out.append(round(total / window, 4) if i >= window - 1 else None)
    return out


def _breaks(days: list[date], intraday: bool, market: Market | None = None) -> list[dict]:
    """Hide the days with no trading so candles sit side by side: weekends, the market's
    holidays (from its exchange calendar), and any weekday without bars. `days` are the
    trading days of the plotted bars, on the exchange's clock."""
    if not days:
        return []
    have = set(days)
    first, last = min(days), max(days)
    weekends_trade = any(d.weekday() >= 5 for d in have)
    breaks = [] if weekends_trade else [{"bounds": ["sat", "mon"]}]
    open_days = set(markets.sessions(market, first, last)) if markets.has_calendar(market, first, last) else set()
    missing, day = [], first
    while day <= last:
        if day.weekday() < 5 and (day not in have or open_days and day not in open_days):
            missing.append(day.isoformat())
        day += timedelta(days=1)
    if missing:
        breaks.append({"values": missing, **({"dvalue": 86_400_000} if intraday else {})})
    return breaks


def _on_clock(stamp: str, zone: tzinfo | None) -> str:
    """An intraday row's UTC stamp as wall-clock time at the exchange ("2024-10-14T10:00:00"
    in Sydney), so the axis, its day breaks and the hover read as the market's own hours."""
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if zone is None or when.tzinfo is None:
        return stamp
    return when.astimezone(zone).replace(tzinfo=None).isoformat()


def _ranges(days: list[date], style: ChartStyle) -> list[dict]:
    """The range buttons that show less than the whole history (a "1Y" button on two months of
    bars draws what "All" does, and six buttons overflow a phone's width), and "All"."""
    if not days:
        return []
    first, last = min(days), max(days)
    wanted = {"1m": (last - first).days > 31, "3m": (last - first).days > 92, "6m": (last - first).days > 183,
              "ytd": first < date(last.year, 1, 1), "1y": (last - first).days > 366, "all": True}
    return [{**button, "label": style.say(f"range_{key}")} for key, button in RANGE_BUTTONS if wanted[key]]


def _headroom(lows: list[float], highs: list[float]) -> list[float] | None:
    """The price axis with room above and below the candles for the move labels, so a label
    never reaches into the title or the range buttons."""
    if not lows:
        return None
    low, high = min(lows), max(highs)
    pad = (high - low) * HEADROOM or abs(high) * 0.05 or 1.0
    return [low - pad, high + pad]


def _annotate_moves(fig, history: PriceHistory, days: list[date], x: list[str], rows: list,
                    style: ChartStyle) -> None:
    by_day = {day.isoformat(): (at, r) for day, at, r in zip(days, x, rows, strict=True)}   # a day's last bar
    chosen = marks(history.stats.biggest_moves, [d.isoformat() for d in days])
    for mark in chosen:
        at, row = by_day[mark.move.date]
        month, day = mark.move.date[5:7], mark.move.date[8:10]
        fig.add_annotation(x=at, y=row[2] if mark.above else row[3], row=1, col=1,
                           text=style.say("move", change=f"{mark.move.change_pct:+.1f}%", date=mark.move.date[5:],
                                          month=int(month), day=int(day)),
                           showarrow=True, arrowhead=2, arrowwidth=1, ax=mark.lean * LEAN_PX,
                           ay=-ARROW_PX if mark.above else ARROW_PX, font={"size": 10},
                           bgcolor="rgba(255,255,255,0.85)")


def kline(history: PriceHistory, name: str | None = None, style: ChartStyle | None = None):
    """Candlesticks over volume for one instrument, labelled and coloured by `style`."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    style = style or ChartStyle()
    rows = [r for r in history.rows if None not in r[1:5]]
    ticker = history.ticker or ""
    intraday = history.interval not in ("1d", "5d", "1wk", "1mo", "3mo")
    zone = markets.zone_for(history.timezone, ticker)
    x = [_on_clock(r[0], zone) for r in rows] if intraday else [r[0] for r in rows]
    days = [bar_day(r[0], zone) for r in rows]
    opens, highs, lows, closes = ([r[i] for r in rows] for i in (1, 2, 3, 4))
    volumes = [r[5] or 0 for r in rows]
    # Written out here, not by plotly: its hover labels ("open", "high") are English only.
    hover = [style.say("hover", open=f"{o:,.2f}", high=f"{h:,.2f}", low=f"{lo:,.2f}", close=f"{c:,.2f}")
             for o, h, lo, c in zip(opens, highs, lows, closes, strict=True)]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.76, 0.24], vertical_spacing=0.03)
    fig.add_trace(go.Candlestick(x=x, open=opens, high=highs, low=lows, close=closes, name=name or ticker,
                                 increasing_line_color=style.up, decreasing_line_color=style.down,
                                 hovertext=hover, hoverinfo="x+text+name"), row=1, col=1)
    for window, colour in ((20, "#f0a202"), (50, "#3a6ea5")):
        if len(closes) >= window:
            # connectgaps: plotly breaks a line wherever it crosses a hidden day (a holiday's
            # rangebreak), which drew each MA in pieces; the values themselves have no gaps.
            fig.add_trace(go.Scatter(x=x, y=_moving_average(closes, window),
                                     name=style.say("moving_average", window=window), connectgaps=True,
                                     line={"width": 1.3, "color": colour}, hoverinfo="skip"), row=1, col=1)
    colours = [style.up if c >= o else style.down for o, c in zip(opens, closes, strict=True)]
    fig.add_trace(go.Bar(x=x, y=volumes, name=style.say("volume"), marker_color=colours, opacity=0.6,
                         hovertemplate="%{y:,.0f}"), row=2, col=1)
    _annotate_moves(fig, history, days, x, rows, style)
    currency = f" · {history.currency}" if history.currency else ""
    label = say("instrument", style.language, name=name, ticker=ticker) if name and name != ticker else ticker
    fig.update_layout(title={"text": label + currency, **TITLE},
                      template="plotly_white", height=540, margin={"l": 40, "r": 36, "t": 96, "b": 40},
                      hovermode="x unified", showlegend=True, legend=LEGEND_BELOW, modebar=MODEBAR,
                      xaxis_rangeslider_visible=False, dragmode="zoom")
    fig.update_xaxes(rangebreaks=_breaks(days, intraday, markets.market_of(ticker)),
                     tickformat=style.say("time_ticks" if intraday else "day_ticks"),
                     hoverformat=style.say("time_hover" if intraday else "day_hover"))
    fig.update_xaxes(rangeselector={"buttons": _ranges(days, style), "font": {"size": 11}}, row=1, col=1)
    fig.update_yaxes(title_text=style.say("price"), range=_headroom(lows, highs), row=1, col=1)
    fig.update_yaxes(title_text=style.say("volume"), row=2, col=1)
    return fig


def warm_up() -> None:
    """Build and serialise a two-day K-line of the kinds `kline` draws: plotly's first figure
    of a process loads its validators (about a second), which a server can pay before anyone asks."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    days = ["2024-01-02", "2024-01-03"]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True)
    fig.add_trace(go.Candlestick(x=days, open=[1, 2], high=[2, 3], low=[0.5, 1], close=[2, 1]), row=1, col=1)
    fig.add_trace(go.Scatter(x=days, y=[1.5, 1.5]), row=1, col=1)
    fig.add_trace(go.Bar(x=days, y=[10, 20]), row=2, col=1)
    fig.add_annotation(x=days[1], y=1, text="-50%", showarrow=True)
    fig.update_layout(template="plotly_white", legend=LEGEND_BELOW, modebar=MODEBAR)
    fig.update_xaxes(rangebreaks=[{"bounds": ["sat", "mon"]}], rangeselector={"buttons": []})
    fig.to_plotly_json()


def comparison(histories: list[PriceHistory], names: dict[str, str] | None = None, style: ChartStyle | None = None):
    """% change of each instrument from its close before the period (its `start_date`)."""
    import plotly.graph_objects as go

    style = style or ChartStyle()
    names = names or {}
    fig = go.Figure()
    for history in histories:
        base_day = history.stats.start_date
        zone = markets.zone_for(history.timezone, history.ticker)
        # A common time axis (UTC) for instruments on different clocks; each one's days on its own.
        rows = [r for r in history.rows if not base_day or bar_day(r[0], zone).isoformat() >= base_day]
        if len(rows) < 2:
            continue
        base = rows[0][4]
        ticker = history.ticker or ""
        fig.add_trace(go.Scatter(x=[r[0] for r in rows], y=[round((r[4] / base - 1) * 100, 2) for r in rows],
                                 mode="lines", name=names.get(ticker, ticker),
                                 hovertemplate="%{y:+.2f}%<extra>" + ticker + "</extra>"))
    fig.update_layout(title={"text": style.say("comparison_title"), **TITLE},
                      template="plotly_white", height=420, hovermode="x unified", yaxis_ticksuffix="%",
                      margin={"l": 40, "r": 20, "t": 70, "b": 40}, legend=LEGEND_BELOW, modebar=MODEBAR)
    fig.update_xaxes(tickformat=style.say("day_ticks"), hoverformat=style.say("day_hover"))
    fig.add_hline(y=0, line_width=1, line_color="#999")
    return fig


def figures_for(graph: SearchGraph, names: dict[str, str] | None = None,
                style: ChartStyle | None = None) -> list[tuple[str, object]]:
    """(title, figure) for every K-line a run can draw, plus a comparison when there are several."""
    return figures_from(price_payloads(graph), names, style)


def figures_from(payloads: list[dict], names: dict[str, str] | None = None,
                 style: ChartStyle | None = None) -> list[tuple[str, object]]:
    """The figures for cleaned price_history payloads (plain data, so the UI can cache on it),
    in `style` (default: English labels, green up)."""
    names = names or {}
    histories = [PriceHistory.of(p) for p in payloads]
    figures = [(h.ticker or "", kline(h, names.get(h.ticker or ""), style)) for h in histories]
    if len(histories) > 1:
        figures.insert(0, ("comparison", comparison(histories, names, style)))
    return figures
