"""The HKEXnews builders: a Hong Kong stock's announcements and other filings of a period, newest first.

    hk_announcements  /search/titleSearchServlet.do → the newest documents the stock filed in the
                      period (title, link, release time, document type), English or Chinese titles

The period is the question's, in Hong Kong days; without one, the last year's (the search is
newest first, so "the latest announcement" is the first row whatever the company's pace). Routine
returns a company files by the dozen (a Next Day Disclosure Return after each day of buybacks, the
Monthly Return) are kept, but only the newest few, so that they never crowd out what it announced.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from ...errors import NoData
from .adapter import SEARCH_PATH, Request
from .wire import HKEXNEWS, HONG_KONG, Filing, search_page

DEFAULT_DAYS = 365
MAX_DAYS = 3 * 366            # the title search answers long periods, but an answer wants recent ones
ROWS = 100                    # asked for: the newest hundred of the period
MAX_FILINGS = 20
MAX_ROUTINE = 5
# Document types (LONG_TEXT) that are routine returns, in English and in Chinese.
ROUTINE = ("Next Day Disclosure Returns", "Monthly Returns", "翌日披露報表", "月報表")
PUBLISHER = "HKEXnews 披露易"


def announcements(req: Request) -> list[dict]:
    today = req.now.astimezone(HONG_KONG).date()
    end = min(date.fromisoformat(req.args["end"]), today) if req.args.get("end") else today
    start = date.fromisoformat(req.args["start"]) if req.args.get("start") else end - timedelta(days=DEFAULT_DAYS)
    start = min(max(start, end - timedelta(days=MAX_DAYS)), end)
    chinese = req.args.get("lang") == "zh"
    page = search_page(req.get(SEARCH_PATH, {
        "sortDir": "0", "sortByOptions": "DateTime", "category": "0", "market": "SEHK",
        "stockId": req.stock.stock_id, "documentType": "-1",
        "fromDate": start.strftime("%Y%m%d"), "toDate": end.strftime("%Y%m%d"),
        "title": "", "searchType": "0", "t1code": "-2", "t2Gcode": "-2", "t2code": "-2",
        "rowRange": str(ROWS), "lang": "ZH" if chinese else "E"}))
    kept = _kept([f for f in page.filings if _released_within(f, start, end)])
    if not kept:
        raise NoData(f"{HKEXNEWS.name} lists no filings for {req.ticker} ({req.stock.code}) "
                     f"between {start} and {end}")
    return [_item(req, filing, page.total) for filing in kept]


def _released_within(filing: Filing, start: date, end: date) -> bool:
    """Whether the filing was released on a Hong Kong day of the period (the site filters by it too;
    a row outside it, or undated, is not the period's)."""
    if filing.released is None:
        return False
    day = datetime.fromisoformat(filing.released.replace("Z", "+00:00")).astimezone(HONG_KONG).date()
    return start <= day <= end


def _kept(filings: list[Filing]) -> list[Filing]:
    """The newest MAX_FILINGS, of which at most MAX_ROUTINE routine returns; one per document."""
    ordered = sorted(dict((f.url, f) for f in reversed(filings)).values(),
                     key=lambda f: f.released or "", reverse=True)
    routine = [f for f in ordered if f.document_type.startswith(ROUTINE)][:MAX_ROUTINE]
    return [f for f in ordered if not f.document_type.startswith(ROUTINE) or f in routine][:MAX_FILINGS]


def _item(req: Request, filing: Filing, total: int | None) -> dict:
    name = filing.names[0] if filing.names else req.stock.name
    what = f"{filing.document_type}: " if filing.document_type else ""
    return {
        "title": filing.title, "url": filing.url, "publisher": PUBLISHER, "published": filing.released,
        "snippet": f"{name} ({req.stock.code}) {what}{filing.title}",
        "data": {"ticker": req.ticker, "stock_code": req.stock.code, "document_type": filing.document_type or None,
                 "file_type": filing.file_type or None, "file_size": filing.file_size or None,
                 "news_id": filing.news_id or None, "matched": total},
    }
