"""The rival an instrument is most often compared with: NVIDIA with AMD, Coca-Cola with PepsiCo,
贵州茅台 with 五粮液, gold with silver.

One rival each, chosen by hand from what investors put side by side (the same business, the same
market), for the follow-up a finished answer suggests ("Compare NVIDIA with AMD"). An instrument
not listed has no suggested rival. Every ticker here is one the alias table knows, so the
suggestion can name it in words the question reader reads back (tests/test_suggested_follow_ups.py).
"""

from __future__ import annotations

RIVALS: dict[str, str] = {
    # US technology
    "NVDA": "AMD", "AMD": "NVDA", "INTC": "AMD", "AVGO": "NVDA", "QCOM": "AVGO", "TSM": "INTC",
    "AMAT": "LRCX", "LRCX": "AMAT", "ASML": "AMAT", "MU": "WDC", "SMCI": "DELL", "DELL": "HPQ",
    "AAPL": "MSFT", "MSFT": "AAPL", "GOOGL": "META", "GOOG": "META", "META": "GOOGL", "ORCL": "MSFT",
    "CRM": "NOW", "NOW": "CRM", "ADBE": "CRM", "CRWD": "PANW", "PANW": "CRWD", "NFLX": "DIS", "DIS": "NFLX",
    "UBER": "LYFT", "LYFT": "UBER", "ABNB": "BKNG", "BKNG": "ABNB", "COIN": "HOOD", "HOOD": "COIN",
    # US consumer, industry, energy, health, finance
    "AMZN": "WMT", "WMT": "COST", "COST": "WMT", "HD": "LOW", "LOW": "HD", "KO": "PEP", "PEP": "KO",
    "MCD": "YUM", "TSLA": "002594.SZ", "RIVN": "LCID", "LCID": "RIVN", "GM": "F", "F": "GM",
    "BA": "AIR.PA", "CAT": "DE", "DE": "CAT", "UPS": "FDX", "FDX": "UPS", "T": "VZ", "VZ": "T", "TMUS": "VZ",
    "XOM": "CVX", "CVX": "XOM", "SHEL": "BP", "BP": "SHEL", "LLY": "NVO", "NVO": "LLY", "PFE": "MRK",
    "MRK": "PFE", "UNH": "ELV", "JPM": "BAC", "BAC": "JPM", "WFC": "BAC", "C": "JPM", "GS": "MS", "MS": "GS",
    "V": "MA", "MA": "V",
    # China and Hong Kong
    "BABA": "JD", "JD": "BABA", "PDD": "BABA", "NIO": "XPEV", "XPEV": "LI", "LI": "NIO",
    "0700.HK": "3690.HK", "3690.HK": "0700.HK", "9988.HK": "0700.HK", "600519.SS": "000858.SZ",
    "000858.SZ": "600519.SS", "000568.SZ": "000858.SZ", "600809.SS": "600519.SS", "002594.SZ": "TSLA",
    "300750.SZ": "002594.SZ",
    "601318.SS": "601628.SS", "601628.SS": "601318.SS", "600036.SS": "601166.SS", "601398.SS": "601939.SS",
    "601939.SS": "601398.SS", "601857.SS": "600028.SS", "600028.SS": "601857.SS", "000333.SZ": "000651.SZ",
    "000651.SZ": "000333.SZ",
    # Indices, crypto, commodities
    "^GSPC": "^IXIC", "^IXIC": "^GSPC", "^DJI": "^GSPC", "BTC-USD": "ETH-USD", "ETH-USD": "BTC-USD",
    "GC=F": "SI=F", "SI=F": "GC=F", "CL=F": "BZ=F", "BZ=F": "CL=F",
}


def rival_of(ticker: str | None) -> str | None:
    """The ticker `ticker` is most often compared with, or None when we know none."""
    return RIVALS.get(ticker) if ticker else None
