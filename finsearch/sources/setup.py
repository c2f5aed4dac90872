"""Wiring: the data hub a run uses, from its settings.

    replay pack (FINSEARCH_PACK)  →  cache (always)  →  live adapters (unless offline)

The cache is diskcache under the cache directory, or Redis when FINSEARCH_REDIS_URL is set
(shared by replicas: one upstream call per key across all of them).

Live adapters are imported only when a run can use them, so offline runs and tests
never load yfinance, feedparser or ddgs.
"""

from __future__ import annotations

import os
import socket
import time
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..catalogue import CATALOGUE, load
from ..settings import Settings
from .cache.disk import SourceCache, open_cache
from .hub import Adapter, DataHub

if TYPE_CHECKING:
    from .cache.redis_store import RedisSourceCache

PROBE = ("query1.finance.yahoo.com", 443)
SAMPLE_NOTE = "No network: answering from the bundled sample pack — sample data, not real quotes."
_probe_memo: tuple[float, bool] | None = None


def live_adapters(settings: Settings) -> dict[str, Adapter]:
    """Each source's live adapter, as its spec names it: one per adapter class, built from
    the settings and shared by every source it serves."""
    built: dict[str, Adapter] = {}
    for spec in CATALOGUE.values():
        if spec.adapter not in built:
            built[spec.adapter] = load(spec.adapter).from_settings(settings)
    return {spec.id: built[spec.adapter] for spec in CATALOGUE.values()}


def source_cache(settings: Settings) -> SourceCache | RedisSourceCache:
    """The process's cache of source results for these settings."""
    if settings.redis_url:
        from .cache.redis_store import open_redis_cache  # the redis client only when it is used

        return open_redis_cache(settings.redis_url, settings.freshness_s, settings.cache_size_mb)
    return open_cache(settings.cache_dir / "sources", settings.freshness_s, settings.cache_size_mb)


def make_hub(settings: Settings) -> DataHub:
    adapters = {} if settings.offline else live_adapters(settings)
    return DataHub(settings, adapters=adapters, cache=source_cache(settings))


def demo_pack() -> Path:
    return Path(str(resources.files("finsearch").joinpath("demo_pack")))


def network_reachable(timeout_s: float = 1.5) -> bool:
    """Whether Yahoo Finance answers a TCP connect; remembered for a minute.
    FINSEARCH_PROBE=host:port points the probe elsewhere (tests)."""
    global _probe_memo
    if _probe_memo and time.monotonic() - _probe_memo[0] < 60:
        return _probe_memo[1]
    host, port = PROBE
    if os.environ.get("FINSEARCH_PROBE"):
        host, _, port_text = os.environ["FINSEARCH_PROBE"].rpartition(":")
        port = int(port_text)
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            reachable = True
    except OSError:
        reachable = False
    _probe_memo = (time.monotonic(), reachable)
    return reachable


def with_data_fallback(settings: Settings) -> tuple[Settings, str | None]:
    """Settings for a run, switched to the sample pack when nothing else can answer:
    no pack configured, not offline by choice, and the network is unreachable."""
    if settings.pack is not None or settings.offline or network_reachable():
        return settings, None
    pack = demo_pack()
    pinned = settings.now or _pack_now(pack)    # the sample's "today", so "last week" lines up
    note = SAMPLE_NOTE + (f" Time pinned to {pinned:%Y-%m-%d %H:%M} UTC." if pinned and not settings.now else "")
    return settings.replace(pack=pack, offline=True, now=pinned), note


def _pack_now(folder: Path):
    from ..settings import parse_now
    from .replay import open_pack

    info = open_pack(folder).info
    try:
        return parse_now(info.now) if info.now else None
    except ValueError:
        return None
