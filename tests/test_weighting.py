"""Time weighting exactly as DESIGN.md defines it."""

from datetime import date, datetime, timezone

import pytest

from finsearch.evidence import Evidence
from finsearch.run.weighting import WeightPolicy, weigh, weight
from finsearch.timecontext import TimeContext

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)
LAST_WEEK = TimeContext(date(2024, 10, 7), date(2024, 10, 13), "last week")
TODAY = TimeContext(date(2024, 10, 15), date(2024, 10, 15), "today", explicit=False)
POLICY = WeightPolicy()


def item(published=None, period=None):
    return Evidence.from_untrusted({"title": "t", "published": published, "period": period},
                                   source="news", kind="news")


@pytest.mark.parametrize(("published", "expected"), [
    ("2024-10-07T00:00:00Z", 1.0),              # lo, inclusive
    ("2024-10-10T12:00:00Z", 1.0),              # inside
    ("2024-10-14T00:00:00Z", 1.0),              # hi = end + 1 day 00:00, inclusive
    ("2024-10-14T18:00:00Z", 0.75),             # 18 h after hi: 1 - 18/72
    ("2024-10-06T00:00:00Z", 1 - 24 / 72),      # a day before lo
    ("2024-10-04T00:00:00Z", 0.1),              # 72 h before lo: floor
    ("2024-09-01T00:00:00Z", 0.1),              # long before: floor
])
def test_linear_decay_outside_the_interval(published, expected):
    assert weight(item(published), LAST_WEEK, NOW, POLICY) == pytest.approx(expected)


def test_hi_is_capped_at_now_so_future_items_decay():
    # today: lo = 2024-10-15 00:00, hi = min(2024-10-16 00:00, now 20:00) = 20:00
    assert weight(item("2024-10-15T19:00:00Z"), TODAY, NOW, POLICY) == 1.0
    assert weight(item("2024-10-16T08:00:00Z"), TODAY, NOW, POLICY) == pytest.approx(1 - 12 / 72)


def test_undated_items_get_the_undated_weight():
    assert weight(item(None), LAST_WEEK, NOW, POLICY) == 0.5
    assert weight(item(None), LAST_WEEK, NOW, WeightPolicy(undated_weight=0.3)) == 0.3


@pytest.mark.parametrize(("period", "expected"), [
    ({"start": "2024-09-01", "end": "2024-10-15"}, 1.0),        # overlaps
    ({"start": "2024-10-13", "end": "2024-10-13"}, 1.0),        # touches the last day
    ({"start": "2024-07-01", "end": "2024-10-05"}, 1 - 24 / 72),  # ends the day before lo - 1
    ({"start": "2024-04-01", "end": "2024-06-30"}, 0.1),        # a quarter long ago
])
def test_period_items_are_placed_by_their_period(period, expected):
    assert weight(item("2020-01-01T00:00:00Z", period), LAST_WEEK, NOW, POLICY) == pytest.approx(expected)


def test_window_and_floor_are_configurable():
    policy = WeightPolicy(window_hours=24, floor=0.2)
    assert weight(item("2024-10-14T12:00:00Z"), LAST_WEEK, NOW, policy) == pytest.approx(0.5)
    assert weight(item("2024-10-20T00:00:00Z"), LAST_WEEK, NOW, policy) == 0.2


def test_switching_weighting_off_makes_every_weight_one():
    off = WeightPolicy(enabled=False)
    items = [item("2020-01-01T00:00:00Z"), item(None), item("2024-10-10T00:00:00Z")]
    assert [e.time_weight for e in weigh(items, LAST_WEEK, NOW, off)] == [1.0, 1.0, 1.0]
