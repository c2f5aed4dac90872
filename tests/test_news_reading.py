"""Reading answers out of headlines: the reason clause of a move, the announced report date,
the beat-or-miss verdict; and the model writer told which evidence may explain each move."""

from __future__ import annotations

import re
from datetime import date

import pytest

from finsearch import pipeline
from finsearch.answer.causes import reason_in
from finsearch.answer.news_facts import report_date_in, verdict_in
from finsearch.model.loopback import Reply
from tests.test_pipeline import script


@pytest.mark.parametrize("headline, reason", [
    ("Nvidia shares slide 4.7% as report of wider chip export curbs weighs",
     "as report of wider chip export curbs weighs"),
    ("Chip stocks retreat on export worries; Nvidia leads decline", "on export worries"),
    ("Tesla posted its worst day in months after the robotaxi event lacked a detailed timeline.",
     "after the robotaxi event lacked a detailed timeline"),
    ("AMD falls as much as 5% after weak guidance, analysts say", "after weak guidance"),
    ("Alphabet falls 3% amid antitrust ruling worries", "amid antitrust ruling worries"),
    ("Oil drops due to rising inventories", "due to rising inventories"),
    ("受游戏监管新规影响，腾讯控股股价重挫6.1%", "受游戏监管新规影响"),
    ("比亚迪股价大涨5.3%，因十月销量创新高", "因十月销量创新高"),
    ("由于需求疲软，茅台股价下跌", "由于需求疲软"),
    ("贵州茅台随消费板块大涨，刺激政策提振市场信心（示例）", "刺激政策提振市场信心"),
    ("国庆节后首个交易日A股冲高回落，白酒股波动加大（示例）", None),
    # a headline that names the move, a date or a time of day gives no reason
    ("Why Nvidia stock fell on October 11, 2024 (sample explainer)", None),
    ("Meta shares jump 5.2% on Thursday", None),
    ("Alphabet gains 2% after hours", None),
    ("Tech stocks rose on Wall Street", None),
    ("Nvidia falls 3% on heavy volume", None),
    ("Intel climbs on the Nasdaq, then after upbeat guidance", "after upbeat guidance"),
    ("Tesla to report third-quarter results on October 23", None),      # no move at all
    ("Tesla unveils Cybercab robotaxi concept at product event", None),
    ("港股科技股走低，腾讯领跌", None),
    ("英伟达大跌原因：出口管制", None),
])
def test_the_reason_clause_of_a_move(headline, reason):
    assert reason_in(headline) == reason


@pytest.mark.parametrize("text, published, day", [
    ("Tesla to report third-quarter results on October 23", date(2024, 10, 14), date(2024, 10, 23)),
    ("Meta to report fourth-quarter results on January 29", date(2024, 11, 12), date(2025, 1, 29)),
    ("Apple will release earnings on Thursday, Oct. 31", date(2024, 10, 1), date(2024, 10, 31)),
    ("Nike reports results on June 27, 2025", date(2024, 12, 1), date(2025, 6, 27)),
    ("腾讯控股将于11月20日公布第三季度业绩", date(2024, 11, 8), date(2024, 11, 20)),
    ("比亚迪定于2025年3月24日发布年报", date(2024, 12, 1), date(2025, 3, 24)),
    ("Tesla shares fall 8.8% on October 11", date(2024, 10, 11), None),    # no report
    ("Tesla delivered 463,000 vehicles in the third quarter", date(2024, 10, 2), None),
])
def test_the_report_date_a_story_announces(text, published, day):
    assert report_date_in(text, published) == day


@pytest.mark.parametrize("text, verdict", [
    ("Tesla third-quarter deliveries rise 6% but miss estimates", "missed"),
    ("AMD third-quarter earnings beat estimates on data-center demand", "beat"),
    ("Netflix tops Wall Street expectations for subscribers", "beat"),
    ("Revenue came in line with consensus", "met"),
    ("Delivered about 463,000 vehicles, below analysts' expectations", "missed"),
    ("比亚迪三季度营收增长但净利润不及预期", "missed"),
    ("英伟达业绩超预期", "beat"),
    ("Intel beats on revenue but misses profit estimates", None),           # no one verdict
    ("Tesla China sales climb in September", None),
])
def test_the_verdict_a_story_gives(text, verdict):
    assert verdict_in(text) == verdict


def test_the_model_writer_gets_the_facts_brief_with_the_move_its_cause_and_the_lead_shape(llm_settings, fake_llm,
                                                                                        demo_settings):
    script(fake_llm, Reply(content="NVDA fell [1]."))
    pipeline.ask("Why did NVDA fall last week?", settings=llm_settings.replace(pack=demo_settings.pack, offline=True))
    system, user = (m["content"] for m in fake_llm.last("answer")["messages"])
    assert "three days before the move to the day after it" in system
    facts = user.split("Facts already read from the evidence", 1)[1]
    assert "- lead shape: why → the cause, the move's date and size (first sentence)" in facts
    line = re.search(r"- NVDA -4\.70% on 2024-10-11 \(from \[(\d+)\]\); most supported cause: tariffs ((?:\[\d+\])+)",
                     facts)
    assert line, facts
    numbered = dict(re.findall(r"^\[(\d+)\] \(([^;]+);", user, re.M))
    assert numbered[line.group(1)] == "price_history"
    cited = set(re.findall(r"\d+", line.group(2)))
    stamps = dict(re.findall(r"^\[(\d+)\] \([^;]+; [^;]+; ([^;]+);", user, re.M))
    # The cause's stories are of the move's day or of the three days before it.
    assert cited and all("2024-10-08" <= stamps[n][:10] <= "2024-10-12" for n in cited)
    assert re.search(r"- NVDA price: [\d.]+ USD on 2024-10-1\d \[\d+\]", facts), facts
