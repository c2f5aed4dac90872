"""Chinese names typed with a character that sounds the same (the pinyin input method's slip),
and the homophone data that finds them (offline)."""

import json
from importlib import resources

import pytest

from finsearch.plan.entities import extract
from finsearch.plan.spelling import homophones


def _read(question: str) -> list[tuple[str | None, str]]:
    return [(e.ticker, e.read_as) for e in extract(question)]


@pytest.mark.parametrize(("question", "ticker"), [
    ("腾迅最新消息", "0700.HK"), ("茅苔股价", "600519.SS"), ("英伟哒最近怎么样", "NVDA"),
    ("百渡财报", "BIDU"), ("京冬最近一周", "JD"), ("请问腾迅最近怎么样", "0700.HK"),
    ("阿狸巴巴股价", "BABA"), ("招商银航分红", "600036.SS"),
])
def test_a_name_typed_with_a_homophone_is_read_as_the_name(question, ticker):
    assert _read(question) == [(ticker, "fuzzy")]


@pytest.mark.parametrize("question", ["小朋友的问题", "今天天气怎么样", "中航最近", "美联储降息", "对未来的预期",
                                      "数据中心收入", "利润微薄的公司", "中间的价格"])
def test_words_that_merely_sound_like_a_short_name_stay_words(question):
    assert [e.ticker for e in extract(question) if e.ticker] == []


def test_every_character_of_the_tables_chinese_names_has_its_homophones_listed():
    # A name added to the table needs `python scripts/make_homophones.py` to be found misspelt.
    raw = json.loads(resources.files("finsearch").joinpath("data/aliases.json").read_text("utf-8"))
    chars = {c for e in raw for f in ("aliases", "nicknames") for name in e.get(f, ())
             for c in name if "\u4e00" <= c <= "\u9fff"}
    assert chars <= set(homophones())
    assert "迅" in homophones()["讯"] and "苔" in homophones()["台"]
