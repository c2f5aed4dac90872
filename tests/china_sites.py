"""The China-market sites behind akshare, served at urllib3's connection pool.

Only `requests.adapters.HTTPAdapter.get_connection_with_tls_context` is patched: it hands
requests a pool whose `urlopen` answers from `tests/fixtures/china/` (see PROVENANCE.md
there) as a urllib3 `HTTPResponse`. Everything above it — requests' sessions, its
exception mapping, akshare's parsers, our `akshare_wire` watch and the adapter — runs as
in production. On demand a host fails the way sites and the network do: HTTP 403 (a ban),
429, 500, a 200 page that is no longer the one akshare reads ("changed"), an empty body,
a read timeout or a reset connection. Every request is logged with the timeout it was sent with.

Eastmoney's news search, which akshare asks through curl_cffi rather than requests, is served
the same way one level under curl_cffi's `Session.request` (`Session._request_once`, where the
request leaves for libcurl): the answer is a real `curl_cffi.requests.Response`, and a timeout or
reset is the exception curl_cffi raises for it.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlsplit

import curl_cffi.requests
import curl_cffi.requests.exceptions as curl_errors
import requests.adapters
from curl_cffi.requests.headers import Headers
from urllib3.exceptions import ProtocolError, ReadTimeoutError
from urllib3.response import HTTPResponse

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "china"
Fault = Literal["403", "429", "500", "changed", "empty", "timeout", "reset"]
BAN_PAGE = "<html><head><title>403 Forbidden</title></head><body><h1>403 Forbidden</h1></body></html>"
CHANGED_PAGE = "<html><body><div class='new-layout'>页面已改版</div></body></html>"
STATUS_TEXT = {200: "OK", 403: "Forbidden", 429: "Too Many Requests", 500: "Internal Server Error"}


@dataclasses.dataclass(frozen=True)
class Sent:
    method: str
    url: str
    body: str
    timeout: float | None


class ChinaSites:
    """cninfo, Sina, 10jqka and Eastmoney as akshare 1.19.5 reads them. `fail(fault, host=…)`."""

    def __init__(self):
        self.sent: list[Sent] = []
        self._faults: dict[str, tuple[Fault, int | None]] = {}
        self.announcements = json.loads((FIXTURES / "cninfo_query_600519.json").read_text())
        self.worth = (FIXTURES / "ths_worth_600519.html").read_bytes()      # a test may swap in another page
        self.news = (FIXTURES / "eastmoney_news_600519.jsonp").read_text("utf-8")

    def fail(self, fault: Fault, host: str, times: int | None = None) -> ChinaSites:
        """`host` ("cninfo", "sina", "10jqka", "eastmoney") answers with `fault`, `times` times or for good."""
        self._faults[host] = (fault, times)
        return self

    def count(self, host: str) -> int:
        return sum(1 for s in self.sent if host in (urlsplit(s.url).hostname or ""))

    # -- the pool requests talks to -----------------------------------------------------
    def connection(self, adapter, request, verify, proxies=None, cert=None):
        return _Pool(self, request.url)

    def answer(self, method: str, url: str, body, timeout) -> HTTPResponse:
        """One request, `url` in full (urllib3 is handed only its path)."""
        text = body.decode() if isinstance(body, bytes) else (body or "")
        read = getattr(timeout, "read_timeout", None)
        self.sent.append(Sent(method, url, text, read))
        host = urlsplit(url).hostname or ""
        fault = self._fault_for(host)
        if fault == "timeout":
            raise ReadTimeoutError(None, url, f"Read timed out. (read timeout={read})")
        if fault == "reset":
            raise ProtocolError("Connection aborted.", ConnectionResetError(104, "Connection reset by peer"))
        if fault in ("403", "429", "500"):
            return _response(int(fault), BAN_PAGE.encode(), "text/html")
        if fault == "changed":
            return _response(200, CHANGED_PAGE.encode("utf-8"), "text/html; charset=utf-8")
        if fault == "empty":
            return _response(200, b"", "text/html")
        return self._recorded(host, urlsplit(url).path, {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()})

    def curl_answer(self, method: str, url: str, params, timeout) -> curl_cffi.requests.Response:
        """One curl_cffi request: the same site, the same faults, as curl_cffi reports them."""
        full = url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")
        try:
            answer = self.answer(method, full, b"", _CurlTimeout(timeout))
        except ReadTimeoutError as exc:
            raise curl_errors.Timeout(f"Failed to perform, curl: (28) {exc}", 28) from None
        except ProtocolError as exc:
            raise curl_errors.ConnectionError(f"Failed to perform, curl: (56) {exc}", 56) from None
        response = curl_cffi.requests.Response()
        response.url, response.status_code = url, answer.status
        response.reason, response.ok = answer.reason, answer.status < 400
        response.headers = Headers(dict(answer.headers))
        response.content = answer.read()
        return response

    def _fault_for(self, host: str) -> Fault | None:
        for name, (fault, left) in self._faults.items():
            if name in host and left != 0:
                self._faults[name] = (fault, None if left is None else left - 1)
                return fault
        return None

    def _recorded(self, host: str, path: str, query: dict[str, str]) -> HTTPResponse:
        if path.endswith("/new/data/szse_stock.json"):
            return _response(200, (FIXTURES / "cninfo_szse_stock.json").read_bytes(), "application/json")
        if path.endswith("/new/hisAnnouncement/query"):
            return _response(200, json.dumps(self.announcements, ensure_ascii=False).encode(),
                             "application/json;charset=UTF-8")
        if host == "webapi.cninfo.com.cn" and path == "/api/sysapi/p_sysapi1133":        # count 0: no profile
            name = "profile_600519" if query.get("scode") == "600519" else "industry_pe_empty"
            return _response(200, (FIXTURES / f"cninfo_{name}.json").read_bytes(), "application/json")
        if host == "webapi.cninfo.com.cn" and path == "/api/sysapi/p_sysapi1087":
            # cninfo publishes the table for a trading day in the evening: only 2024-11-14's is there.
            name = "20241114" if query.get("tdate") == "2024-11-14" and query.get("sortcode") == "008001" else "empty"
            return _response(200, (FIXTURES / f"cninfo_industry_pe_{name}.json").read_bytes(), "application/json")
        if host == "gushitong.baidu.com" and path == "/opendata" and query.get("code") == "600519":
            indicator = {"市盈率(静)": "pe_static", "市盈率(TTM)": "pe_ttm", "市净率": "pb"}.get(query.get("query", ""))
            if indicator and query.get("chart_select") == "近一年":
                return _response(200, (FIXTURES / f"baidu_valuation_600519_{indicator}.json").read_bytes(),
                                 "application/json;charset=utf-8")
        if host == "web.ifzq.gtimg.cn" and path == "/other/klineweb/klineWeb/weekTrends" \
                and query.get("code") == "sh600519":
            return _response(200, (FIXTURES / "tencent_week_trends_600519.js").read_bytes(), "text/html")
        if host == "proxy.finance.qq.com" and path == "/ifzqgtimg/appstock/app/newfqkline/get" \
                and query.get("param") == "sh600519,day,2024-01-01,2025-12-31,640,":
            return _response(200, (FIXTURES / "tencent_kline_day_600519_2024.js").read_bytes(), "text/html")
        if host == "search-api-web.eastmoney.com" and path == "/search/jsonp":
            return _response(200, self.news.encode("utf-8"),
                             "application/javascript; charset=UTF-8")
        if "vCI_StockHolder/stockid/600519" in path:
            return _response(200, (FIXTURES / "sina_stockholder_600519.html").read_bytes(),
                             "text/html; charset=gb2312")
        if path == "/new/600519/worth.html":
            return _response(200, self.worth, "text/html")
        if path == "/new/600519/finance.html":
            return _response(200, (FIXTURES / "ths_finance_600519.html").read_bytes(), "text/html; charset=utf-8")
        if path == "/new/600519/bonus.html":
            return _response(200, (FIXTURES / "ths_bonus_600519.html").read_bytes(), "text/html")
        if path == "/176/HK0700/bonus.html":
            return _response(200, (FIXTURES / "ths_hk_bonus_0700.html").read_bytes(), "text/html")
        if path == "/new/600519/operate.html":
            return _response(200, (FIXTURES / "ths_operate_600519.html").read_bytes(), "text/html")
        return _response(404, b"<html><body>404 Not Found</body></html>", "text/html")


class _Pool:
    """What `HTTPAdapter.send` needs of a urllib3 connection pool."""

    def __init__(self, sites: ChinaSites, url: str):
        self.sites, self.url = sites, url

    def urlopen(self, method, url, body=None, headers=None, timeout=None, **kwargs):
        return self.sites.answer(method, self.url, body, timeout)


@dataclasses.dataclass(frozen=True)
class _CurlTimeout:
    """curl_cffi's timeout (seconds) where `answer` reads urllib3's `read_timeout`."""
    read_timeout: float | None


def _response(status: int, body: bytes, content_type: str) -> HTTPResponse:
    return HTTPResponse(body=io.BytesIO(body), headers={"Content-Type": content_type,
                                                       "Content-Length": str(len(body))},
                        status=status, reason=STATUS_TEXT.get(status, ""), preload_content=False,
                        decode_content=False)


def install(monkeypatch) -> ChinaSites:
    sites = ChinaSites()
    monkeypatch.setattr(requests.adapters.HTTPAdapter, "get_connection_with_tls_context",
                        lambda adapter, request, verify, proxies=None, cert=None:
                        sites.connection(adapter, request, verify, proxies, cert))
    monkeypatch.setattr(curl_cffi.requests.Session, "_request_once",
                        lambda session, method, url, params=None, timeout=None, **kwargs:
                        sites.curl_answer(method, url, params, timeout))
    return sites
