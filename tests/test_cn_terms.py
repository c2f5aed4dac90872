"""The China-market sites' Chinese words in an English answer (finsearch.answer.cn_terms): a
dividend plan's period, progress and terms, an amount in 亿, a CSRC industry. An English answer
about an A-share printed "latest dividend plan (2024年报, 董事会预案): 10派31.69元(含税)", "revenue
845.02亿" and "its industry, 电力、热力生产和供应业"; a Chinese answer keeps the sites' words."""

from __future__ import annotations

import re

import pytest

from finsearch.answer import cn_terms, company_facts
from finsearch.evidence import Evidence

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("plan, english", [
    ("10派9.43元(含税)", "¥9.43 per 10 shares, before tax"),
    ("10派31.69元(含税,扣税后28.52元)", "¥31.69 per 10 shares, before tax"),
    ("10送3转4派5.2元(含税)",
     "a bonus issue of 3 shares per 10, 4 shares from reserves per 10, ¥5.20 per 10 shares, before tax"),
    ("10转增4.5股", "4.5 shares from reserves per 10"),
    ("每股派3.4港元", "HK$3.40 per share"),
    # paid in kind: no reading of it is made up, the site's words stay
    ("以实物分派方式派发美团B类普通股股息", "以实物分派方式派发美团B类普通股股息"),
])
def test_a_plans_terms_in_english(plan, english):
    assert cn_terms.plan_terms(plan, "en") == english
    assert cn_terms.plan_terms(plan, "zh") == plan


@pytest.mark.parametrize("period, english", [("2024年报", "FY2024 final"), ("2024中报", "FY2024 interim"),
                                             ("2025一季报", "Q1 2025"), ("2024三季报", "Q3 2024"),
                                             ("末期", "final"), ("特别", "special")])
def test_a_plans_period_in_english(period, english):
    assert cn_terms.plan_period(period, "en") == english
    assert cn_terms.plan_period(period, "zh") == period


@pytest.mark.parametrize("progress, english", [("董事会预案", "proposed by the board"),
                                               ("股东大会预案", "approved by shareholders"),
                                               ("实施方案", "implemented"), ("已实施", "implemented"),
                                               ("停止实施", "withdrawn"), ("待实施", "not yet paid")])
def test_a_plans_progress_in_english(progress, english):
    assert cn_terms.plan_progress(progress, "en") == english


def test_amounts_in_yi_and_industries_in_english():
    assert cn_terms.amount("845.02亿", "en") == "¥84.50B"
    assert cn_terms.amount("3,120.5万", "en") == "¥31.20M"
    assert cn_terms.amount("8.97%", "en") == "8.97%"
    assert cn_terms.amount("845.02亿", "zh") == "845.02亿"
    assert cn_terms.industry("电力、热力生产和供应业", "D44", "en") == "Electricity and heat production and supply"
    assert cn_terms.industry("酒、饮料和精制茶制造业", None, "en") == "Liquor, beverage and refined tea manufacturing"
    assert cn_terms.industry("制造业", "C", "en") == "Manufacturing"
    assert cn_terms.industry("电力、热力生产和供应业", "D44", "zh") == "电力、热力生产和供应业"


def _item(source: str, data: dict) -> Evidence:
    return Evidence.from_untrusted({"title": source, "data": data}, source=source, kind="finance")


def test_an_english_answers_plan_abstract_and_industry_sentences_hold_no_chinese():
    names = {"000858.SZ": "Wuliangye"}
    plans = _item("cn_dividends", {"ticker": "000858.SZ", "plans": [
        {"period": "2024年报", "plan": "10派31.69元(含税)", "progress": "董事会预案", "ex_date": None}]})
    assert company_facts.dividend_plans(plans, 1, names, "en") == [
        "Wuliangye (000858.SZ)'s latest dividend plan (FY2024 final, proposed by the board): "
        "¥31.69 per 10 shares, before tax [1]."]
    abstract = _item("cn_financial_abstract", {"ticker": "000858.SZ", "periods": [
        {"period": "2024-12-31", "revenue": "891.75亿", "revenue_yoy": "7.09%", "net_profit": "318.53亿",
         "net_profit_yoy": "5.44%", "eps": "8.2100"}]})
    (said,) = company_facts.financial_abstract(abstract, 2, names, "en")
    assert "revenue ¥89.17B (7.09% year on year), net profit ¥31.85B (5.44%)" in said
    industry = _item("cn_industry_compare", {"ticker": "000858.SZ", "industry": "酒、饮料和精制茶制造业",
                                             "industry_code": "C15", "pe_static": 17.6, "industry_pe_weighted": 22.4,
                                             "industry_pe_median": 31.0, "companies": 48, "as_of": "2025-04-09",
                                             "valued_on": "2025-04-09"})
    (compared,) = company_facts.industry_compare(industry, 3, names, "en")
    assert "Liquor, beverage and refined tea manufacturing" in compared
    assert not any(CJK.search(s) for s in (*company_facts.dividend_plans(plans, 1, names, "en"), said, compared))
