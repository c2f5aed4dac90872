"""An A-share's news stories, through akshare's `stock_news_em` (Eastmoney's news search).

    cn_stock_news     ak.stock_news_em(symbol)      Eastmoney, 个股新闻 (titles, times, links, outlets)

The one Eastmoney function the China-market sources use, and why: akshare 1.19.5 has no other
per-stock news. Its cninfo, 10jqka, Sina, Futu and 财联社 news functions are market-wide
feeds of the last few dozen flashes (`stock_info_global_*`), in which one company is rarely
named, and Caixin's (`stock_news_main_cx`) is the same. Eastmoney bans clients of its
endpoints (akshare issues #6650, #7004, #7099), so the planner asks this next to Yahoo's news,
never instead of it, and a ban is Refused (HTTP 403) or Unreachable (a page that is not the
JSON akshare reads), never "no news". Eastmoney is its own upstream, one call at a time.
"""

from __future__ import annotations

from datetime import date

from ...errors import NoData
from .adapter import EASTMONEY, Request
from .builders import clean_text, records, require_columns, shanghai_time

NEWS_COLUMNS = ("新闻标题", "发布时间", "文章来源", "新闻链接")
MAX_STORIES = 20


def stock_news(req: Request) -> list[dict]:
    try:
        frame = req.ak.stock_news_em(symbol=req.code)
    except KeyError as exc:
        # akshare adds the link from each story's "code": a search that found no story leaves an
        # empty frame without that column, and indexing it is this KeyError.
        if exc.args == ("code",):
            raise NoData(f"{EASTMONEY.name} has no news stories for {req.ticker}") from exc
        raise
    require_columns(frame, NEWS_COLUMNS, EASTMONEY)
    start, end = (date.fromisoformat(req.args[k]) if req.args.get(k) else None for k in ("start", "end"))
    items = []
    for row in records(frame):
        title, link = clean_text(row["新闻标题"], 300), clean_text(row["新闻链接"], 2000)
        published = shanghai_time(row["发布时间"])
        if not title or not link.startswith(("http://", "https://")):
            continue
        day = date.fromisoformat(clean_text(row["发布时间"], 10)) if published else None
        if day and ((start and day < start) or (end and day > end)):
            continue
        items.append({"title": title, "url": link,
                      "publisher": clean_text(row["文章来源"], 60) or "东方财富 Eastmoney",
                      "published": published, "snippet": clean_text(row.get("新闻内容"), 400) or title,
                      "data": None})
    if not items:
        period = f" between {start or '…'} and {end or '…'}" if start or end else ""
        raise NoData(f"{EASTMONEY.name} has no news stories for {req.ticker}{period}")
    items.sort(key=lambda i: i["published"] or "", reverse=True)
    return items[:MAX_STORIES]
