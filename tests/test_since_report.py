"""'Since earnings' is dated by the company's earnings calendar (issue 32, class 7): the rules plan the
earnings node first, the price and news nodes wait for it, the rewriter starts them on the day of the
last report, and the interpretation shows the guessed quarter until then and the report's day after.

Now is Tue 2024-10-15 20:00 UTC; the guess is the quarter back (2024-07-15); Netflix's canned earnings
calendar says it last reported on 2024-07-18 (after the close, 20:00 UTC)."""

import threading
from datetime import date

import pytest

from finsearch.errors import NoData
from finsearch.events import NodeRewritten
from finsearch.graph import NodeStatus
from finsearch.pipeline import finished, run
from finsearch.plan.analysis import analyse
from finsearch.plan.interpretation import AnchorDay, Interpretation
from finsearch.plan.interpretation_text import period_line, summary
from finsearch.plan.rules import heuristic_plan
from finsearch.sources.hub import DataHub
from tests.conftest import NOW

EARNINGS = {"title": "NFLX earnings", "url": None, "published": "2024-07-18T20:00:00Z",
            "data": {"ticker": "NFLX", "next_date": "2024-10-17",
                     "history": [{"date": "2024-07-18T20:00:00Z", "eps_estimate": 4.74, "eps_reported": 4.88,
                                  "surprise_pct": 2.95},
                                 {"date": "2024-04-18T20:00:00Z", "eps_estimate": 4.52, "eps_reported": 5.28,
                                  "surprise_pct": 16.81}]}}


class Calendar:
    """The network's stand-in: the earnings calendar above, a price series, a headline; records calls."""

    def __init__(self, earnings_fail=None):
        self.earnings_fail = earnings_fail
        self.calls = []
        self.lock = threading.Lock()

    def fetch(self, source, args):
        with self.lock:
            self.calls.append((source, dict(args)))
        if source == "earnings":
            if self.earnings_fail:
                raise self.earnings_fail
            return [EARNINGS]
        if source == "price_history":
            return [{"title": "NFLX prices", "period": {"start": args["start"], "end": args["end"]},
                     "data": {"ticker": "NFLX", "rows": [[args["start"], 1, 1, 1, 1, 1]]}}]
        return [{"title": f"{source} NFLX", "url": None, "published": "2024-10-11T12:00:00Z"}]


def ask(question, settings, calendar):
    hub = DataHub(settings, adapters={s: calendar for s in ("earnings", "price_history", "news", "quote",
                                                             "web_search")})
    events = list(run(question, settings=settings, now=NOW, hub=hub))
    return finished(events), events


@pytest.mark.parametrize(("question", "ticker"), [("how has nflx done since earnings", "NFLX"),
                                                  ("美团财报后股价表现", "3690.HK"),
                                                  ("英伟达自上次财报以来涨了多少", "NVDA")])
def test_the_earnings_node_is_planned_first_and_the_windowed_nodes_wait_for_it(question, ticker):
    nodes = heuristic_plan(analyse(question, NOW), NOW)
    earnings = next(n for n in nodes if n.source == "earnings")
    assert earnings.args == {"ticker": ticker} and not earnings.depends_on
    windowed = [n for n in nodes if "start" in n.args]
    assert {n.source for n in windowed} >= {"price_history"}
    assert all(n.depends_on == (earnings.id,) for n in windowed)


def test_a_question_without_earnings_words_plans_as_before():
    nodes = heuristic_plan(analyse("how has nflx done this month", NOW), NOW)
    assert "earnings" not in {n.source for n in nodes} and not any(n.depends_on for n in nodes)


def test_the_run_starts_the_price_and_news_windows_on_the_report_day(settings):
    calendar = Calendar()
    result, events = ask("how has nflx done since earnings", settings, calendar)
    price = next(n for n in result.graph if n.source == "price_history")
    news = next(n for n in result.graph if n.source == "news")
    assert (price.args["start"], price.args["end"]) == ("2024-07-18", "2024-10-15")
    assert price.sub_query == "Netflix (NFLX) price history 2024-07-18 → 2024-10-15"
    assert (price.time_context.start, price.time_context.anchor) == (date(2024, 7, 18), None)
    assert (news.args["start"], news.args["end"]) == ("2024-07-18", "2024-10-15")
    assert news.sub_query == "News on Netflix (NFLX) since earnings, from the report of 2024-07-18"
    # The calendar was asked first; the price series over the report's days, never the guessed quarter.
    sources = [source for source, _ in calendar.calls]
    assert sources.index("earnings") < sources.index("price_history")
    assert [args["start"] for source, args in calendar.calls if source == "price_history"] == ["2024-07-18"]
    assert {e.node.source for e in events if isinstance(e, NodeRewritten)} >= {"price_history", "news"}


def test_the_interpretation_shows_the_guess_then_the_report_day(settings):
    analysis = analyse("how has nflx done since earnings", NOW)
    before = Interpretation.of(analysis, NOW)
    assert before.period.guess and (before.period.time.start, before.period.time.end) == \
        (date(2024, 7, 15), date(2024, 10, 15))
    assert "since earnings (2024-07-15 → 2024-10-15, a guess)" in summary(before)
    assert period_line(before.period) == ("Period since earnings (2024-07-15 → 2024-10-15): a guess until a "
                                          "source gives the day of the event")
    assert before.to_json()["period"]["guess"] is True

    result, _ = ask("how has nflx done since earnings", settings, Calendar())
    after = result.interpretation
    assert not after.period.guess and after.period.dated_by == (AnchorDay("NFLX", date(2024, 7, 18)),)
    assert (after.period.time.start, after.period.time.end) == (date(2024, 7, 18), date(2024, 10, 15))
    assert "since earnings (2024-07-18 → 2024-10-15)" in summary(after)
    assert period_line(after.period) == ("Period since earnings: from NFLX on 2024-07-18 (the last report, by "
                                         "the earnings calendar) to 2024-10-15")
    shown = result.to_dict()["interpretation"]["period"]
    assert (shown["start"], shown["dated_by"]) == ("2024-07-18", [{"ticker": "NFLX", "day": "2024-07-18"}])
    assert "guess" not in shown and "anchor" not in shown
    # The note that the window was a guess is gone with the guess.
    assert not any("its exact date is not confirmed" in note for note in result.notes)


def test_the_interpretation_in_chinese():
    analysis = analyse("奈飞财报后股价表现", NOW)
    before = Interpretation.of(analysis, NOW)
    assert period_line(before.period, "zh") == "时间段 财报后（2024-07-15 → 2024-10-15）：查到事件日期之前的估计"
    after = Interpretation.of(analysis, NOW, dated=(AnchorDay("NFLX", date(2024, 7, 18)),))
    assert period_line(after.period, "zh") == "时间段 财报后：自 NFLX 2024-07-18（据财报日历的上次财报）至 2024-10-15"


def test_without_a_report_day_the_nodes_run_over_the_guess_and_say_so(settings):
    calendar = Calendar(earnings_fail=NoData("no earnings dates for NFLX from Yahoo Finance"))
    result, _ = ask("how has nflx done since earnings", settings, calendar)
    price = next(n for n in result.graph if n.source == "price_history")
    assert price.status is NodeStatus.DONE and price.args["start"] == "2024-07-15"
    assert result.interpretation.period.guess and not result.interpretation.period.dated_by
    assert any("its exact date is not confirmed" in note for note in result.notes)
