"""The operator's price table: USD per million input and output tokens, per model (`FINSEARCH_MODEL_PRICES`).

No prices ship with FinSearch: a vendor's price changes and cannot be checked offline, and a wrong
cost is worse than none. A model without a price is shown by its tokens alone.

    parse_prices('{"gpt-4o-mini": {"input": 0.15, "output": 0.6}}') → (ModelPrice(…),)
    parse_prices("/etc/finsearch/prices.json")                       → the same, read from that file
    price_for(prices, "openai/gpt-4o-mini") → the "gpt-4o-mini" price (exact name first, then the
                                              name after a provider's "…/" prefix)
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

from ..errors import ConfigError

SETTING = "FINSEARCH_MODEL_PRICES"
EXAMPLE = '{"gpt-4o-mini": {"input": 0.15, "output": 0.60}}'
MAX_FILE_BYTES = 1_000_000


@dataclasses.dataclass(frozen=True)
class ModelPrice:
    model: str
    input_per_million: float           # USD per million prompt tokens
    output_per_million: float          # USD per million completion tokens

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """USD for these tokens, to a millionth of a dollar."""
        return round((prompt_tokens * self.input_per_million + completion_tokens * self.output_per_million) / 1e6, 6)


def price_for(prices: tuple[ModelPrice, ...], model: str | None) -> ModelPrice | None:
    """`model`'s price: by its exact name, else by the name after a provider prefix
    ("openai/gpt-4o-mini" → "gpt-4o-mini", as routers such as OpenRouter name models); None: unpriced."""
    if not model:
        return None
    by_name = {p.model: p for p in prices}
    return by_name.get(model) or by_name.get(model.rsplit("/", 1)[-1])


def parse_prices(text: str) -> tuple[ModelPrice, ...]:
    """The table from a JSON object, or from the JSON file a path names. ConfigError (naming
    the setting and the fix) on anything else."""
    raw = text.strip()
    if not raw:
        return ()
    if not raw.startswith(("{", "[")):         # else a path to a JSON file
        raw = _read(Path(raw).expanduser())
    try:
        table = json.loads(raw)
    except (ValueError, RecursionError):
        raise ConfigError(f"{SETTING} is not valid JSON (example: {EXAMPLE})") from None
    if not isinstance(table, dict):
        raise ConfigError(f"{SETTING} must be a JSON object of model → prices (example: {EXAMPLE})")
    prices = []
    for model, price in table.items():
        name = model.strip()
        if not name or not isinstance(price, dict) or set(price) != {"input", "output"}:
            raise ConfigError(f"{SETTING}: give each model its \"input\" and \"output\" prices in USD per million "
                              f"tokens, as in {EXAMPLE} (not {_shown(model)}: {_shown(price)})")
        prices.append(ModelPrice(name, _usd(name, "input", price["input"]), _usd(name, "output", price["output"])))
    return tuple(prices)


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ConfigError(f"{SETTING}: {path} is too large for a price table")
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{SETTING} is neither a JSON object nor a readable JSON file "
                          f"({path}: {type(exc).__name__}); example: {EXAMPLE}") from None


def _usd(model: str, side: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ConfigError(f"{SETTING}: {_shown(model)}'s {side} price must be a number of US dollars per million "
                          f"tokens, 0 or more (not {_shown(value)})")
    return float(value)


def _shown(value) -> str:
    text = "".join(ch for ch in json.dumps(value, ensure_ascii=False) if ch.isprintable())
    return text[:60] + ("…" if len(text) > 60 else "")
