"""The bundled lists of listed companies: A-share codes with their short names, and the companies
of the major US, European and Japanese indices with their home listing (`data/listed_codes.json`,
`data/listed_names.json`, written by scripts/make_listed_data.py from adata's and pytickersymbols'
own data; each file's "about" names its source and licence).

They name what the alias table does not: the company behind an arbitrary code ("601012" is
隆基绿能) and the listing behind a legal name the table lacks ("Banco Santander SA" is SAN.MC).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources


def a_share_name(code: str) -> str | None:
    """The short name of the A-share with this six-digit code ("600036" → "招商银行"), or None."""
    return a_share_names().get(code)


@lru_cache(maxsize=1)
def a_share_names() -> dict[str, str]:
    """Code → short name, every A-share (Shanghai, Shenzhen, Beijing) the list holds."""
    return _load("listed_codes.json")["a_shares"]


@lru_cache(maxsize=1)
def index_companies() -> dict[str, str]:
    """Company name as the list writes it ("Banco Santander", "Nestlé SA") → Yahoo symbol."""
    return _load("listed_names.json")["companies"]


def _load(file: str) -> dict:
    return json.loads(resources.files("finsearch").joinpath(f"data/{file}").read_text("utf-8"))
