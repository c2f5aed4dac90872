"""How a question was read (`Interpretation`) and the user's corrections to it (`Corrections`,
`apply`), on analyses the real analyser made, some with the choices the entity reader offers
(`read_as`, `alternatives`) set by hand; the CLI's --ticker and --period on the real pipeline."""

import dataclasses
import json
from datetime import date

import pytest

from finsearch.cli import main
from finsearch.errors import ConfigError
from finsearch.plan import interpretation_text as wording
from finsearch.plan.analysis import analyse
from finsearch.plan.entities import Reading
from finsearch.plan.interpretation import Corrections, Interpretation, TickerSwap, apply
from finsearch.plan.planner import make_plan
from finsearch.timecontext import TimeContext
from tests.conftest import NOW

EMEREN = Reading("SOL", "Emeren Group", "equity")
SOLANA = Reading("SOL-USD", "Solana", "crypto")


def with_choice(question: str, read_as: str = "exact", alternatives=()):
    """The real analysis of `question`, its first entity given the reading the entity reader
    would offer."""
    analysis = analyse(question, NOW)
    first = dataclasses.replace(analysis.entities[0], read_as=read_as, alternatives=tuple(alternatives))
    return dataclasses.replace(analysis, entities=(first, *analysis.entities[1:]))


def sub_queries(analysis) -> list[str]:
    return [node.sub_query for node in make_plan(analysis, NOW, None).graph]


# -- what is shown ------------------------------------------------------------------------------

@pytest.mark.parametrize("question, tickers, start, end, assumed, intents", [
    ("Why did NVDA fall last week?", ["NVDA"], "2024-10-07", "2024-10-13", False, ["why"]),
    ("Compare AAPL and MSFT year to date", ["AAPL", "MSFT"], "2024-01-01", "2024-10-15", False,
     ["compare", "price"]),
    ("What's the latest news on Tesla?", ["TSLA"], "2024-10-15", "2024-10-15", True, ["news"]),
    ("贵州茅台最近一个月表现如何？", ["600519.SS"], "2024-09-15", "2024-10-15", False, ["price"]),
    ("腾讯的最新消息", ["0700.HK"], "2024-10-15", "2024-10-15", True, ["news"]),
])
def test_the_interpretation_names_instruments_period_and_intents(question, tickers, start, end, assumed,
                                                                  intents):
    shown = Interpretation.of(analyse(question, NOW), NOW).to_json()
    assert [i["ticker"] for i in shown["instruments"]] == tickers
    assert (shown["period"]["start"], shown["period"]["end"], shown["period"]["assumed"]) == (start, end, assumed)
    assert shown["intents"] == intents
    assert shown["corrections"] == {"tickers": {}, "period": None}


def test_an_assumed_period_offers_the_past_week_and_month_in_the_questions_language():
    en = Interpretation.of(analyse("What's the latest news on Tesla?", NOW), NOW)
    assert [(tc.label, tc.start, tc.end) for tc in en.period.alternatives] == [
        ("past week", date(2024, 10, 8), date(2024, 10, 15)), ("past month", date(2024, 9, 15), date(2024, 10, 15))]
    zh = Interpretation.of(analyse("腾讯的最新消息", NOW), NOW)
    assert [tc.label for tc in zh.period.alternatives] == ["最近一周", "最近一个月"]
    assert en.choices and zh.choices


def test_a_named_period_and_exact_names_offer_no_choice():
    shown = Interpretation.of(analyse("Why did NVDA fall last week?", NOW), NOW)
    assert shown.period.alternatives == () and not shown.choices
    assert shown.instruments[0].read_as == "symbol" and not shown.instruments[0].guessed   # NVDA, as typed


@pytest.mark.parametrize("question, words, read_as, line", [
    ("Amazon earnings", "amazn", "fuzzy", "'amazn' read as Amazon (AMZN)"),
    ("Tesla news", "teslas", "fuzzy", "'teslas' read as Tesla (TSLA)"),
    ("贵州茅台最近怎么样", "茅台", "nickname", "'茅台' read as Kweichow Moutai (600519.SS)"),
    ("Apple revenue", "the iPhone maker", "description", "'the iPhone maker' read as Apple (AAPL)"),
    ("腾讯的最新消息", "00700", "code", "'00700' read as Tencent (0700.HK)"),
])
def test_a_guessed_reading_is_a_choice_shown_with_the_users_words(question, words, read_as, line):
    analysis = with_choice(question, read_as)
    analysis = dataclasses.replace(analysis, entities=(dataclasses.replace(analysis.entities[0], mention=words),))
    shown = Interpretation.of(analysis, NOW)
    assert shown.instruments[0].guessed and shown.choices
    assert shown.to_json()["instruments"][0]["read_as"] == read_as
    assert wording.instrument_line(shown.instruments[0]) == line


def test_an_ambiguous_symbol_is_shown_as_read_with_the_other_readings_on_offer():
    stock = Interpretation.of(analyse("How is SOL stock doing?", NOW), NOW)      # "stock" picks the listing
    assert wording.instrument_line(stock.instruments[0]) == "SOL = Emeren Group (SOL)"
    assert stock.choices and stock.instruments[0].alternatives == (SOLANA,)
    crypto = Interpretation.of(analyse("How is SOL doing?", NOW), NOW)          # the most-traded reading
    assert wording.instrument_line(crypto.instruments[0]) == "SOL = Solana (SOL-USD)"
    assert crypto.choices and crypto.instruments[0].alternatives == (EMEREN,)


def test_the_summary_line_reads_instruments_dates_and_intents():
    shown = Interpretation.of(analyse("Compare AAPL and MSFT year to date", NOW), NOW)
    assert wording.summary(shown) == ("Read as: Apple (AAPL), Microsoft (MSFT) · year to date "
                                                  "(2024-01-01 → 2024-10-15) · looking for a comparison, prices")
    assumed = Interpretation.of(analyse("What's the latest news on Tesla?", NOW), NOW)
    assert wording.summary(assumed) == ("Read as: Tesla (TSLA) · today (2024-10-15, assumed) "
                                                    "· looking for news")
    assert wording.period_line(assumed.period) == "The question names no period: assumed today (2024-10-15)"


def test_a_chinese_question_is_read_back_in_chinese():
    shown = Interpretation.of(analyse("腾讯最新消息", NOW), NOW)
    assert shown.language == "zh"
    assert wording.summary(shown) == "理解为：腾讯（0700.HK） · 今天（2024-10-15，默认） · 查找新闻"
    assert wording.command_line_choices(shown) == [
        "问题未说明时间段：默认今天（2024-10-15）（或 --period 2024-10-08:2024-10-15 即最近一周；"
        "--period 2024-09-15:2024-10-15 即最近一个月）"]
    nickname = Interpretation.of(analyse("宁王最近一周走势", NOW), NOW)
    assert wording.command_line_choices(nickname) == ["「宁王」理解为宁德时代（300750.SZ）"]
    both = Interpretation.of(analyse("000001 今天", NOW), NOW)
    assert wording.command_line_choices(both) == [
        "000001 = 平安银行（000001.SZ）（或 --ticker 000001=000001.SS 即上证指数（000001.SS））"]


def test_a_chinese_question_keeps_no_english_in_its_reading():
    for question in ("腾讯最新消息", "华为最新消息", "SOL币最近怎么样", "茅台分红"):
        shown = Interpretation.of(analyse(question, NOW), NOW)
        text = " ".join([wording.summary(shown), *wording.command_line_choices(shown)])
        words = [w for w in text.replace("--ticker", "").replace("--period", "").split()
                 if w.isascii() and w.isalpha() and w not in ("SOL", "ETF")]
        assert words == [], (question, text)


def test_a_name_with_no_market_symbol_is_not_said_to_be_looked_up():
    shown = Interpretation.of(analyse("华为最新消息", NOW), NOW)
    assert wording.summary(shown).startswith("理解为：华为（无交易代码）")
    assert wording.summary(Interpretation.of(analyse("How is OpenAI doing?", NOW), NOW)).startswith(
        "Read as: OpenAI (no market symbol)")


def test_the_replanned_line_speaks_the_questions_language():
    corrections = Corrections((TickerSwap("SOL", "SOL-USD"),))
    assert wording.asked_for(corrections, "zh") == "已按您的选择重新规划：SOL 改为 SOL-USD"
    assert wording.asked_for(corrections) == "Re-planned with SOL as SOL-USD"


def test_alternatives_are_in_the_json_most_likely_first():
    shown = Interpretation.of(analyse("How is SOL stock doing?", NOW), NOW).to_json()
    assert shown["instruments"][0]["alternatives"] == [{"ticker": "SOL-USD", "name": "Solana", "kind": "crypto"}]
    assert shown["instruments"][0]["mention"] == "SOL"


# -- corrections --------------------------------------------------------------------------------

@pytest.mark.parametrize("question, read, ticker, name, kind", [
    ("How is SOL stock doing?", "SOL", "SOL-USD", "Solana", "crypto"),
    ("How is SOL stock doing?", "sol", "SOL-USD", "Solana", "crypto"),         # the user's words, any case
    ("Why did NVDA fall last week?", "NVDA", "AMD", "Advanced Micro Devices", "equity"),
    ("What's the latest news on Tesla?", "Tesla", "^GSPC", "S&P 500", "index"),  # by the question's words
    ("贵州茅台最近一个月表现如何？", "贵州茅台", "000858.SZ", "Wuliangye", "equity"),
    ("贵州茅台最近一个月表现如何？", "600519.SS", "EURUSD=X", "EUR/USD", "fx"),
])
def test_a_ticker_swap_reads_the_instrument_as_the_new_ticker(question, read, ticker, name, kind):
    corrected = apply(analyse(question, NOW), Corrections((TickerSwap(read, ticker),)))
    entity = corrected.entities[0]
    assert (entity.ticker, entity.name, entity.kind) == (ticker, name, kind)
    assert entity.display(corrected.language) == name           # not the user's words for the old one
    assert any(ticker in q for q in sub_queries(corrected))


def test_a_swap_to_an_offered_reading_takes_its_name_and_keeps_the_old_one_to_switch_back():
    swap = Corrections((TickerSwap("SOL", "SOL-USD"),))
    corrected = apply(analyse("How is SOL stock doing?", NOW), swap)
    entity = corrected.entities[0]
    assert (entity.ticker, entity.name, entity.kind) == ("SOL-USD", "Solana", "crypto")
    assert entity.alternatives == (EMEREN,)
    shown = Interpretation.of(corrected, NOW, Corrections((TickerSwap("SOL", "SOL-USD"),))).instruments[0]
    assert shown.corrected and shown.mention == "SOL"


def test_a_swap_of_one_of_two_instruments_keeps_the_other_and_never_duplicates():
    analysis = analyse("Compare AAPL and MSFT year to date", NOW)
    assert apply(analysis, Corrections((TickerSwap("MSFT", "GOOGL"),))).tickers == ["AAPL", "GOOGL"]
    assert apply(analysis, Corrections((TickerSwap("MSFT", "AAPL"),))).tickers == ["AAPL"]


def test_a_period_correction_replaces_the_period_and_the_plan_follows():
    analysis = analyse("Why did NVDA fall last week?", NOW)
    corrected = apply(analysis, Corrections.parse(period="2024-09-18:2024-10-15"))
    tc = corrected.time_context
    assert (tc.start, tc.end, tc.label, tc.explicit) == (date(2024, 9, 18), date(2024, 10, 15),
                                                          "2024-09-18 … 2024-10-15", True)
    assert "NVIDIA (NVDA) price history 2024-09-18 → 2024-10-15" in sub_queries(corrected)
    shown = Interpretation.of(corrected, NOW, Corrections.parse(period="2024-09-18:2024-10-15")).period
    assert shown.corrected and not shown.assumed


def test_a_corrected_period_is_kept_within_the_searchable_days_as_a_typed_one_is():
    far = Corrections.parse(period="2024-09-01:2199-12-31")
    corrected = apply(analyse("Why did NVDA fall", NOW), far, NOW)
    assert (corrected.time_context.start, corrected.time_context.end) == (date(2024, 9, 1), date(2034, 10, 13))
    assert corrected.notes == ("The dates in the question are outside the range that can be searched; used "
                               "2024-09-01 to 2034-10-13 instead.",)
    typed = analyse("NVDA price 1850-01-01 to 1850-02-01", NOW)
    assert typed.notes == ("The dates in the question are outside the range that can be searched; used "
                           "1900-01-01 instead.",)      # one day, written once
    inside = apply(typed, Corrections.parse(period="2024-09-01:2024-09-30"), NOW)
    assert inside.notes == ()          # the note about the question's own (1850) dates no longer applies


def test_no_corrections_leave_the_analysis_as_it_was():
    analysis = analyse("Why did NVDA fall last week?", NOW)
    assert apply(analysis, None) is analysis and apply(analysis, Corrections()) is analysis


def test_a_swap_naming_no_instrument_of_the_question_says_what_was_read():
    with pytest.raises(ConfigError, match=r"'AMD' is not an instrument .* read as: NVDA"):
        apply(analyse("Why did NVDA fall last week?", NOW), Corrections((TickerSwap("AMD", "INTC"),)))


def test_choosing_again_replaces_the_earlier_choice_for_the_same_words():
    first = Corrections().with_ticker("SOL", "SOL-USD")
    again = first.with_ticker("sol", "SOL")
    assert again.tickers == (TickerSwap("sol", "SOL"),)
    week = TimeContext(date(2024, 10, 8), date(2024, 10, 15), "past week")
    assert again.with_period(week).period == week and again.period is None


def test_corrections_survive_their_json():
    corrections = Corrections.parse(["SOL=sol-usd", "贵州茅台=000858.SZ"], "2024-09-18:2024-10-15")
    assert Corrections.from_json(json.loads(json.dumps(corrections.to_json()))) == corrections
    assert corrections.to_json()["tickers"] == {"SOL": "SOL-USD", "贵州茅台": "000858.SZ"}


@pytest.mark.parametrize("tickers, period, message", [
    (["SOL"], None, "write it as WORDS=TICKER"),
    (["=SOL-USD"], None, "write it as WORDS=TICKER"),
    (["SOL="], None, "write it as WORDS=TICKER"),
    (["SOL=sol usd"], None, "write it as WORDS=TICKER"),
    ([], "2024-09-18", "write it as START:END"),
    ([], "2024/09/18:2024/10/15", "write it as START:END"),
    ([], "2024-02-30:2024-03-01", "2024-02-30 is not a day of the calendar"),
    ([], "2024-10-15:2024-09-18", r"the start \(2024-10-15\) is after the end \(2024-09-18\)"),
    ([], "1850-01-01:1850-02-01", "between 1900-01-01 and 2199-12-31"),
])
def test_bad_correction_values_say_how_to_write_them(tickers, period, message):
    with pytest.raises(ConfigError, match=message):
        Corrections.parse(tickers, period)


# -- the command line ---------------------------------------------------------------------------

def test_plan_json_shows_the_interpretation_as_corrected(capsys, sample_app_env):
    code = main(["plan", "How is SOL stock doing?", "--json", "--llm", "heuristic", "--now", "2024-10-15T20:00:00Z",
                 "--ticker", "SOL=SOL-USD", "--period", "2024-09-18:2024-10-15"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["entities"] == [{"name": "Solana", "ticker": "SOL-USD"}]
    shown = {k: v for k, v in out["interpretation"]["instruments"][0].items() if k != "read_as"}
    assert shown == {"name": "Solana", "ticker": "SOL-USD", "kind": "crypto", "mention": "SOL", "corrected": True,
                     "alternatives": [{"ticker": "SOL", "name": "Emeren Group", "kind": "equity"}]}
    assert out["interpretation"]["period"] == {"start": "2024-09-18", "end": "2024-10-15",
                                               "label": "2024-09-18 … 2024-10-15", "assumed": False,
                                               "corrected": True, "alternatives": []}
    assert out["interpretation"]["corrections"]["tickers"] == {"SOL": "SOL-USD"}
    assert "Solana (SOL-USD) price history 2024-09-18 → 2024-10-15" in [n["sub_query"] for n in out["graph"]["nodes"]]


def test_ask_json_has_the_interpretation(capsys, sample_app_env):
    code = main(["ask", "What's the latest news on Tesla?", "--json", "--llm", "heuristic", "--offline",
                 "--now", "2024-10-15T20:00:00Z"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    shown = out["interpretation"]
    assert [(i["name"], i["ticker"], i["corrected"]) for i in shown["instruments"]] == [("Tesla", "TSLA", False)]
    assert shown["period"]["assumed"] is True and shown["period"]["label"] == "today"
    assert [a["label"] for a in shown["period"]["alternatives"]] == ["past week", "past month"]


@pytest.mark.parametrize("args, message", [
    (["--ticker", "SOL"], "finsearch: --ticker 'SOL': write it as WORDS=TICKER, for example SOL=SOL-USD"),
    (["--ticker", "BTC=BTC-USD"], "finsearch: 'BTC' is not an instrument this question was read as (it was "
                                  "read as: SOL-USD)"),
    (["--period", "last week"], "finsearch: --period 'last week': write it as START:END in YYYY-MM-DD"),
])
def test_the_cli_refuses_bad_corrections_with_one_line_and_code_2(capsys, sample_app_env, args, message):
    code = main(["plan", "How is SOL doing?", "--llm", "heuristic", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(message) and "Traceback" not in err


def test_the_text_mode_names_each_guess_with_the_option_that_changes_it(capsys, sample_app_env):
    code = main(["plan", "What's the latest news on Tesla?", "--llm", "heuristic", "--now", "2024-10-15T20:00:00Z"])
    out = capsys.readouterr().out
    assert code == 0
    assert ("Read: The question names no period: assumed today (2024-10-15) (or --period 2024-10-08:2024-10-15 "
            "for past week; --period 2024-09-15:2024-10-15 for past month)") in out.splitlines()


def test_command_line_choices_offer_the_ticker_option_for_each_other_reading():
    shown = Interpretation.of(with_choice("Why did NVDA fall last week?", "context", [SOLANA]), NOW)
    assert wording.command_line_choices(shown) == [
        "NVDA = NVIDIA (NVDA) (or --ticker NVDA=SOL-USD for Solana (SOL-USD))"]


def test_a_stored_run_keeps_its_corrections(sample_app_env):
    from finsearch import pipeline
    from finsearch.result import RunResult

    corrections = Corrections.parse(["SOL=SOL-USD"], "2024-09-18:2024-10-15")
    result = pipeline.ask("How is SOL doing?", now=NOW, corrections=corrections)
    again = RunResult.from_record(json.loads(json.dumps(result.to_record())))
    assert again.corrections == corrections
    assert again.interpretation.instruments[0].corrected and again.interpretation.period.corrected
    assert again.interpretation.to_json() == result.interpretation.to_json()
