"""Where finished runs and conversations are kept: files (the default) or Redis.

`open_store(settings)` picks the backend: Redis when `FINSEARCH_REDIS_URL` is set (replicas
then share one history), else files under the data directory. Both follow `RunStore`
(`store.runs`); the source cache makes the same choice in `sources.setup.source_cache`.
"""

from __future__ import annotations

from ..settings import Settings
from .run_files import FileRunStore
from .runs import RunStore, RunSummary, valid_id

__all__ = ["FileRunStore", "RunStore", "RunSummary", "open_store", "valid_id"]


def open_store(settings: Settings) -> RunStore:
    """The run store these settings name. Opening never contacts Redis; the first call does."""
    if settings.redis_url:
        from .run_redis import RedisRunStore  # imports the redis client only when it is used

        return RedisRunStore(settings.redis_url)
    return FileRunStore(settings.data_dir)
