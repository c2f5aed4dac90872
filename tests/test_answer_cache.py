"""The same question asked again while its evidence is what it was costs no model call: the answer is
given again from the answer cache, marked as cached with the time it was written (issue 35 §3).

The real pipeline on a copy of the answer test pack (invented AMD prices, stories and targets), or
on a fake source behind the real source cache where freshness matters; the model is the scripted
loopback server, whose request log says whether it was asked."""

import json
import os
import shutil
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import diskcache
import pytest

from finsearch import pipeline
from finsearch.catalogue import CATALOGUE
from finsearch.model.loopback import Reply
from finsearch.plan.interpretation import Corrections
from finsearch.sources.cache.disk import ANSWER_PREFIX, SourceCache
from finsearch.sources.hub import DataHub
from finsearch.timecontext import TimeContext

PACK = Path(__file__).parent / "fixtures" / "answer_pack"
NOW = datetime(2024, 11, 15, 21, 0, tzinfo=timezone.utc)
QUESTION = "Why did AMD stock drop last week?"
ANSWER = "AMD fell over the week [1]. The stories of the day explain it [2]."


@pytest.fixture
def pack(tmp_path) -> Path:
    return Path(shutil.copytree(PACK, tmp_path / "pack"))


@pytest.fixture
def model_settings(settings, fake_llm, pack):
    fake_llm.on("rewrite", Reply(content=json.dumps({"args": {}})))
    fake_llm.on("answer", Reply(content=ANSWER))
    return settings.replace(pack=pack, offline=True, now=NOW, llm="openai", base_url=fake_llm.base_url,
                            api_key="test-key", model="fake-model", llm_timeout_s=5.0)


def ask(settings, question=QUESTION, **kwargs):
    started = time.perf_counter()
    result = pipeline.ask(question, settings=settings, **kwargs)
    return result, time.perf_counter() - started


@pytest.mark.parametrize("question, note", [
    (QUESTION, "A cached answer, first written at "),
    ("AMD上周为什么下跌？", "这是缓存的回答，最初写于 "),
])
def test_the_same_question_again_makes_no_model_call_and_says_it_is_cached_and_when(model_settings, fake_llm,
                                                                                    question, note):
    before = datetime.now(timezone.utc)
    first, _ = ask(model_settings, question)
    after = datetime.now(timezone.utc)
    asked = len(fake_llm.requests)
    assert first.answer.writer == "llm" and first.cached_at is None and asked >= 2     # a plan and an answer
    again, seconds = ask(model_settings, question)
    assert len(fake_llm.requests) == asked, "the repeat asked the model"
    assert again.stats.llm_calls == 0 and again.usage.calls == 0 and seconds < 1.0
    assert again.run_id != first.run_id
    done = sum(1 for n in first.graph if n.status.value == "done")
    assert again.stats.source_calls == again.stats.pack_reads == done     # each search looked up in the pack
    assert again.answer.markdown == first.answer.markdown and again.answer.references == first.answer.references
    assert before - timedelta(seconds=1) <= again.cached_at <= after + timedelta(seconds=1)
    assert again.notes[0].startswith(note) and f"{again.cached_at:%Y-%m-%d %H:%M:%S}" in again.notes[0]
    shown = again.to_dict()
    assert shown["cached_at"] == f"{again.cached_at:%Y-%m-%dT%H:%M:%S}Z" and first.to_dict()["cached_at"] is None
    assert shown["audit"]["citations"]["not_retrieved"] == [] and shown["stats"]["llm_calls"] == 0


def test_changed_evidence_is_a_miss(model_settings, fake_llm, pack):
    first, _ = ask(model_settings)
    asked = len(fake_llm.requests)
    recording = next(pack.glob("news-AMD-*.json"))
    raw = json.loads(recording.read_text("utf-8"))
    raw["evidence"][0]["title"] = "AMD shares slide as a new rival chip ships"
    recording.write_text(json.dumps(raw), "utf-8")
    os.utime(pack, (time.time() + 10, time.time() + 10))     # a pack is re-read when its folder changes
    changed, _ = ask(model_settings)
    assert changed.cached_at is None and len(fake_llm.requests) > asked
    assert not any(n.startswith("A cached answer") for n in changed.notes)
    assert changed.stats.source_calls == first.stats.source_calls     # looking for a kept answer is no call
    again, _ = ask(model_settings)              # the new answer is the one kept now
    assert again.cached_at is not None and again.answer.markdown == changed.answer.markdown


def test_another_reading_is_a_miss(model_settings, fake_llm):
    ask(model_settings)
    asked = len(fake_llm.requests)
    period = TimeContext.from_dict({"start": "2024-10-28", "end": "2024-11-01", "label": "2024-10-28 to 2024-11-01"})
    corrected, _ = ask(model_settings, corrections=Corrections(period=period))
    assert corrected.cached_at is None and len(fake_llm.requests) > asked
    asked = len(fake_llm.requests)
    other, _ = ask(model_settings, "Why did AMD stock drop last week? Be brief.")
    assert other.cached_at is None and len(fake_llm.requests) > asked


def test_the_rules_answer_is_not_kept(settings, pack):
    rules = settings.replace(pack=pack, offline=True, now=NOW)
    ask(rules)
    assert ask(rules)[0].cached_at is None


def test_a_damaged_entry_is_a_miss_and_is_replaced(model_settings, fake_llm):
    ask(model_settings)
    folder = model_settings.cache_dir / "sources"
    with diskcache.Cache(str(folder)) as store:
        keys = [k for k in store if isinstance(k, str) and k.startswith(ANSWER_PREFIX)]
        assert len(keys) == 1
        store.set(keys[0], '{"version": 1, "fingerprint": "x", "calls": "not a list", "kept_at": "x", "record": {}}')
    asked = len(fake_llm.requests)
    damaged, _ = ask(model_settings)
    assert damaged.cached_at is None and damaged.answer.writer == "llm" and len(fake_llm.requests) > asked
    with diskcache.Cache(str(folder)) as store:
        store.set(keys[0], "\x00 random bytes, not JSON")
    assert ask(model_settings)[0].cached_at is None
    assert ask(model_settings)[0].cached_at is not None


class NewsWire:
    """The network boundary: every call answers, and says how many were made."""

    def __init__(self):
        self.calls = 0

    def fetch(self, source, args):
        self.calls += 1
        return [{"title": f"{source} on {args.get('ticker')}", "url": f"https://e.test/{source}/{args.get('ticker')}",
                 "published": "2024-11-08T15:00:00Z", "snippet": "AMD shares fell on the day."}]


def test_a_source_past_its_freshness_is_a_miss(settings, fake_llm, tmp_path):
    fake_llm.on("answer", Reply(content=ANSWER))
    run_settings = settings.replace(now=NOW, llm="openai", base_url=fake_llm.base_url, api_key="test-key",
                                    model="fake-model", llm_timeout_s=5.0,
                                    freshness_s={**settings.freshness_s, "news": 300.0})
    cache = SourceCache(tmp_path / "sources", run_settings.freshness_s, 10 ** 8)
    wire, clock = NewsWire(), {"now": datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)}

    def hub() -> DataHub:
        return DataHub(run_settings, adapters={s: wire for s in CATALOGUE}, cache=cache, clock=lambda: clock["now"])

    pipeline.ask(QUESTION, settings=run_settings, hub=hub())
    asked = len(fake_llm.requests)
    clock["now"] += timedelta(seconds=120)                     # within the news' 300 s
    assert pipeline.ask(QUESTION, settings=run_settings, hub=hub()).cached_at is not None
    assert len(fake_llm.requests) == asked
    clock["now"] += timedelta(seconds=600)                     # the news is stale now: asked again
    stale = pipeline.ask(QUESTION, settings=run_settings, hub=hub())
    assert stale.cached_at is None and len(fake_llm.requests) > asked


def _bounded(cache, limit: int) -> None:
    for i in range(150):
        assert cache.put_answer(f"question-{i}", json.dumps({"n": i, "text": "x" * 8000}))
    assert cache.get_answer("question-0") is None                   # the least recently used went first
    assert json.loads(cache.get_answer("question-149"))["n"] == 149
    assert cache.stats()["bytes"] <= limit


def test_kept_answers_are_bounded_on_disk(tmp_path):
    _bounded(SourceCache(tmp_path / "sources", {}, 512 * 1024), 512 * 1024)


def test_kept_answers_are_bounded_in_redis(redis_server):
    from finsearch.sources.cache.redis_store import RedisSourceCache

    _bounded(RedisSourceCache(redis_server.url, {}, 512 * 1024), 512 * 1024)
