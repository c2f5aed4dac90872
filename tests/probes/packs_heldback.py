"""Writes the held-back probe packs: run only at the end of a round, never tuned against.

    python -m tests.probes.packs_heldback

    us_valuation    Costco and Walmart: trailing and forward P/Es, analysts' targets, Walmart's
                    quote three days old; Costco's analyst data has a downgrade.
    auto_tariffs    Toyota (TM) fell 6.3 % on 2025-04-03 after US auto tariffs took effect, Honda
                    (HMC) fell less; Toyota's estimate of the tariff hit is in a snippet; no earnings data.
"""

from __future__ import annotations

from tests.probes.kit import Pack, bars, finance, price_history, quote, story

WIRE, DAILY, YPACK = "Harbor Newswire", "Ticker Tape Probe", "Probe market data"
US_HOLIDAYS = ("2025-01-01", "2025-01-09", "2025-01-20", "2025-02-17", "2025-04-18", "2025-05-26", "2025-06-19",
               "2025-07-04", "2025-09-01")


def us_valuation() -> None:
    pack = Pack("us_valuation", "2025-09-26T20:30:00Z", "Costco and Walmart valuations")
    cost = bars("2025-05-01", "2025-09-26", 1010.0, {"2025-09-19": -2.9}, holidays=US_HOLIDAYS, phase=1)
    wmt = bars("2025-05-01", "2025-09-26", 97.0, {"2025-08-21": -4.5, "2025-09-24": 1.9}, holidays=US_HOLIDAYS,
               phase=8)
    price_history(pack, "COST", "Costco Wholesale Corporation", "USD", cost, YPACK)
    price_history(pack, "WMT", "Walmart Inc.", "USD", wmt, YPACK)
    quote(pack, "COST", "Costco Wholesale Corporation", "USD", cost, "2025-09-26T20:00:00Z", 4.2e11, YPACK)
    quote(pack, "WMT", "Walmart Inc.", "USD", wmt, "2025-09-23T20:00:00Z", 8.1e11, YPACK)      # three days old
    for ticker, name, trailing, forward, cap, dividend_yield, payout in (
            ("COST", "Costco Wholesale Corporation", 52.4, 46.1, 4.2e11, 0.55, 27.9),
            ("WMT", "Walmart Inc.", 38.6, 34.2, 8.1e11, 0.92, 35.4)):
        pack.record("profile", {"ticker": ticker}, [finance(ticker, f"{ticker} company profile", "2025-09-26T20:30:00Z",
                                                            YPACK, {
            "name": name, "sector": "Consumer Defensive", "industry": "Discount Stores", "employees": 333000,
            "summary": f"{name} runs membership warehouses and discount stores (invented for the probe pack).",
            "website": None, "officers": [],
            "ratios": {"trailing_pe": trailing, "forward_pe": forward, "price_to_book": 14.0, "beta": 0.8,
                       "shares_outstanding": 4.4e8, "market_cap": cap, "profit_margin": 2.9,
                       "dividend_yield": dividend_yield, "payout_ratio": payout}},
            snippet=f"{name}: Consumer Defensive / Discount Stores; trailing P/E {trailing}",
            url=f"https://finance.yahoo.com/quote/{ticker}/profile")])
    for ticker, mean, low, high, changes in (
            ("COST", 1065.0, 800.0, 1250.0, [{"date": "2025-09-26", "firm": "Evercore", "action": "downgrade",
                                               "from": "Outperform", "to": "In Line"}]),
            ("WMT", 112.0, 90.0, 130.0, [])):
        pack.record("analyst", {"ticker": ticker}, [finance(ticker, f"{ticker} analyst ratings and price targets",
                                                            "2025-09-26T20:30:00Z", YPACK, {
            "currency": "USD", "targets": {"low": low, "mean": mean, "median": mean, "high": high, "current": None},
            "recommendations": {"strong_buy": 9, "buy": 20, "hold": 10, "sell": 1, "strong_sell": 0},
            "changes": changes},
            snippet=f"{ticker}: mean target {mean} USD (low {low}, high {high})")])
    pack.record("news", {"ticker": "COST", "query": "Costco stock", "lang": "en"}, [
        story("Costco's premium valuation tested as membership growth slows", "2025-09-22T13:00:00Z", WIRE,
              "Costco trades at roughly 46 times forward earnings, more than any other large US retailer.", "cost-val"),
        story("Costco fiscal fourth-quarter sales rise 8%", "2025-09-25T21:00:00Z", DAILY,
              "Net sales rose to $84.4 billion; comparable sales excluding fuel grew 6.4%.", "cost-q4")])
    pack.record("news", {"ticker": "WMT", "query": "Walmart stock", "lang": "en"}, [
        story("Walmart shares slip as profit outlook disappoints", "2025-08-21T20:00:00Z", WIRE,
              "Walmart kept its full-year earnings forecast of $2.52 to $2.62 a share.", "wmt-outlook")])


def auto_tariffs() -> None:
    pack = Pack("auto_tariffs", "2025-04-08T20:30:00Z", "Toyota and Honda after US auto tariffs")
    tm = bars("2025-01-02", "2025-04-08", 182.0, {"2025-04-03": -6.3, "2025-04-04": -3.4, "2025-03-27": -2.6},
              holidays=US_HOLIDAYS, phase=2)
    hmc = bars("2025-01-02", "2025-04-08", 27.5, {"2025-04-03": -3.1, "2025-04-04": -2.2}, holidays=US_HOLIDAYS,
               phase=6)
    price_history(pack, "TM", "Toyota Motor Corporation", "USD", tm, YPACK)
    price_history(pack, "HMC", "Honda Motor Co., Ltd.", "USD", hmc, YPACK)
    quote(pack, "TM", "Toyota Motor Corporation", "USD", tm, "2025-04-08T20:00:00Z", 2.3e11, YPACK)
    quote(pack, "HMC", "Honda Motor Co., Ltd.", "USD", hmc, "2025-04-08T20:00:00Z", 4.1e10, YPACK)
    pack.record("analyst", {"ticker": "TM"}, [finance("TM", "TM analyst ratings and price targets",
                                                      "2025-04-08T20:30:00Z", YPACK, {
        "currency": "USD", "targets": {"low": 160.0, "mean": 212.0, "median": 210.0, "high": 260.0, "current": None},
        "recommendations": {"strong_buy": 2, "buy": 4, "hold": 3, "sell": 0, "strong_sell": 0}, "changes": []},
        snippet="TM: mean target 212.0 USD (low 160.0, high 260.0)")])
    pack.record("news", {"ticker": "TM", "query": "Toyota Motor stock", "lang": "en"}, [
        story("Automakers brace for 25% US tariff on imported cars", "2025-03-27T12:00:00Z", WIRE,
              "The tariff on imported vehicles takes effect on April 3.", "auto-tariff"),
        story("Japanese carmakers sink as US import tariffs kick in", "2025-04-03T20:30:00Z", DAILY,
              "Toyota's US-listed shares lost 6.3% on Thursday, the first day the 25% levy on imported cars "
              "applied, while Honda shed 3.1%.", "jp-autos"),
        story("Toyota says it will keep US prices unchanged for now", "2025-04-04T09:00:00Z", WIRE,
              "Toyota said it would absorb the tariff cost through May and estimated the hit at about ¥180 billion "
              "for April and May.", "tm-prices"),
        story("Toyota unveils new electric SUV for Europe", "2025-03-11T10:00:00Z", WIRE,
              "The model goes on sale in the autumn.", "tm-ev")])
    pack.record("web_search", {"ticker": "TM", "query": "why did Toyota stock fall", "lang": "en"}, [
        story("Why Toyota stock dropped this week", "2025-04-04T18:00:00Z", "probe-autos.example",
              "Tariffs on imported cars are expected to cut Japanese automakers' US profits.", "web-tm")])
    pack.record("news", {"ticker": "HMC", "query": "Honda Motor stock", "lang": "en"}, [
        story("Honda to shift more production to the US to limit tariff costs", "2025-04-07T05:00:00Z", WIRE,
              "Honda builds about two-thirds of the cars it sells in the US locally.", "hmc-shift")])


def main() -> None:
    for write in (us_valuation, auto_tariffs):
        write()


if __name__ == "__main__":
    main()
