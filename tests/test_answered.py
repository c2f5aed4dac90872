"""The audit's `answered` part on planted answers: answers that dodge the question score low,
answers that answer it score answered, in English and Chinese (expectations written by hand)."""

from datetime import UTC, date, datetime

import pytest

from finsearch.answer.audit import audit
from finsearch.answer.citations import Reference
from finsearch.evidence import Evidence
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.phrases import phrasebook
from finsearch.plan.analysis import analyse
from finsearch.plan.intents import INTENT_PATTERNS
from finsearch.timecontext import TimeContext

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=UTC)
TC = TimeContext(date(2024, 10, 7), date(2024, 10, 13), "last week")


def item(source, kind, **raw):
    return Evidence.from_untrusted(raw, source=source, kind=kind)


PRICES = item("price_history", "finance", title="NVIDIA (NVDA) daily prices",
              period={"start": "2024-10-07", "end": "2024-10-13"},
              data={"ticker": "NVDA", "stats": {"start_close": 136.2, "end_close": 126.3, "return_pct": -7.27,
                                                "biggest_moves": [{"date": "2024-10-11", "change_pct": -4.7}]}})
CURBS = item("news", "news", title="Nvidia shares slide 4.7% as report of wider chip export curbs weighs",
             url="https://e.test/curbs", publisher="Sample Market Wire", published="2024-10-11T19:45:00Z",
             snippet="Nvidia fell 4.7% on October 11 after a report that the U.S. may widen export curbs.")
LAUNCH = item("news", "news", title="Nvidia unveils new Blackwell servers", url="https://e.test/launch",
              publisher="Demo Finance Daily", published="2024-10-10T12:00:00Z", snippet="A product launch.")
AAPL = item("quote", "finance", title="Apple (AAPL) quote",
            data={"ticker": "AAPL", "currency": "USD", "last": 226.8, "market_cap": 3.45e12})
MSFT = item("quote", "finance", title="Microsoft (MSFT) quote",
            data={"ticker": "MSFT", "currency": "USD", "last": 418.16, "market_cap": 3.11e12})
TSLA_DATE = item("news", "news", title="Tesla to report third-quarter results on October 23",
                 url="https://e.test/tsla", publisher="Sample Market Wire", published="2024-10-14T12:00:00Z",
                 snippet="Tesla will report results for the third quarter on 2024-10-23 after the close.")
TARGETS = item("analyst", "finance", title="NVIDIA (NVDA) analyst targets",
               data={"ticker": "NVDA", "target_mean": 150.0, "target_low": 90.0, "target_high": 200.0})
ITEMS = (PRICES, CURBS, LAUNCH, AAPL, MSFT, TSLA_DATE, TARGETS)
REFS = [Reference(n, e.id, e.title) for n, e in enumerate(ITEMS, 1)]
# [1] prices  [2] export-curbs story  [3] launch story  [4] AAPL quote  [5] MSFT quote  [6] Tesla date  [7] targets


def graph(items=ITEMS):
    node = SearchNode("n1", "everything", "news", {"ticker": "NVDA"}, TC, status=NodeStatus.DONE, evidence=items)
    return SearchGraph.build("q", TC, [node])


def answered(question, markdown, items=ITEMS):
    """The audit of `markdown` as the answer to `question`, with only the references it cites,
    against a run that retrieved `items`."""
    result = audit(markdown, [r for r in REFS if f"[{r.n}]" in markdown], graph(items), analyse(question, NOW))
    return result, result.to_dict()["answered"]


WITHOUT_THE_REASON = tuple(i for i in ITEMS if i is not CURBS)


def missing(part):
    return {g["intent"]: g["reason"] for g in part["missing"]}


# -- comparisons ------------------------------------------------------------------------------

BIGGER = "Which is bigger by market cap, Apple or Microsoft?"
BIGGER_ZH = "苹果和微软哪个市值大？"


def test_a_comparison_answered_with_two_separate_quotes_and_no_verdict_is_not_answered():
    result, part = answered(BIGGER, "Apple (AAPL) last traded at $226.80, market cap $3.45T [4]. "
                                    "Microsoft (MSFT) last traded at $418.16, market cap $3.11T [5].")
    assert part == {"intents": ["compare", "valuation"], "answered": ["valuation"],
                    "missing": [{"intent": "compare", "reason": "absent"}], "unchecked": [], "not_in_lead": []}
    assert result.grounding == 1.0 and result.trust == 0.5          # every figure right, half the question


def test_a_comparison_with_a_verdict_naming_both_is_answered():
    result, part = answered(BIGGER, "Apple is larger than Microsoft by market cap: $3.45T vs $3.11T [4][5].")
    assert part["answered"] == ["compare", "valuation"] and part["missing"] == []
    assert result.trust == 1.0


def test_a_verdict_without_a_citation_answers_nothing():
    _, part = answered(BIGGER, "Apple is larger than Microsoft by market cap. Apple's market cap is $3.45T [4].")
    assert missing(part) == {"compare": "absent"} and part["answered"] == ["valuation"]


def test_chinese_comparisons_dodged_and_answered():
    _, dodged = answered(BIGGER_ZH, "苹果（AAPL）市值3.45万亿美元 [4]。微软（MSFT）市值3.11万亿美元 [5]。")
    assert missing(dodged) == {"compare": "absent"} and dodged["answered"] == ["valuation"]
    _, proper = answered(BIGGER_ZH, "苹果市值3.45万亿美元，高于微软的3.11万亿美元 [4][5]。")
    assert proper["answered"] == ["compare", "valuation"]


# -- why ---------------------------------------------------------------------------------------

WHY = "Why did Nvidia fall last week?"
RETURNS_AND_HEADLINES = """NVIDIA (NVDA) fell 7.27% last week, from $136.20 to $126.30 [1].
The biggest daily move was -4.70% on 2024-10-11 [1].

**Headlines**

- 2024-10-11 · Sample Market Wire: Nvidia shares slide 4.7% as report of wider chip export curbs weighs [2]
- 2024-10-10 · Demo Finance Daily: Nvidia unveils new Blackwell servers [3]"""


def test_returns_and_headlines_without_a_stated_cause_do_not_answer_why():
    # The first headline carries the reason, but listing it is not saying why the stock fell.
    result, part = answered(WHY, RETURNS_AND_HEADLINES)
    assert part == {"intents": ["why"], "answered": [], "missing": [{"intent": "why", "reason": "absent"}],
                    "unchecked": [], "not_in_lead": []}
    assert result.grounding == 1.0 and result.trust == 0.0


def test_a_cause_attributed_to_the_days_report_answers_why():
    result, part = answered(WHY, "NVIDIA fell 4.7% on 2024-10-11 after a report that the U.S. may widen "
                                 "export curbs on AI chips [1][2].")
    assert part["answered"] == ["why"] and result.trust == 1.0


@pytest.mark.parametrize("sentence", [
    "NVIDIA fell 4.7% on 2024-10-11 [1][2].",                         # "on" a day is no cause
    "NVIDIA fell 4.7% as of 2024-10-11 [1][2].",                      # nor "as of"
    "NVIDIA fell 4.7% after a report of wider export curbs [1].",    # a cause cited only to the prices
])
def test_what_is_not_a_cited_cause(sentence):
    _, part = answered(WHY, sentence)
    assert missing(part) == {"why": "absent"}


def test_saying_no_report_explains_the_move_is_a_stated_gap_worth_half():
    result, part = answered(WHY, "NVIDIA fell 7.27% last week [1]. No report on the day explains the move.",
                            WITHOUT_THE_REASON)
    assert missing(part) == {"why": "stated"} and part["answered"] == []
    assert result.trust == round(result.grounding * 0.6 + 0.3 * result.coverage + 0.1, 4) * 0.5 == 0.5


def test_saying_nothing_explains_the_move_while_a_retrieved_story_does_is_contradicted():
    """A false "not found" is no honest gap: the export-curbs story of the day was retrieved."""
    result, part = answered(WHY, "NVIDIA fell 7.27% last week [1]. No report on the day explains the move.")
    assert part["missing"] == [{"intent": "why", "reason": "contradicted", "found_in": [CURBS.id]}]
    assert result.trust == 0.0


def test_chinese_why_dodged_stated_and_answered():
    question = "英伟达上周为什么跌"
    _, dodged = answered(question, "英伟达上周下跌7.27% [1]。\n\n- 2024-10-11 · Sample Market Wire: "
                                   "Nvidia shares slide 4.7% as report of wider chip export curbs weighs [2]")
    assert missing(dodged) == {"why": "absent"} and dodged["answered"] == ["price"]
    _, not_a_cause = answered(question, "英伟达10月11日下跌4.7%，原因见下方新闻 [1][2]。")
    assert missing(not_a_cause) == {"why": "absent"}                 # 原因 names a reason; it gives none
    _, stated = answered(question, "英伟达上周下跌7.27% [1]。当天没有报道解释下跌原因。", WITHOUT_THE_REASON)
    assert missing(stated) == {"why": "stated"}
    _, false = answered(question, "英伟达上周下跌7.27% [1]。当天没有报道解释下跌原因。")
    assert missing(false) == {"why": "contradicted"}
    _, proper = answered(question, "英伟达10月11日下跌4.7%，因有报道称美国或扩大芯片出口限制 [1][2]。")
    assert proper["answered"] == ["price", "why"] and proper["missing"] == []
    _, affected = answered(question, "英伟达10月11日下跌4.7%，受芯片出口限制消息影响 [1][2]。")
    assert affected["answered"] == ["price", "why"]


# -- the report date, analyst targets ---------------------------------------------------------------

WHEN = "When does Tesla report earnings?"


def test_an_earnings_date_question_answered_with_not_retrieved_scores_zero():
    result, part = answered(WHEN, "Not retrieved: earnings TSLA: not in replay pack: no earnings call for TSLA")
    # … and a false one: a retrieved story announces the date
    assert missing(part) == {"calendar": "contradicted"} and part["unchecked"] == ["fundamentals"]
    assert (len(result.checks), result.coverage, result.trust) == (0, 1.0, 0.0)   # it used to score 1.00


def test_the_report_date_stated_with_its_source_answers_it():
    _, part = answered(WHEN, "Tesla reports third-quarter results on 2024-10-23 [6].")
    assert "calendar" in part["answered"]
    _, listed = answered(WHEN, "- 2024-10-14 · Sample Market Wire: Tesla to report third-quarter results on "
                               "October 23 [6]")
    assert "calendar" not in listed["answered"]                      # a headline in a list, not the answer
    _, chinese = answered("特斯拉什么时候发布财报？", "特斯拉将于2024年10月23日发布第三季度财报 [6]。")
    assert chinese["answered"] == ["calendar"] and chinese["missing"] == []


def test_analyst_targets_substituted_by_the_price_are_missing():
    result, part = answered("NVDA analyst targets", "NVIDIA (NVDA) fell 7.27% last week [1].")
    assert part["answered"] == [] and missing(part) == {"analyst": "absent"} and result.trust == 0.0
    _, proper = answered("NVDA analyst targets", "Analysts' mean price target for NVDA is $150.00, "
                                                 "within $90.00 to $200.00 [7].")
    assert proper["answered"] == ["analyst"]
    _, chinese = answered("英伟达的分析师目标价是多少", "分析师对英伟达的平均目标价为150美元 [7]。")
    assert chinese["answered"] == ["analyst"]


def test_an_abbreviation_does_not_split_a_sentence_from_its_citations():
    result, part = answered(WHY, "NVIDIA fell 4.7% on 2024-10-11 after the U.S. weighed wider export curbs [1][2].")
    assert [c.verdict for c in result.checks] == ["supported", "supported"] and part["answered"] == ["why"]


# -- what is not checked, and the words shown -------------------------------------------------------------

def test_for_the_news_the_listed_headlines_are_the_answer():
    _, part = answered("Latest news on Nvidia", RETURNS_AND_HEADLINES)
    assert part["answered"] == ["news"]
    _, only_prices = answered("英伟达最新消息", "英伟达上周下跌7.27% [1]。")
    assert missing(only_prices) == {"news": "absent"}


def test_a_profile_that_was_not_retrieved_is_a_stated_gap_with_no_trust():
    result, part = answered("What does Nvidia do?", "Not retrieved: profile NVDA: no profile call for NVDA")
    assert missing(part) == {"profile": "stated"} and result.trust == 0.0
    _, proper = answered("What does Nvidia do?", "NVIDIA designs GPUs and AI data-center systems; "
                                                 "it fell 7.27% last week [1][3].")
    assert proper["answered"] == ["profile"]


def test_is_it_expensive_needs_a_ratio_not_a_size():
    _, size = answered("Is Nvidia expensive?", "NVIDIA last traded at $127.00, market cap $3.12T [1].")
    assert missing(size) == {"expensive": "absent"}
    _, ratio = answered("英伟达估值贵不贵", "英伟达市盈率为52.3倍 [1]。")
    assert "expensive" in ratio["answered"]


def test_an_intent_without_a_rule_is_unchecked_not_guessed():
    result, part = answered("Should I buy NVDA?", "NVIDIA (NVDA) fell 7.27% last week [1].")
    assert "advice" in part["unchecked"] and "advice" not in part["answered"] + list(missing(part))


def test_without_the_question_nothing_is_checked_and_an_empty_answer_has_no_trust():
    result = audit("Nothing to report.", [], graph())
    assert result.to_dict()["answered"] == {"intents": [], "answered": [], "missing": [], "unchecked": [],
                                            "not_in_lead": []}
    assert result.trust == 0.0


def test_the_badge_words_in_both_languages():
    without_a_date = tuple(i for i in ITEMS if i is not TSLA_DATE)
    result, _ = answered("When does Tesla report earnings, and why did it fall?",
                         "Tesla fell 8.8% [1]. Not retrieved: earnings TSLA.", without_a_date)
    assert result.answered.not_answered("en") == \
        "did not answer: the report date (said it was not found), the reasons for a move"
    assert result.answered.not_answered("zh") == "未回答：财报日期（已说明未找到），涨跌原因"
    held, _ = answered("When does Tesla report earnings, and why did it fall?",
                       "Tesla fell 8.8% [1]. Not retrieved: earnings TSLA.")
    assert held.answered.not_answered("en") == ("did not answer: the report date (said it was not found, though a "
                                                "retrieved item holds it), the reasons for a move")
    assert held.answered.not_answered("zh") == "未回答：财报日期（称未找到，但检索到的资料中有），涨跌原因"
    complete, _ = answered(WHY, "NVIDIA fell 4.7% on 2024-10-11 amid reports of wider export curbs [1][2].")
    assert complete.answered.not_answered("en") is None


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_intent_the_analysis_finds_has_a_name_to_show(language):
    assert [i for i in INTENT_PATTERNS if f"intent.{i}" not in phrasebook(language)] == []


# -- a scripted model whose answer omits the cause, through the whole pipeline ---------------------------------

PRICES_IN_PROMPT = 6          # the price history's number in the answer prompt of the rules' plan
NEWS_OF_THE_DAY = 2           # "Nvidia shares slide 4.7% as report of wider chip export curbs weighs"


def test_a_model_answer_that_omits_the_cause_is_flagged(fake_llm, llm_settings, demo_settings):
    from finsearch import pipeline
    from finsearch.cli import render_text
    from finsearch.model.loopback import Reply

    fake_llm.on("plan", Reply(content="no JSON here"))          # the rules plan and rewrite
    fake_llm.on("rewrite", Reply(content="no JSON here"))
    fake_llm.on("answer", Reply(stream_pieces=[
        f"NVIDIA fell 7.27% last week, from $136.20 to $126.30 [{PRICES_IN_PROMPT}]. ",
        f"The biggest drop was 4.70% on 2024-10-11 [{NEWS_OF_THE_DAY}][{PRICES_IN_PROMPT}]."]))
    settings = llm_settings.replace(pack=demo_settings.pack, offline=True)     # now: 2024-10-15T20:00:00Z
    result = pipeline.ask("Why did Nvidia fall last week?", settings=settings)
    prompt = fake_llm.last("answer")["messages"][1]["content"]
    assert f"[{PRICES_IN_PROMPT}] (price_history;" in prompt and f"[{NEWS_OF_THE_DAY}] (news;" in prompt
    assert result.answer.writer == "llm"
    audit_json = result.to_dict()["audit"]
    assert audit_json["figures"] == {"total": 5, "supported": 5, "misattributed": 0, "unsupported": 0}
    assert audit_json["answered"] == {"intents": ["why"], "answered": [],
                                      "missing": [{"intent": "why", "reason": "absent"}], "unchecked": [],
                                      "not_in_lead": []}
    assert audit_json["citations"]["unused_references"] == []    # "[2][6]" is two citations, both kept
    assert audit_json["trust"] == 0.0                            # every figure right; the question unanswered
    assert "Audit: 5 of 5 figures traced to sources, trust 0.00; did not answer: the reasons for a move" \
        in render_text(result)


def test_stored_runs_keep_their_answered_part(fake_llm, llm_settings, demo_settings):
    from finsearch import pipeline
    from finsearch.model.loopback import Reply
    from finsearch.result import RunResult

    fake_llm.on("plan", Reply(content="no JSON here"))
    fake_llm.on("rewrite", Reply(content="no JSON here"))
    fake_llm.on("answer", Reply(stream_pieces=[f"NVIDIA fell 7.27% last week [{PRICES_IN_PROMPT}]."]))
    result = pipeline.ask("Why did Nvidia fall last week?",
                          settings=llm_settings.replace(pack=demo_settings.pack, offline=True))
    record = result.to_record()
    assert record["audit"]["answered"]["missing"] == [{"intent": "why", "reason": "absent"}]
    del record["audit"]["answered"]                              # a record stored before the audit had it
    again = RunResult.from_record(record)
    assert again.audit.answered.missing_intents == ("why",)      # recomputed from the answer and the question


def test_a_move_of_its_own_that_quotes_the_story_giving_the_reason_answers_why():
    # A Chinese answer over English news quotes the headline rather than translate its reason.
    title = "Nvidia shares slide 4.7% as report of wider chip export curbs weighs"       # [2]
    _, quoted = answered("英伟达上周为什么跌", f"英伟达（NVDA）于 2024-10-11 下跌 4.70%；Sample Market Wire当天报道："
                                               f"“{title}” [1][2]。")
    assert "why" in quoted["answered"]
    _, listed = answered("英伟达上周为什么跌", f"- 2024-10-11 · Sample Market Wire: “{title}” [2]")
    assert "why" not in listed["answered"]


PROBE_PACKS = __import__("pathlib").Path(__file__).resolve().parent / "probes" / "packs"


@pytest.mark.parametrize(("pack", "now", "question"), [
    ("us_dividends", "2025-06-20T20:30:00+00:00", "What is Verizon's payout ratio?"),
    ("us_dividends", "2025-06-20T20:30:00+00:00", "Is AT&T's dividend safe?"),
    ("cn_policy", "2025-04-10T08:00:00+00:00", "How much of its profit does Wuliangye pay out as dividends?"),
])
def test_a_payout_said_in_the_answers_own_words_answers_the_payout_question(tmp_path, pack, now, question):
    # "Verizon (VZ) pays out 64.50% of its earnings as dividends" opened the answer, and the audit read it
    # as no answer ("did not answer: dividends", trust 0.00): it looked for the word "payout". Wuliangye's
    # ¥3.17 a share (its plan: 10派31.69元) and the 2.52% yield on it were flagged as unsupported.
    from finsearch import pipeline
    from finsearch.settings import from_env

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                        now=datetime.fromisoformat(now)).replace(pack=PROBE_PACKS / pack, offline=True)
    result = pipeline.ask(question, settings=settings)
    part = result.audit.to_dict()["answered"]
    assert "dividend" in part["answered"] and part["missing"] == [] and part["not_in_lead"] == []
    assert result.audit.to_dict()["flagged"] == [] and result.audit.trust == 1.0


def test_a_plan_per_ten_shares_holds_its_cash_per_share():
    from finsearch.answer.dividend_plans import per_share_of_plan
    from finsearch.answer.figures import values_in

    assert per_share_of_plan("10派31.69元(含税)") == pytest.approx(3.169)
    assert per_share_of_plan("10送3转4派5.2元(含税)") == pytest.approx(0.52)
    assert per_share_of_plan("10转增4股") is None
    plans = item("cn_dividends", "finance", title="000858.SZ 分红",
                 data={"ticker": "000858.SZ", "plans": [{"period": "2024年报", "plan": "10派31.69元(含税)"}]})
    assert any(abs(v - 3.169) < 1e-9 for v in values_in(plans).levels)


@pytest.mark.parametrize("question", ["What is Walmart trading at?", "沃尔玛现在股价多少？"])
def test_the_price_now_beside_a_dated_older_quote_is_trusted(tmp_path, question):
    # The lead gives the close and the older quote's age, the detail the quote as one of its day: the audit
    # flagged that dated quote as 'given as the price now' (trust 0.79, 0.73), the age '3 days' as not traced,
    # and read '最新收盘价 95.99美元' as no price (a number, not an amount), so not the lead's answer.
    from finsearch import pipeline
    from finsearch.settings import from_env

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                        now=datetime(2025, 9, 26, 20, 30, tzinfo=UTC)).replace(pack=PROBE_PACKS / "us_valuation",
                                                                                offline=True)
    result = pipeline.ask(question, settings=settings)
    audited = result.audit.to_dict()
    assert audited["stale"] == [] and audited["flagged"] == []
    assert audited["answered"]["answered"] == ["price"] and audited["answered"]["not_in_lead"] == []
    assert result.audit.trust == 1.0
    lead = result.answer.markdown.replace("\\", "").split("\n\n", 1)[0]
    assert "3 days before the close of 2025-09-26" in lead or "比 2025-09-26 的收盘早 3 天" in lead


def test_an_amount_with_its_currency_after_it_is_money():
    from finsearch.answer.figures import figures_in

    assert [(f.text, f.kind) for f in figures_in("最新收盘价 95.99美元（2025-09-26）")][0] == ("95.99", "money")
    assert figures_in("revenue of 86.6 billion yuan")[0].kind == "money"
    assert figures_in("over 3 trading days")[0].kind == "number"


@pytest.mark.parametrize(("days", "traced"), [("3", True), ("5", False)])
def test_a_count_of_days_is_traced_only_by_the_two_dates_its_sentence_gives(days, traced):
    quote = item("quote", "finance", title="Walmart (WMT) quote", published="2025-09-26T20:00:00Z",
                 data={"ticker": "WMT", "currency": "USD", "last": 94.37, "as_of": "2025-09-23T20:00:00Z"})
    node = SearchNode("n1", "q", "quote", {"ticker": "WMT"}, TC, status=NodeStatus.DONE, evidence=(quote,))
    markdown = f"An older quote of $94.37 dates from 2025-09-23, {days} days before the close of 2025-09-26 [1]."
    result = audit(markdown, [Reference(1, quote.id, quote.title)], SearchGraph.build("q", TC, [node]))
    assert [c.text for c in result.flagged] == ([] if traced else [days])


def test_a_multiple_said_above_or_below_its_industrys_answers_the_comparison(tmp_path):
    # "Wuliangye's static P/E of 17.60 is below the weighted 22.40 of its industry" was no verdict to the
    # audit ("did not answer: a comparison", trust 0.67): it knew 低于 but not "below".
    from finsearch import pipeline
    from finsearch.settings import from_env

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                        now=datetime(2025, 4, 10, 8, 0, tzinfo=UTC)).replace(pack=PROBE_PACKS / "cn_policy",
                                                                              offline=True)
    result = pipeline.ask("Is Wuliangye cheaper than its industry?", settings=settings)
    assert "is below the weighted 22.40 of its industry" in result.answer.markdown
    assert "compare" in result.audit.to_dict()["answered"]["answered"] and result.audit.trust == 1.0
