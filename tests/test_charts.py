"""The K-line figures as a reader sees them, built from runs on the demo pack: which colour
means up (by the question's language or the setting), Chinese labels for a Chinese question,
move labels never on neighbouring trading days, and a layout that suits a phone.

Expected values are read off the demo pack by hand (scripts/make_demo_pack.py writes it)."""

from __future__ import annotations

import pytest

from finsearch import pipeline
from finsearch.answer import charts
from finsearch.answer.chart_marks import marks
from finsearch.answer.chart_style import chart_style
from finsearch.errors import ConfigError
from finsearch.payloads import PriceMove
from finsearch.settings import from_env
from tests.conftest import DEMO_PACK, NOW

GREEN, RED = "#1a9c5b", "#d64545"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("charts")
    settings = from_env({}, cache_dir=folder / "cache", data_dir=folder / "data", llm="heuristic", now=NOW,
                        pack=DEMO_PACK, offline=True)
    questions = {"tsla": "How did TSLA do last week?", "moutai": "茅台最近一个月表现如何？",
                 "pair": "Compare AAPL and MSFT year to date"}
    return {name: pipeline.ask(question, settings=settings) for name, question in questions.items()}


def figure(run, names=None, candle_colours="auto", which=None):
    style = chart_style(run.analysis.language, candle_colours)
    figures = dict(charts.figures_from(charts.price_payloads(run.graph), names, style))
    return figures[which] if which else next(iter(figures.values()))


def candles(fig):
    return next(t for t in fig.data if t.type == "candlestick")


def volume_colour(fig, day: str) -> str:
    bars = next(t for t in fig.data if t.type == "bar")
    return bars.marker.color[list(bars.x).index(day)]


def test_an_english_question_has_green_up_candles_and_volume(runs):
    fig = figure(runs["tsla"])
    assert candles(fig).increasing.line.color == GREEN and candles(fig).decreasing.line.color == RED
    assert volume_colour(fig, "2024-10-07") == GREEN      # opened 267.02, closed 271.37
    assert volume_colour(fig, "2024-10-11") == RED        # opened 256.32, closed 236.30


def test_a_chinese_question_has_red_up_candles_and_volume(runs):
    assert runs["moutai"].analysis.language == "zh"
    fig = figure(runs["moutai"])
    assert candles(fig).increasing.line.color == RED and candles(fig).decreasing.line.color == GREEN
    assert volume_colour(fig, "2024-10-11") == RED        # opened 1535.29, closed 1574.90
    assert volume_colour(fig, "2024-10-15") == GREEN      # opened 1567.79, closed 1560.00


def test_the_setting_colours_every_question_one_way(runs):
    assert candles(figure(runs["tsla"], candle_colours="red_up")).increasing.line.color == RED
    assert volume_colour(figure(runs["tsla"], candle_colours="red_up"), "2024-10-07") == RED
    assert candles(figure(runs["moutai"], candle_colours="green_up")).increasing.line.color == GREEN
    assert volume_colour(figure(runs["moutai"], candle_colours="green_up"), "2024-10-11") == GREEN


def test_the_colour_setting_comes_from_the_environment():
    assert from_env({}).candle_colours == "auto"
    assert from_env({"FINSEARCH_CANDLE_COLOURS": "Red-Up"}).candle_colours == "red_up"
    assert from_env({"FINSEARCH_CANDLE_COLOURS": "green_up"}).candle_colours == "green_up"
    with pytest.raises(ConfigError, match="FINSEARCH_CANDLE_COLOURS must be one of auto, red_up, green_up"):
        from_env({"FINSEARCH_CANDLE_COLOURS": "purple"})


def test_a_chinese_question_gets_chinese_chart_labels(runs):
    fig = figure(runs["moutai"], names={"600519.SS": "贵州茅台"})
    assert fig.layout.title.text == "贵州茅台（600519.SS） · CNY"
    assert [t.name for t in fig.data] == ["贵州茅台", "20日均线", "成交量"]
    assert (fig.layout.yaxis.title.text, fig.layout.yaxis2.title.text) == ("价格", "成交量")
    assert [b.label for b in fig.layout.xaxis.rangeselector.buttons] == ["近1月", "全部"]
    assert [a.text for a in fig.layout.annotations] == ["+9.9%<br>9月30日", "-5.6%<br>10月9日", "+2.4%<br>10月11日"]
    first = list(candles(fig).x).index("2024-10-11")
    assert candles(fig).hovertext[first] == "开盘 1,535.29<br>最高 1,576.27<br>最低 1,529.94<br>收盘 1,574.90"
    assert fig.layout.xaxis.tickformat == "%-m月%-d日" and fig.layout.xaxis.hoverformat == "%Y年%-m月%-d日"


def test_an_english_question_keeps_english_labels(runs):
    fig = figure(runs["tsla"], names={"TSLA": "Tesla"})
    assert fig.layout.title.text == "Tesla (TSLA) · USD"
    assert [t.name for t in fig.data] == ["Tesla", "MA20", "MA50", "Volume"]
    assert (fig.layout.yaxis.title.text, fig.layout.yaxis2.title.text) == ("Price", "Volume")


def test_the_comparison_is_titled_in_the_questions_language(runs):
    pair = runs["pair"]
    english = dict(charts.figures_from(charts.price_payloads(pair.graph), None, chart_style("en")))["comparison"]
    chinese = dict(charts.figures_from(charts.price_payloads(pair.graph), None, chart_style("zh")))["comparison"]
    assert english.layout.title.text == "Change since the start of the period (%)"
    assert chinese.layout.title.text == "自区间起点的涨跌幅（%）"


def test_moves_on_neighbouring_days_are_never_both_marked(runs):
    # TSLA's biggest moves last week: 10-11 (-8.8 %), 10-09 (-3.8 %), 10-10 (-1.3 %), 10-08, 10-07.
    # 10-09 and 10-10 used to be labelled on top of each other.
    fig = figure(runs["tsla"])
    assert [a.text for a in fig.layout.annotations] == ["+0.4%<br>10-07", "-3.8%<br>10-09", "-8.8%<br>10-11"]
    assert [a.ay < 0 for a in fig.layout.annotations] == [True, False, True]      # above, below, above
    assert [a.ax for a in fig.layout.annotations] == [-18, 0, 18]                  # the outer two lean apart
    # Shanghai was shut for Golden Week: 09-30 and 10-08 are neighbouring trading days.
    fig = figure(runs["moutai"])
    assert [a.x for a in fig.layout.annotations] == ["2024-09-30", "2024-10-09", "2024-10-11"]


def test_marks_skip_neighbours_on_the_trading_days_of_the_chart():
    days = ["2024-10-07", "2024-10-08", "2024-10-09", "2024-10-10", "2024-10-11", "2024-10-14"]
    moves = [PriceMove("2024-10-10", -5.0), PriceMove("2024-10-11", 4.0), PriceMove("2024-10-09", 3.0),
             PriceMove("2024-10-14", -2.0), PriceMove("2024-10-01", 9.0), PriceMove("2024-10-07", 1.0)]
    chosen = marks(moves, days)
    # 10-11 and 10-09 sit next to 10-10; 10-14 is the next trading day after 10-11 only, so it stays;
    # 10-01 is not on the chart.
    assert [(m.move.date, m.above, m.lean) for m in chosen] == [("2024-10-07", True, -1), ("2024-10-10", False, 0),
                                                                 ("2024-10-14", True, 1)]
    assert marks(moves, []) == []


def test_the_legend_sits_under_the_plot_and_the_toolbar_is_cut_down(runs):
    for fig in (figure(runs["tsla"]), figure(runs["pair"], which="comparison")):
        legend = fig.layout.legend
        assert (legend.orientation, legend.yref, legend.y, legend.yanchor) == ("h", "container", 0, "bottom")
        assert (fig.layout.title.yref, fig.layout.title.yanchor) == ("container", "top")
        assert {"zoom", "pan", "select", "lasso", "zoomIn", "zoomOut", "autoScale"} <= set(fig.layout.modebar.remove)


def test_the_price_axis_leaves_room_for_the_labels(runs):
    fig = figure(runs["tsla"])
    low, high = min(candles(fig).low), max(candles(fig).high)
    bottom, top = fig.layout.yaxis.range
    assert top - high >= 0.25 * (high - low) and low - bottom >= 0.25 * (high - low)
