"""Watchlists, briefs, schedules and alerts (issue 34, WATCH): what a watcher would see."""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import date, datetime, time, timezone

import pytest

from finsearch.cli import main
from finsearch.errors import InputError
from finsearch.phrases import say
from finsearch.plan.analysis import analyse
from finsearch.sources.hub import DataHub
from finsearch.watch.alerts import check_alerts
from finsearch.watch.brief import run_due_brief
from finsearch.watch.lists import open_watchlists
from finsearch.watch.schedule import due_briefs, next_due, slot
from finsearch.watch.watchlist import AlertRule, Schedule, instrument_of, new_watchlist
from tests.conftest import ROOT

PACK = ROOT / "tests" / "fixtures" / "report_pack"      # NVDA: -4.70% on 2024-10-31, an 8-K on 2024-11-20
UTC = timezone.utc
ALICE, BOB = "anon:" + "a" * 32, "key:bob"


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(("words", "ticker"), [("NVDA", "NVDA"), ("600519", "600519.SS"), ("0700.HK", "0700.HK"),
                                                ("茅台", "600519.SS"), ("$nvda", "NVDA")])
def test_instruments_are_read_as_a_question_reads_them(words, ticker):
    assert instrument_of(words) == ticker


def test_words_that_name_no_instrument_are_refused_in_the_users_language():
    with pytest.raises(InputError, match="names no instrument"):
        instrument_of("hello world")
    with pytest.raises(InputError, match="不是可关注的证券"):
        instrument_of("你好", "zh")


def test_a_watchlist_is_its_owners_alone_on_both_backends(backend):
    lists = open_watchlists(backend.settings)
    mine = new_watchlist(ALICE, ["NVDA", "茅台", "nvda"], alerts=(AlertRule("daily_move", pct=4.0),),
                         schedule=Schedule("weekly", time(7, 30), "Asia/Shanghai", weekday=0))
    lists.save(mine)
    assert mine.instruments == ("NVDA", "600519.SS")
    assert lists.get(mine.watchlist_id, ALICE) == mine
    assert lists.get(mine.watchlist_id, BOB) is None and lists.mine(BOB) == []
    assert lists.delete(mine.watchlist_id, BOB) is False
    assert [w.watchlist_id for w in lists.every()] == [mine.watchlist_id]
    assert lists.delete(mine.watchlist_id, ALICE) is True and lists.mine(ALICE) == []


def test_a_damaged_watchlist_file_is_left_out(settings):
    lists = open_watchlists(settings)
    lists.save(new_watchlist(ALICE, ["NVDA"]))
    (settings.data_dir / "watchlists" / "wbad.json").write_text('{"watchlist_id": "wbad", "owner": 1}', "utf-8")
    assert [w.owner for w in lists.every()] == [ALICE]


def test_a_daily_brief_skips_the_weekend_and_keeps_its_local_time_across_dst():
    watchlist = new_watchlist(ALICE, ["NVDA"], schedule=Schedule("daily", time(8, 0), "America/New_York"),
                              now=_utc("2024-11-01T00:00:00"))
    # Friday 2024-11-01 after 08:00: Saturday and Sunday have no session, so Monday's 08:00 (EST now)
    assert next_due(watchlist, _utc("2024-11-01T13:00:00")) == _utc("2024-11-04T13:00:00")
    # Sunday 2024-11-03 the clocks went back; 08:00 EDT on Friday was 12:00 UTC
    assert slot(watchlist.schedule, date(2024, 11, 1)) == _utc("2024-11-01T12:00:00")
    # 02:30 on 2024-03-10 does not exist in New York: one slot, read before the gap (07:30 UTC)
    early = Schedule("daily", time(2, 30), "America/New_York", closed_days=True)
    assert slot(early, date(2024, 3, 10)) == _utc("2024-03-10T07:30:00")


def test_a_morning_brief_in_shanghai_follows_the_new_york_session_of_the_night_before():
    watchlist = new_watchlist(ALICE, ["NVDA"], schedule=Schedule("daily", time(8, 0), "Asia/Shanghai"),
                              now=_utc("2024-10-01T00:00:00"))
    # Saturday 2024-11-02 08:00 Shanghai: Friday's New York session; Sunday and Monday mornings: none
    assert next_due(watchlist, _utc("2024-11-01T01:00:00")) == _utc("2024-11-02T00:00:00")
    assert next_due(watchlist, _utc("2024-11-02T00:00:00")) == _utc("2024-11-05T00:00:00")


def test_due_briefs_are_named_by_the_local_day_and_due_once(settings):
    lists = open_watchlists(settings)
    watchlist = new_watchlist(ALICE, ["NVDA"], schedule=Schedule("daily", time(8, 0), "America/New_York"),
                              now=_utc("2024-11-18T00:00:00"))
    lists.save(watchlist)
    due = due_briefs(lists, _utc("2024-11-22T21:00:00"))
    assert [(d.job_id, d.due_at) for d in due] == [(f"brief-{watchlist.watchlist_id}-2024-11-22",
                                                    _utc("2024-11-22T13:00:00"))]
    assert due[0].args == (watchlist.watchlist_id, ALICE, "2024-11-22")
    asked = []

    def ask(question, settings):
        asked.append(question)
        return None

    notice = run_due_brief(lists, *due[0].args, settings, ask=ask)
    assert notice.notice_id == f"brief-{watchlist.watchlist_id}-2024-11-22" and notice.owner == ALICE
    assert asked[0] == "How did NVDA do since 2024-11-21, and why?"
    assert due_briefs(lists, _utc("2024-11-22T23:00:00")) == []          # briefed: not due again that day
    assert run_due_brief(lists, watchlist.watchlist_id, BOB, "2024-11-22", settings) is None


def test_the_brief_command_writes_one_cited_notice(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    code = main(["brief", "NVDA", "--since", "2024-10-08", "--offline", "--pack", str(PACK),
                 "--now", "2024-11-22T21:00:00Z", "--json", "--llm", "heuristic"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["notice_id"] == "brief-adhoc-2024-11-22" and out["kind"] == "brief"
    assert out["markdown"].startswith("## NVIDIA (NVDA)\n")
    assert "rose 2.71% since 2024-10-08" in out["markdown"]                # the move since the day
    assert "NVIDIA CORP 8-K filed 2024-11-20" in out["markdown"]           # filings
    assert "Ratings: 18 strong buy, 40 buy, 5 hold, 1 sell" in out["markdown"]  # analysts
    assert "The next report is expected on 2025-02-26" in out["markdown"]  # earnings date
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", out["markdown"])}
    assert cited == set(range(1, len(out["references"]) + 1))            # one numbering, each reference used
    assert out["markdown"].count("_Sample data — not real quotes._") == 1


def test_a_bad_since_is_a_clear_message(capsys):
    assert main(["brief", "NVDA", "--since", "last tuesday", "--offline"]) == 2
    assert "--since takes a day such as 2024-10-08" in capsys.readouterr().err


def test_alerts_fire_from_a_replay_packs_move_filing_and_earnings_date(settings):
    settings = settings.replace(pack=PACK, offline=True)
    watchlist = dataclasses.replace(
        new_watchlist(ALICE, ["NVDA"], alerts=(AlertRule("daily_move", pct=4.0),
                                               AlertRule("from_price", pct=5.0, price=100.0),
                                               AlertRule("filing", kinds=("8-K",)),
                                               AlertRule("earnings_within", days=7))),
        watchlist_id="w1")
    fired = check_alerts(watchlist, settings, _utc("2024-10-31T21:00:00"), hub=DataHub(settings))
    assert [n.notice_id for n in fired] == ["alert-w1-move-NVDA-2024-10-31", "alert-w1-price-NVDA-3ae9b893-2024-10-31"]
    move = fired[0]
    assert move.markdown == "NVIDIA (NVDA) moved -4.70% on 2024-10-31. [1]\n"
    assert move.references[0].title == "NVIDIA (NVDA) daily prices 2024-10-17 to 2024-10-31"
    assert fired[1].markdown.startswith("NVIDIA (NVDA) closed at 105.46 on 2024-10-31, +5.46% from your reference")
    # Checked again the same day: the same events, the same ids (delivery sends each once)
    again = check_alerts(watchlist, settings, _utc("2024-10-31T22:00:00"), hub=DataHub(settings))
    assert [n.notice_id for n in again] == [n.notice_id for n in fired]
    later = check_alerts(watchlist, settings, _utc("2024-11-22T21:00:00"), hub=DataHub(settings))
    assert [n.notice_id for n in later] == ["alert-w1-price-NVDA-3ae9b893-2024-11-22",
                                            "alert-w1-filing-NVDA-0001045810-24-000310"]
    assert later[1].references[0].url == "https://www.sec.gov/Archives/edgar/data/1045810/000104581024000310/"
    soon = check_alerts(watchlist, settings, _utc("2025-02-20T21:00:00"), hub=DataHub(settings))
    assert "alert-w1-earnings-NVDA-2025-02-26" in [n.notice_id for n in soon]


def test_a_chinese_watchlist_is_alerted_in_chinese(settings):
    settings = settings.replace(pack=PACK, offline=True)
    watchlist = dataclasses.replace(new_watchlist(ALICE, ["NVDA"], alerts=(AlertRule("daily_move", pct=4.0),),
                                                  language="zh"), watchlist_id="w2")
    (notice,) = check_alerts(watchlist, settings, _utc("2024-10-31T21:00:00"), hub=DataHub(settings))
    assert notice.markdown == "NVIDIA（NVDA）在2024-10-31变动-4.70%。 [1]\n" and notice.language == "zh"


def test_a_chinese_brief_asks_about_the_days_since_its_last_brief_not_today(tmp_path, monkeypatch):
    # "{ticker}自{day}以来…": the ISO day beside Chinese characters was not read at all (no \b there), so a
    # Chinese watcher's brief covered today only.
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    now = datetime(2024, 11, 22, 21, tzinfo=timezone.utc)
    asked = say("brief.ask_move", "zh", ticker="NVDA", day="2024-10-08")
    period = analyse(asked, now=now).time_context
    assert (period.start, period.end, period.label) == (date(2024, 10, 8), date(2024, 11, 22), "自2024-10-08以来")
