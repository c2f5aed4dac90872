"""Fundamentals asked in everyday words plan the sources that hold them, not the price (issue 32,
class 6): an amount made or lost over a period is the company's income, a quarter named after a
company its results, a ratio by its short name the statements or the profile that hold it; what
the asker made on a position is still the stock's move. now = Tue 2024-10-15 20:00 UTC."""

from __future__ import annotations

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from tests.conftest import NOW


def sources(question: str) -> set[str]:
    return {n.source for n in heuristic_plan(analyse(question, NOW), NOW)}


@pytest.mark.parametrize("question", [
    "how much did amazon make last quarter", "how much money does microsoft make", "what did meta earn in q2",
    "how much did rivian lose last quarter", "how much money is rivian losing", "is palantir making money yet",
    "蔚来上半年亏了多少", "小鹏去年亏了多少钱", "拼多多上季度赚了多少", "比亚迪今年赚了多少", "理想汽车赚钱吗",
])
def test_an_amount_made_or_lost_is_the_companys_income(question):
    assert "financials" in sources(question)


@pytest.mark.parametrize("question", [
    "how did JPM do in Q3", "how did goldman fare last quarter", "how did walmart perform in the first half",
    "how was nike's quarter", "how'd citi do in q2", "how did bofa's Q3 go",
    "摩根大通三季度表现如何", "高盛上季度成绩怎么样",
])
def test_a_quarter_named_after_a_company_is_its_results(question):
    assert {"earnings", "financials"} <= sources(question)


@pytest.mark.parametrize("question", [
    "how much did tesla lose today", "how did jpm stock do in q3", "特斯拉今天跌了多少", "比亚迪今年前三季度股价表现",
    "if I bought nvda at 120 how much would I have made", "投了10万买茅台，现在赚了多少", "我在特斯拉上亏了多少",
])
def test_a_move_of_the_stock_or_the_askers_own_gain_is_the_price(question):
    planned = sources(question)
    assert "price_history" in planned and "financials" not in planned, planned


@pytest.mark.parametrize("question, held_by", [
    ("what's the PE on costco", "profile"), ("nvda pe", "profile"), ("茅台PE多少", "profile"),
    ("amzn forward p/e", "profile"), ("特斯拉的市销率", "profile"), ("meta return on equity", "financials"),
    ("宁德时代的ROE", "cn_financial_abstract"), ("苹果的净利率", "financials"), ("腾讯EPS", "financials"),
    ("amd ebitda", "financials"), ("intel book value", "financials"), ("小米营业额", "financials"),
])
def test_a_ratio_or_figure_by_its_short_name_plans_the_source_that_holds_it(question, held_by):
    planned = sources(question)
    assert held_by in planned and "price_history" not in planned, planned


@pytest.mark.parametrize("question", ["the pe firm that bought a stake in tesla", "tesla return since january",
                                      "apple stock last quarter"])
def test_look_alike_words_stay_what_they_were(question):
    assert "profile" not in sources(question) and "financials" not in sources(question)


def test_a_dividend_per_share_held_is_a_dividend_question():
    assert "dividends" in sources("我持有500股工商银行，今年能分到多少红")
