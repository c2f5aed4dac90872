"""The understanding tables (tests/data/understanding.json, and round three's understanding_round3.json)
scored through the rule-based analysis and plan, with a floor at the score measured when each table was
written, so it cannot regress; and the scorer itself, on cases whose verdict is written out by hand. The
held-out quarter of the first tables (understanding_heldout.json) is deliberately not scored here; round
three's held-back quarter, read once at the end of issue 32, and its fresh blind set are scored since."""

import json
import re
from datetime import date

import pytest

from finsearch.catalogue import CATALOGUE, FAMILIES, SOURCE_IDS
from finsearch.errors import InputError
from finsearch.evaluate import understanding
from finsearch.evaluate.understanding import Case, accuracy, family_accuracy, family_of, judge, load, score
from tests.conftest import NOW, ROOT

DATA = ROOT / "tests" / "data"
TABLE = DATA / "understanding.json"
ROUND3 = DATA / "understanding_round3.json"
ROUND3_HELDBACK = DATA / "understanding_round3_heldback.json"
# Measured on the rules of 2024-10 (96 of 231 right) when the table was written; raise it as
# the reading improves, never lower it.
FLOOR = 0.98          # measured 100 % (533/533) after the coverage work on issue 12, 547/547 with the SEC
                      # insider and 13F rows; raise it as it improves
# Round three (issue 32) is measured, not asserted yet: written before any fix, it scored 62.3 % (99/159),
# by family too. This floor only keeps it from falling below what the fixes of issue 32 have reached
# (98.1 %, 156/159, after Hong Kong announcements, codes and legal names, filing words and fundamentals and the
# other classes committed so far).
ROUND3_FLOOR = 1.0     # 159/159 once the held-back quarter and a fresh blind set showed the last classes
# The held-back quarter was read once, at the end: 88.7 % (47/53) on the committed fixes; the classes it and
# a fresh blind set (written by a helper from the issue and these rules alone: 57/64 at first) showed were
# fixed as classes, and both are scored from then on, so what they caught cannot come back.
ROUND3_FRESH = DATA / "understanding_round3_fresh.json"
ROUND3_FRESH2 = DATA / "understanding_round3_fresh2.json"     # a second blind set, after the first one's fixes
ROUND3_SEEN_FLOOR = 0.98
QUESTION_FAMILIES = {"price", "quote", "fundamentals", "filings", "news", "web"}


def _case(question, tickers, period=None, sources=(), sources_any=(), also=(), prior=None, families=(),
          families_any=()):
    return Case(question, "en", "test", (frozenset(tickers), *(frozenset(a) for a in also)),
                period, frozenset(sources), frozenset(sources_any), prior, frozenset(families),
                frozenset(families_any))


@pytest.mark.parametrize(("table", "floor"), [(TABLE, FLOOR), (ROUND3, ROUND3_FLOOR),
                                               (ROUND3_HELDBACK, ROUND3_SEEN_FLOOR), (ROUND3_FRESH, ROUND3_SEEN_FLOOR),
                                               (ROUND3_FRESH2, ROUND3_SEEN_FLOOR)],
                         ids=["table", "round3", "round3_heldback", "round3_fresh", "round3_fresh2"])
def test_the_rules_understand_the_table_at_least_as_well_as_when_it_was_written(table, floor):
    verdicts = score(load(table))
    print("\n" + understanding.report(verdicts))
    assert accuracy(verdicts) >= floor
    assert family_accuracy(verdicts) >= floor


def test_the_table_is_large_bilingual_and_names_only_real_sources():
    table = load(TABLE)
    assert table.now == NOW
    languages = [c.language for c in table.cases]
    assert len(languages) >= 150
    assert set(languages) == {"en", "zh"}
    assert abs(languages.count("en") - languages.count("zh")) <= len(languages) // 10
    for case in table.cases:
        assert case.sources | case.sources_any <= set(SOURCE_IDS), case.question
        assert case.sources or case.sources_any, case.question
        assert case.period is None or case.period[0] <= case.period[1], case.question
    assert len({c.question for c in table.cases}) == len(table.cases)


def test_round_three_is_new_questions_in_new_categories_each_with_its_families():
    table, older = load(ROUND3), load(TABLE).cases + load(DATA / "understanding_heldout.json").cases
    assert table.now == NOW
    languages = [c.language for c in table.cases]
    assert len(languages) >= 120 and set(languages) == {"en", "zh"}
    assert abs(languages.count("en") - languages.count("zh")) <= len(languages) // 10
    assert not {c.category for c in table.cases} & {c.category for c in older}
    assert not {c.question for c in table.cases} & {c.question for c in older}
    assert len({c.question for c in table.cases}) == len(table.cases)
    for case in table.cases:
        assert case.sources | case.sources_any <= set(SOURCE_IDS), case.question
        assert case.families or case.families_any, case.question
        assert case.families | case.families_any <= QUESTION_FAMILIES, case.question
        assert {family_of(s) for s in case.sources} <= case.families, case.question
        assert case.period is None or case.period[0] <= case.period[1], case.question


def test_round_three_held_back_quarter_is_a_well_formed_table_of_other_questions():
    # No message names a question.
    held, dev = load(ROUND3_HELDBACK), load(ROUND3)
    assert held.now == NOW
    assert 4 * len(held.cases) == len(held.cases) + len(dev.cases)      # one quarter
    assert {c.category for c in held.cases} == {c.category for c in dev.cases}
    assert not {c.question for c in held.cases} & {c.question for c in dev.cases}
    assert all((c.families or c.families_any) and c.sources | c.sources_any <= set(SOURCE_IDS)
               and c.families | c.families_any <= QUESTION_FAMILIES for c in held.cases)


def test_every_source_belongs_to_one_family_and_every_family_a_question_names_has_a_source():
    assert set(FAMILIES) == QUESTION_FAMILIES | {"lookup"}
    assert {spec.family for spec in CATALOGUE.values()} == set(FAMILIES)
    assert [family_of(s) for s in ("quote", "price_history", "cn_daily_bars", "sec_facts", "sec_filings",
                                   "cn_announcements", "sec_section", "cn_stock_news", "web_search")] == [
        "quote", "price", "price", "fundamentals", "filings", "filings", "filings", "news", "web"]


def test_a_right_reading_is_scored_right():
    verdict = judge(_case("Why did NVDA fall last week?", ["NVDA"], (date(2024, 10, 7), date(2024, 10, 13)),
                          {"price_history", "news"}), NOW)
    assert verdict.right, verdict.misses


def test_each_wrong_part_is_named_with_what_was_found():
    verdict = judge(_case("Why did NVDA fall last week?", ["AMD"], (date(2024, 10, 8), date(2024, 10, 15)),
                          {"holders"}), NOW)
    assert not verdict.right
    assert verdict.misses[0] == "tickers {NVDA}, expected {AMD}"
    assert verdict.misses[1] == "period 2024-10-07..2024-10-13, expected 2024-10-08..2024-10-15"
    assert verdict.misses[2].startswith("sources {holders} not planned (planned {")


def test_extra_tickers_are_a_miss_but_an_equally_right_set_is_not():
    assert not judge(_case("Compare AAPL and MSFT year to date", ["AAPL"]), NOW).right
    assert judge(_case("Compare AAPL and MSFT year to date", ["AAPL"], also=[["AAPL", "MSFT"]]), NOW).right


def test_one_of_the_alternative_sources_is_enough_and_none_is_a_miss():
    assert judge(_case("What moved markets today?", ["^GSPC"], sources_any={"news", "holders"}), NOW).right
    verdict = judge(_case("What moved markets today?", ["^GSPC"], sources_any={"holders", "dividends"}), NOW)
    assert verdict.misses[0].startswith("none of {dividends, holders} planned")


def test_a_family_is_planned_by_any_of_its_sources_and_a_missing_one_is_named():
    # The 10-K's risk factors come from sec_section: a filings source other than sec_filings.
    assert judge(_case("What risks did Apple list in its latest 10-K?", ["AAPL"], families={"filings"}), NOW).right
    verdict = judge(_case("Why did NVDA fall last week?", ["NVDA"], (date(2024, 10, 7), date(2024, 10, 13)),
                          {"news"}, families={"filings"}), NOW)
    assert verdict.misses == ("families {filings} not planned (planned {news, price, web})",)
    assert verdict.family_misses == verdict.misses
    assert judge(_case("What moved markets today?", ["^GSPC"], families_any={"news", "filings"}), NOW).right
    assert judge(_case("What moved markets today?", ["^GSPC"], families_any={"filings", "fundamentals"}),
                 NOW).misses[0].startswith("none of the families {filings, fundamentals} planned (planned {")


def test_a_plan_with_another_source_of_the_family_is_wrong_but_right_by_family():
    verdict = judge(_case("did netflix beat or miss last quarter", ["NFLX"], (date(2024, 7, 1), date(2024, 9, 30)),
                          {"financials"}), NOW)
    assert verdict.misses == ("sources {financials} not planned (planned {earnings, news})",)
    assert verdict.right_by_family       # earnings holds fundamentals as financials does
    wrong_ticker = judge(_case("did netflix beat or miss last quarter", ["DIS"], None, {"financials"}), NOW)
    assert not wrong_ticker.right_by_family


def test_an_unscored_period_is_not_checked():
    assert judge(_case("Who are the largest holders of PLTR?", ["PLTR"], None, {"holders"}), NOW).right


def test_the_cli_prints_the_score_per_language_and_category_and_every_miss(tmp_path, capsys):
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"now": "2024-10-15T20:00:00Z", "questions": [
        {"question": "Why did NVDA fall last week?", "language": "en", "category": "why",
         "tickers": ["NVDA"], "period": ["2024-10-07", "2024-10-13"], "sources": ["news"]},
        {"question": "英伟达上周为什么下跌？", "language": "zh", "category": "why",
         "tickers": ["AMD"], "period": None, "sources": ["news"]},
    ]}, ensure_ascii=False), encoding="utf-8")
    assert understanding.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^overall +50\.0%  \(1/2\) +by family +50\.0%  \(1/2\)$", out, re.M)
    assert re.search(r"^  en +100\.0%  \(1/1\) +by family +100\.0%  \(1/1\)$", out, re.M)
    assert re.search(r"^  zh +0\.0%  \(0/1\) +by family +0\.0%  \(0/1\)$", out, re.M)
    assert re.search(r"^family planned where expected\n  news +100\.0%  \(2/2\)$", out, re.M)
    assert "  [zh why] 英伟达上周为什么下跌？\n      tickers {NVDA}, expected {AMD}" in out


def test_the_cli_prints_a_question_right_by_family_as_such(tmp_path, capsys):
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"now": "2024-10-15T20:00:00Z", "questions": [
        {"question": "did netflix beat or miss last quarter", "language": "en", "category": "beat",
         "tickers": ["NFLX"], "period": ["2024-07-01", "2024-09-30"], "sources": ["financials"]},
    ]}), encoding="utf-8")
    assert understanding.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^overall +0\.0%  \(0/1\) +by family +100\.0%  \(1/1\)$", out, re.M)
    assert re.search(r"^  fundamentals +100\.0%  \(1/1\)$", out, re.M)
    assert ("      sources {financials} not planned (planned {earnings, news})\n"
            "      (right by family)") in out


@pytest.mark.parametrize("text", ["not json", '{"questions": []}', '{"now": "2024-10-15T20:00:00Z", '
                                  '"questions": [{"question": "x"}]}',
                                  '{"now": "2024-10-15T20:00:00Z", "questions": [{"question": "x", "language": "en", '
                                  '"category": "c", "tickers": [], "period": null, "sources": [], '
                                  '"families": ["prices"]}]}'])
def test_a_malformed_table_is_an_input_error(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="not an understanding table"):
        load(path)
