"""Hostile answers from the China-market sites (issue 31 §10), two ways:

- akshare's frames as our builders read them, seeded: every function the eleven China-market
  sources call answers with a frame of the right columns whose cells are, here and there, of the
  wrong type, NaN, NaT, infinity, a number too large for a float, markup, a lone surrogate or a
  string of hundreds of kilobytes; now and then a column is missing, doubled or the frame empty;
- the sites themselves at urllib3's pool (tests/china_sites.py), through the real akshare:
  cninfo's announcements and Eastmoney's news with damaged JSON, and HTML in their titles.

Each ends as evidence with inert text or as a source failure FinSearch meant, never a crash of
our own parsing (its message would blame the site), a hang or gigabytes held.
"""

from __future__ import annotations

import json
import random
import time
import tracemalloc
from datetime import date, datetime, timedelta, timezone
from functools import partial

import numpy as np
import pandas as pd
import pytest

from finsearch.catalogue import CATALOGUE
from finsearch.evidence import sanitise
from finsearch.sources.china.adapter import AShares
from tests import china_sites
from tests.hostile_payloads import leaf, mutate, settled

NOW = datetime(2024, 11, 15, 8, 0, tzinfo=timezone.utc)
INDUSTRY = "酒、饮料和精制茶制造业"
BAR_DAYS = [(date(2024, 9, 20) + timedelta(days=i)).isoformat() for i in range(56)]

# One good row per akshare function (its columns as akshare 1.19.5 names them), and how many rows.
TEMPLATES: dict[str, tuple[dict, int]] = {
    "stock_main_stock_holder": ({
        "股东名称": "中国贵州茅台酒厂(集团)有限责任公司", "持股数量": 678291955.0, "持股比例": 54.0,
        "股本性质": "流通A股",
        "截至日期": "2024-09-30", "公告日期": "2024-10-26", "股东说明": "", "股东总数": 158967.0,
        "平均持股数": 7913.0}, 12),
    "stock_zh_a_disclosure_report_cninfo": ({
        "代码": "600519", "简称": "贵州茅台", "公告标题": "贵州茅台2024年第三季度报告",
        "公告时间": "2024-10-26 00:00:00",
        "公告链接": "http://www.cninfo.com.cn/new/disclosure/detail?id=1"}, 6),
    "stock_zyjs_ths": ({
        "股票代码": "600519", "主营业务": "茅台酒及系列酒的生产与销售", "产品类型": "白酒",
        "产品名称": "茅台酒、系列酒",
        "经营范围": "茅台酒系列产品的生产与销售"}, 1),
    "stock_fhps_detail_ths": ({
        "报告期": "2024中报", "董事会日期": "2024-10-26", "股东大会预案公告日期": "2024-11-28",
        "实施公告日": "2024-12-13", "分红方案说明": "10派238.82元(含税)", "A股股权登记日": "2024-12-19",
        "A股除权除息日": "2024-12-20", "方案进度": "实施方案", "股利支付率": "99.95%", "分红总额": "300.00亿"}, 6),
    "stock_hk_fhpx_detail_ths": ({
        "公告日期": "2024-03-20", "方案": "每股派3.4港元", "除净日": "2024-05-16", "派息日": "2024-05-31",
        "过户日期起止日-起始": "2024-05-20", "过户日期起止日-截止": "2024-05-22", "类型": "末期", "进度": "实施",
        "以股代息": "否"}, 5),
    "stock_financial_abstract_ths": ({
        "报告期": "2024-09-30", "净利润": "608.28亿", "净利润同比增长率": "15.04%", "营业总收入": "1231.23亿",
        "营业总收入同比增长率": "16.91%", "基本每股收益": "48.42", "销售毛利率": "91.53%",
        "净资产收益率": "28.48%"}, 6),
    "stock_profit_forecast_ths": ({
        "年度": "2024", "预测机构数": 48.0, "最小值": 68.1, "均值": 69.5, "最大值": 71.2, "行业平均数": 10.1}, 3),
    "stock_profile_cninfo": ({
        "公司名称": "贵州茅台酒股份有限公司", "英文名称": "Kweichow Moutai Co.,Ltd.", "A股代码": "600519",
        "A股简称": "贵州茅台", "所属市场": "上交所", "所属行业": INDUSTRY, "法人代表": "张德芹",
        "成立日期": "1999-11-20", "上市日期": "2001-08-27", "官方网站": "www.moutaichina.com",
        "注册地址": "贵州省仁怀市茅台镇", "主营业务": "茅台酒及系列酒的生产与销售",
        "机构简介": "公司是根据贵州省人民政府…"}, 1),
    "stock_industry_pe_ratio_cninfo": ({
        "变动日期": "2024-11-14", "行业分类": "证监会行业分类", "行业层级": 2.0, "行业编码": "C15",
        "行业名称": INDUSTRY,
        "公司数量": 47.0, "纳入计算公司数量": 41.0, "静态市盈率-加权平均": 24.3, "静态市盈率-中位数": 30.1}, 3),
    "stock_zh_valuation_baidu": ({"date": "2024-11-14", "value": 23.5}, 20),
    "stock_zh_a_hist_tx": ({
        "date": "2024-11-14", "open": 1530.0, "close": 1545.5, "high": 1551.0, "low": 1521.0,
        "volume": 3_100_000.0}, len(BAR_DAYS)),
    "stock_news_em": ({
        "关键词": "600519", "新闻标题": "贵州茅台拟以30亿元至60亿元回购股份", "新闻内容": "贵州茅台公告…",
        "发布时间": "2024-11-14 19:02:11", "文章来源": "证券时报网",
        "新闻链接": "http://finance.eastmoney.com/a/202411143240011234.html"}, 4),
}
# What pandas itself may hold in a cell beside JSON's values.
PANDAS_LEAVES = [pd.NaT, pd.Timestamp("2024-10-26"), pd.Timestamp("2024-10-26 19:00", tz="Asia/Shanghai"),
                 np.nan, np.inf, np.int64(2**62), np.float64(-0.0), date(2024, 10, 26), b"\xff\xfe", (1, 2),
                 pd.Timedelta(days=1)]
CALLS = [("cn_top_holders", {"ticker": "600519.SS"}), ("cn_announcements", {"ticker": "600519.SS"}),
         ("cn_business", {"ticker": "600519.SS"}), ("cn_dividends", {"ticker": "600519.SS"}),
         ("hk_dividends", {"ticker": "0700.HK"}), ("cn_financial_abstract", {"ticker": "600519.SS"}),
         ("cn_profit_forecast", {"ticker": "600519.SS"}), ("cn_profile", {"ticker": "600519.SS"}),
         ("cn_industry_compare", {"ticker": "600519.SS"}), ("cn_daily_bars", {"ticker": "600519.SS"}),
         ("cn_stock_news", {"ticker": "600519.SS"})]


class HostileAkshare:
    """akshare's functions, each answering its template's frame with seeded damage."""

    def __init__(self, rng: random.Random, rate: float, whole_frames: bool = True):
        self.rng, self.rate, self.whole_frames = rng, rate, whole_frames     # whole_frames: damage them too

    def __getattr__(self, name: str):
        if name not in TEMPLATES:
            raise AttributeError(name)
        return lambda **kwargs: self._frame(name)

    def _cell(self):
        return self.rng.choice(PANDAS_LEAVES) if self.rng.random() < 0.3 else leaf(self.rng)

    def _frame(self, name: str):
        good, count = TEMPLATES[name]
        rows = []
        for i in range(count):
            row = dict(good)
            if name == "stock_zh_a_hist_tx":
                row["date"] = BAR_DAYS[i]
            rows.append({k: self._cell() if self.rng.random() < self.rate else v for k, v in row.items()})
        frame = pd.DataFrame(rows, columns=list(good))
        roll = self.rng.random() if self.whole_frames else 1.0
        if roll < 0.03:
            return frame.iloc[0:0]                                      # empty
        if roll < 0.06:
            return frame.drop(columns=[self.rng.choice(list(good))])    # a column gone
        if roll < 0.09:
            column = self.rng.choice(list(good))                        # a column twice
            return pd.concat([frame, frame[[column]]], axis=1)
        if roll < 0.1:
            return self.rng.choice([None, [], "页面已改版"])
        return frame


@pytest.fixture(autouse=True)
def _instant_backoff(no_waiting):
    """Retries here never sleep."""


@pytest.mark.parametrize("seed", range(8))
def test_no_damaged_frame_crashes_hangs_or_leaks_markup(seed):
    rng = random.Random(seed)
    outcomes = []
    for _ in range(6):
        ashares = AShares(ak=HostileAkshare(rng, rate=rng.choice([0.05, 0.2, 0.5])), clock=lambda: NOW,
                          timeout_s=20.0)
        for source, args in CALLS:
            outcomes.append(settled(partial(ashares.fetch, source, args), source, site=(__file__,)))
    assert "evidence" in outcomes, "no trial came through: the damage is too heavy to test anything"


def test_undamaged_frames_give_evidence_for_every_source():
    """The templates are good enough to reach every builder's end (else the fuzz tests little)."""
    ashares = AShares(ak=HostileAkshare(random.Random(0), rate=0.0, whole_frames=False), clock=lambda: NOW,
                      timeout_s=5.0)
    for source, args in CALLS:
        assert settled(partial(ashares.fetch, source, args), source) == "evidence", source


def test_a_huge_cell_is_read_no_further_than_its_limit():
    """A 32 MB title of openings that never close: the builder reads its start, the sanitiser
    strips it in linear time, and neither copies the whole."""
    good, _ = TEMPLATES["stock_zh_a_disclosure_report_cninfo"]
    # Python strings, as akshare's frames hold them (an Arrow column would make one on reading).
    frame = pd.DataFrame([{**good, "公告标题": "<script>" * 4_000_000 + "贵州茅台"}], dtype=object)

    class OneFrame:
        def stock_zh_a_disclosure_report_cninfo(self, **kwargs):
            return frame

    ashares = AShares(ak=OneFrame(), clock=lambda: NOW, timeout_s=5.0)
    tracemalloc.start()
    try:
        started = time.monotonic()
        outcome = settled(partial(ashares.fetch, "cn_announcements", {"ticker": "600519.SS"}), "cn_announcements")
        spent = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert outcome == "evidence"          # inert: its title, all markup, stripped to nothing
    assert spent < 2.0 and peak < 4 * 2**20, f"{spent:.1f} s, {peak / 2**20:.0f} MB"


# -- the sites themselves, through the real akshare -------------------------------------------

@pytest.fixture
def sites(monkeypatch) -> china_sites.ChinaSites:
    return china_sites.install(monkeypatch)


def test_markup_in_an_announcement_title_is_inert(sites):
    sites.announcements["announcements"][0]["announcementTitle"] = (
        "<script>alert(1)</script><em>贵州茅台</em><img src=x onerror=alert(2)>2024年第三季度报告"
        "<a href='https://evil.test'>点击</a>&lt;iframe src=//evil.test&gt;")
    items = AShares(clock=lambda: NOW, timeout_s=5.0).fetch("cn_announcements", {"ticker": "600519.SS"})
    evidence, _ = sanitise(items, "cn_announcements", CATALOGUE["cn_announcements"].kind)
    assert evidence[0].title == "贵州茅台 2024年第三季度报告 点击"


@pytest.mark.parametrize("seed", range(6))
def test_damaged_announcements_and_news_through_akshare(sites, seed):
    rng = random.Random(seed)
    announcements, news = sites.announcements, sites.news
    prefix, body = news.split("(", 1)
    outcomes = []
    for _ in range(4):
        rate = rng.choice([0.02, 0.05, 0.1])
        sites.announcements = mutate(rng, announcements, rate)
        sites.news = f"{prefix}({json.dumps(mutate(rng, json.loads(body[:-1]), rate))})"
        ashares = AShares(clock=lambda: NOW, timeout_s=10.0)
        for source in ("cn_announcements", "cn_stock_news"):
            outcomes.append(settled(partial(ashares.fetch, source, {"ticker": "600519.SS"}), source))
    assert "evidence" in outcomes
