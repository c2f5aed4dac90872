"""Fixtures that run one test against both backends: files (the default) and a real Redis."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from pathlib import Path

from finsearch import pipeline
from finsearch.research.result import Report
from finsearch.research.run import report
from finsearch.result import RunResult
from finsearch.settings import Settings, from_env
from finsearch.sources.hub import DataHub
from tests.conftest import DEMO_PACK, NOW
from tests.redis_kit import RedisServer, running_redis
from tests.test_research import NOW as REPORT_NOW
from tests.test_research import NVIDIA, PACK

BACKENDS = ("files", "redis")


@dataclasses.dataclass
class Backend:
    """One backend under test: its name, the settings that choose it, and its server (Redis)."""
    name: str
    settings: Settings
    server: RedisServer | None = None


def backend_for(name: str, folder: Path) -> Iterator[Backend]:
    """The `backend` fixture's body (conftest.py): settings that choose the files or the Redis
    backend, with a fresh redis-server for Redis."""
    base = from_env({}, cache_dir=folder / "cache", data_dir=folder / "data", llm="heuristic", now=NOW,
                    node_timeout_s=5.0)
    if name == "files":
        yield Backend("files", base)
        return
    for server in running_redis(folder / "redis"):
        yield Backend("redis", base.replace(redis_url=server.url), server)


@functools.lru_cache(maxsize=4)
def _answered(question: str) -> RunResult:
    settings = from_env({}, pack=DEMO_PACK, offline=True, llm="heuristic", now=NOW, node_timeout_s=5.0)
    return pipeline.ask(question, settings=settings, hub=DataHub(settings))    # the pack alone, no cache


def sample_run(run_id: str, question: str = "How did NVDA do last week?") -> RunResult:
    """A real finished run on the demo pack (computed once per question), under `run_id`."""
    return dataclasses.replace(_answered(question), run_id=run_id)


@functools.lru_cache(maxsize=1)
def _reported() -> Report:
    settings = from_env({}, pack=PACK, offline=True, llm="heuristic", now=REPORT_NOW, node_timeout_s=5.0)
    return report(NVIDIA, settings=settings, now=REPORT_NOW, hub=DataHub(settings))    # the pack alone, no cache


def sample_report(report_id: str) -> Report:
    """A real finished report on the report pack (computed once), under `report_id`."""
    return dataclasses.replace(_reported(), report_id=report_id)
