"""Answers that answer the question: whole runs on the answer test pack (tests/make_answer_pack.py)
with the rule-based writer, asserting on the opening the user reads first.

Each row: the question; words its first sentence must hold (the verdict, the figures, the
date, the reason clause); the evidence the first sentence must cite (a story by its title,
computed data as "source:TICKER"); words the opening (its first paragraph) must hold, and
words it must not. All expected values are written out by hand from the pack.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timezone

import pytest

from finsearch import pipeline
from finsearch.answer.citations import markers
from tests.conftest import ROOT

ANSWER_PACK = ROOT / "tests" / "fixtures" / "answer_pack"
PACK_NOW = datetime(2024, 11, 15, 21, 0, tzinfo=timezone.utc)

AMD_DROP = "AMD shares tumble 7.5% after weak data-center forecast"
TENCENT_DROP = "受游戏监管新规影响，腾讯控股股价重挫6.1%"
BYD_JUMP = "比亚迪股价大涨5.3%，因十月销量创新高"
GOOGL_DROP = "Alphabet falls 3% amid antitrust ruling worries"
META_DATE = "Meta to report fourth-quarter results on January 29"
META_OTHER_DAY = "Meta rises after strong ad sales lift outlook"
BYD_MISS = "比亚迪三季度营收增长但净利润不及预期"


@dataclasses.dataclass(frozen=True)
class Row:
    question: str
    first: tuple[str, ...]                  # in the first sentence
    cites: tuple[str, ...] = ()             # cited by the first sentence
    opening: tuple[str, ...] = ()           # elsewhere in the opening paragraph
    not_in_opening: tuple[str, ...] = ()    # never in the opening (titles: never cited by it)


ROWS = [
    # why: the cause the stories of the days around the move give, named, with what said it
    Row("Why did AMD fall last week?",
        ("fell 7.50% on 2024-11-06 after an outlook that fell short of expectations",
         "“The chipmaker's outlook for AI accelerators fell short of what investors hoped for” "
         "(Test Wire, 2024-11-06)"),
        cites=("price_history:AMD", AMD_DROP)),
    Row("What happened to AMD stock last week?", ("fell 7.50% on 2024-11-06", "an outlook that fell short"),
        cites=(AMD_DROP,)),
    Row("Why did Alphabet fall on Tuesday?", ("fell 3.00% on 2024-11-12 after legal or regulatory action",
                                              "A court filing raised the prospect of remedies in the search case"),
        cites=(GOOGL_DROP,)),
    # … in another language than the answer's: the kind of cause in the answer's words, never the
    # headline untranslated
    Row("Why did Tencent fall last week?", ("fell 6.10% on 2024-11-05 after government policy news",
                                            "as 测试财经 reported on 2024-11-05"),
        cites=(TENCENT_DROP,), not_in_opening=("受游戏监管新规影响",)),
    Row("Why did BYD rise last Friday?", ("rose 5.30% on 2024-11-08 after its sales figures",), cites=(BYD_JUMP,)),
    Row("腾讯上周为什么跌", ("于 2024-11-05 下跌 6.10%", "主要原因是政策消息", "受游戏监管新规影响", "测试财经"),
        cites=(TENCENT_DROP,)),
    Row("比亚迪上周五为什么涨", ("于 2024-11-08 上涨 5.30%", "主要原因是销量数据", "十月新能源汽车销量再创纪录"),
        cites=(BYD_JUMP,)),
    Row("AMD上周为什么大跌", ("于 2024-11-06 下跌 7.50%", "主要原因是业绩指引不及预期", "据Test Wire 2024-11-06 报道"),
        cites=(AMD_DROP,)),
    Row("谷歌周二为什么跌", ("于 2024-11-12 下跌 3.00%", "主要原因是法律或监管行动"), cites=(GOOGL_DROP,)),
    # why: the stories of the days around the move name it and give no reason; another week's
    # reason is not used, and the answer says how many stories of which days were read
    Row("Why did Meta jump last week?", ("rose 5.20% on 2024-11-07",), cites=("price_history:META",),
        opening=("No story read from the three days before the move to the day after (2 in all) gives a "
                 "reason for it.",),
        not_in_opening=(META_OTHER_DAY, "after strong ad")),
    Row("Meta上周为什么涨", ("于 2024-11-07 上涨 5.20%",),
        opening=("波动前三天至波动后一天读到的 2 篇报道都没有说明其原因",),
        not_in_opening=(META_OTHER_DAY,)),
    # compare by size: the verdict first, with both figures
    Row("Which is bigger by market cap, Meta or Alphabet?",
        ("Alphabet (Class A) (GOOGL) is larger by market cap", "$2.10T", "Meta Platforms (META) $1.45T"),
        cites=("quote:GOOGL", "quote:META")),
    Row("Which is smaller by market cap, AMD or Meta?",
        ("Advanced Micro Devices (AMD) is smaller by market cap", "$230.00B", "$1.45T"),
        cites=("quote:AMD", "quote:META")),
    Row("Meta vs AMD market cap", ("Meta Platforms (META) is larger by market cap",)),
    Row("Is AMD bigger than Meta?", ("Meta Platforms (META) is larger by market cap", "$230.00B")),
    Row("AMD和Meta哪个市值更大", ("按市值", "Meta Platforms（META）更大"), cites=("quote:AMD", "quote:META")),
    # … in different currencies: stated, not ranked
    Row("Is Tencent larger than BYD by market cap?", ("different currencies", "HK$3.60T", "¥850.00B"),
        not_in_opening=("is larger",)),
    Row("腾讯和比亚迪哪个市值更大", ("不同货币",), not_in_opening=("更大：",)),
    # compare by return, like for like: the one whose prices end early is named in the ranking
    Row("Compare AMD, Meta and Alphabet over the past month",
        ("Meta Platforms (META) +4.76%", "did best", "not over the same days",
         "Alphabet (Class A) (GOOGL) only 2024-10-14 → 2024-11-12"),
        cites=("price_history:AMD", "price_history:META", "price_history:GOOGL")),
    Row("AMD vs Meta over the past month", ("Ranked by return", "Meta Platforms (META) did best"),
        not_in_opening=("not over the same days",)),
    Row("AMD和谷歌过去一个月对比",
        ("谷歌（GOOGL）表现最好", "区间并不相同", "谷歌（GOOGL）仅有 2024-10-14 → 2024-11-12")),
    # performance: direction, size and period
    Row("How did Meta do last week?", ("Meta Platforms (META) rose 4.36% last week",), cites=("price_history:META",)),
    Row("比亚迪上周表现如何", ("比亚迪（002594.SZ）上周", "上涨"), cites=("price_history:002594.SZ",)),
    # the next report: the earnings source's date, else the news', else plainly none
    Row("When does AMD report earnings?", ("Advanced Micro Devices (AMD) next reports on 2025-01-28",),
        cites=("earnings:AMD",)),
    Row("When does Meta report earnings?", ("is due to report on 2025-01-29", "Test Wire"), cites=(META_DATE,)),
    Row("Meta什么时候发布财报", ("将于 2025-01-29 发布财报", "据Test Wire"), cites=(META_DATE,)),
    Row("腾讯什么时候发布财报", ("将于 2024-11-20 发布财报", "据测试财经"),
        cites=("腾讯控股将于11月20日公布第三季度业绩",)),
    Row("比亚迪什么时候发布财报", ("没有找到比亚迪（002594.SZ）的财报发布日期",)),
    # beat or miss: the reported EPS against its estimate, else the news' verdict, else plainly none
    Row("Did AMD beat estimates?", ("beat estimates", "EPS of 0.92 against 0.90 expected"),
        cites=("earnings:AMD",)),
    # … the news' verdict, in the answer's words: a Chinese headline is cited, not pasted into English
    Row("Did BYD beat estimates?", ("missed estimates, as 测试证券报 reported on 2024-11-01",), cites=(BYD_MISS,),
        not_in_opening=("不及预期",)),
    Row("比亚迪业绩是否超预期", ("不及预期", BYD_MISS), cites=(BYD_MISS,)),
    Row("Did Meta beat estimates?", ("Neither the earnings data nor the news", "Meta Platforms (META)")),
    Row("When does Meta report earnings, and did it beat estimates?", ("is due to report on 2025-01-29",),
        cites=(META_DATE,), opening=("Neither the earnings data nor the news",)),
    # guidance, what was said: only the news has it; the sentence of a story closest to the question,
    # quoted (a snippet's sentence as well as a headline)
    Row("What guidance did AMD give?", ("Test Wire reported on 2024-11-06",
                                        "The chipmaker's outlook for AI accelerators fell short"),
        cites=(AMD_DROP,)),
    Row("What did Meta say about its results?", ("said it will publish results", "January 29"), cites=(META_DATE,)),
    Row("What did Alphabet say about layoffs?",
        ("No statement on this for Alphabet (Class A) (GOOGL) was found in what was read (news; 2 in all)",),
        not_in_opening=(GOOGL_DROP,)),
    Row("腾讯的业绩指引", ("在读到的 3 条资料（新闻）中没有找到腾讯（0700.HK）的业绩指引",)),
    # analysts: the target and how far it lies from the freshest price (derived), or plainly none
    # (never prices in its place)
    Row("AMD analyst price target",
        ("mean price target", "$190.50", "above the price of $140.08 on 2024-11-15 (derived)"),
        cites=("analyst:AMD", "quote:AMD")),
    Row("腾讯分析师目标价", ("平均目标价为 480.00港元",), cites=("analyst:0700.HK",)),
    Row("Meta analyst targets", ("No analyst data was found for Meta Platforms (META), so there is no target",),
        not_in_opening=("last traded", "rose", "fell")),
    Row("比亚迪的目标价是多少", ("没有找到比亚迪（002594.SZ）的分析师数据",), not_in_opening=("最新价",)),
    # dividends and size of one
    Row("Alphabet dividend", ("yields 0.47% on its trailing dividends",), cites=("dividends:GOOGL",),
        opening=("latest dividend was $0.20 per share on 2024-09-09",)),
    Row("What is AMD's market cap?", ("market cap $230.00B",), cites=("quote:AMD",)),
]


@pytest.fixture(scope="module")
def answer_settings(tmp_path_factory):
    from finsearch.settings import from_env

    folder = tmp_path_factory.mktemp("answers")
    return from_env({}, cache_dir=folder / "cache", data_dir=folder / "data", llm="heuristic", now=PACK_NOW,
                    node_timeout_s=5.0).replace(pack=ANSWER_PACK, offline=True)


def opening_of(markdown: str) -> str:
    return markdown.split("\n\n", 1)[0]


def first_sentence(paragraph: str) -> str:
    """Up to the first full stop that ends a sentence (not the one in "$2.10T" or "0.92")."""
    match = re.search(r"\.(?=\s|$)|。", paragraph)
    return paragraph[: match.end()] if match else paragraph


def cited_by(result, text: str) -> set[str]:
    """What `text`'s citations point at: a story's title, computed data as "source:TICKER"."""
    by_id = {e.id: e for n in result.graph for e in n.evidence}
    refs = {r.n: by_id[r.evidence_id] for r in result.answer.references}
    return {f"{e.source}:{e.ticker}" if e.kind == "finance" else e.title for e in (refs[n] for n in markers(text))}


def test_the_table_is_large_and_covers_both_languages():
    assert len(ROWS) >= 30
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", r.question)) for r in ROWS) >= 10


@pytest.mark.parametrize("row", ROWS, ids=[r.question for r in ROWS])
def test_the_answer_opens_with_the_answer(row, answer_settings):
    result = pipeline.ask(row.question, settings=answer_settings)
    opening = opening_of(result.answer.markdown)
    first = first_sentence(opening).replace("\\", "")          # markdown escapes ("data\-center")
    for words in row.first:
        assert words in first, f"{words!r} not in the first sentence: {first!r}"
    assert set(row.cites) <= cited_by(result, first), cited_by(result, first)
    for words in row.opening:
        assert words in opening.replace("\\", ""), opening
    for words in row.not_in_opening:
        assert words not in opening.replace("\\", ""), opening
        assert words not in cited_by(result, opening)


DEMO = [
    ("Which is bigger by market cap, Apple or Microsoft?", "Apple (AAPL) is larger by market cap: $3.55T vs"),
    ("Why did Nvidia fall last week?", "NVIDIA (NVDA) fell 4.70% on 2024-10-11 after tariffs and trade curbs"),
    ("Why did Tesla drop on Friday?", "fell 8.80% on 2024-10-11 after a product event that disappointed"),
    # three days down in a row that moved the price half as much again as its worst day: the run
    ("特斯拉上周为什么跌", "特斯拉（TSLA）在 2024-10-09 至 2024-10-11 连续 3 个交易日下跌，累计下跌 13.35%"),
    ("When does Tesla report earnings, and did Q3 deliveries beat estimates?",
     "Tesla (TSLA) is due to report on 2024-10-23"),
    ("NVDA analyst targets", "No analyst data was found for NVIDIA (NVDA), so there is no target to report."),
    ("茅台9月底为什么大涨", "茅台（600519.SS）于 2024-09-30 上涨 9.90%，主要原因是刺激与宽松政策"),
    # the way the question says it went picks the move, though the period went the other way
    ("茅台为什么涨", "茅台（600519.SS）于 2024-10-08 上涨 3.10%"),
]


@pytest.mark.parametrize("question, opens", DEMO, ids=[q for q, _ in DEMO])
def test_the_demo_questions_open_with_their_answer(question, opens, demo_settings):
    result = pipeline.ask(question, settings=demo_settings)
    assert opens in first_sentence(opening_of(result.answer.markdown)).replace("\\", "")


def test_the_delivery_miss_is_read_from_the_news_when_earnings_has_no_data(demo_settings):
    result = pipeline.ask("When does Tesla report earnings, and did Q3 deliveries beat estimates?",
                          settings=demo_settings)
    opening = opening_of(result.answer.markdown)
    assert "missed estimates" in opening
    assert "Tesla third-quarter deliveries rise 6% but miss estimates" in cited_by(result, opening)


def test_an_announced_report_day_that_has_passed_is_not_called_next(demo_settings):
    later = demo_settings.replace(now=datetime(2024, 10, 25, 20, 0, tzinfo=timezone.utc))
    result = pipeline.ask("When does Tesla report earnings?", settings=later)
    first = first_sentence(opening_of(result.answer.markdown))
    assert "was due to report on 2024-10-23, a day that has passed" in first
    assert "Tesla to report third-quarter results on October 23" in cited_by(result, first)


def test_stories_outside_the_asked_period_are_listed_apart_on_their_markets_clock(demo_settings):
    answer = pipeline.ask("Tesla news on Friday", settings=demo_settings).answer.markdown
    lead, rest = answer.split("\n\n", 1)
    # The newest stories lead; the others are listed, those outside Friday apart.
    assert lead.startswith("The latest on Tesla (TSLA): “Tesla China sales climb in September (sample)”")
    outside = rest.split("**Earlier and later coverage**")[1]
    # Out at 02:00 UTC on the 11th, which is the evening of the 10th in New York: before Friday.
    assert "- 2024-10-10 · Sample Market Wire: Tesla unveils Cybercab" in outside
    assert "- 2024-10-02 · Sample Market Wire: Tesla third-quarter deliveries" in outside
    assert "Tesla unveils" not in lead


def test_a_why_answer_explains_in_prose_and_uses_each_story_once(settings):
    """Cause (with the move's date and size), then the other stories that give it and what speaks
    against it; the stories the prose cites are references, not listed again as headlines."""
    probe = settings.replace(pack=ROOT / "tests" / "probes" / "packs" / "us_guidance", offline=True,
                             now=datetime(2025, 3, 18, 21, 0, tzinfo=timezone.utc))
    answer = pipeline.ask("Why did Adobe stock fall last week?", settings=probe).answer
    paragraphs = answer.markdown.replace("\\", "").split("\n\n")
    assert paragraphs[0].startswith(
        "Adobe (ADBE) fell 9.42% on 2025-03-14 after an outlook that fell short of expectations: “Adobe forecast "
        "fiscal 2025 revenue of $23.30 billion to $23.55 billion, below the consensus estimate of $23.70 billion” "
        "(Ledger Wire, 2025-03-13)")
    assert paragraphs[1].startswith("Market Daily Probe wrote on 2025-03-14: “The stock fell 9.4% on Friday after")
    assert "Against that, Ledger Wire wrote on 2025-03-13: “Adobe reported revenue of $5.71 billion" in paragraphs[1]
    # The other stories are references below, not a list of headlines: each title is shown once, in
    # the References list.
    assert not [line for p in paragraphs for line in p.splitlines() if line.startswith("- ")]
    assert "Other stories of the period: [" in answer.markdown and "Before and after it: [" in answer.markdown
    for reference in answer.references:
        assert reference.title not in answer.markdown.replace("\\", ""), reference.title
