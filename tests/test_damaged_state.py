"""Damaged state on disk never breaks a run or a page: a corrupt or truncated cache is
moved aside and replaced (and said once), a cache folder that cannot hold a cache leaves
the cache off, a data folder that cannot be written keeps the answer on the page with a
warning and no dead share link. Real diskcache/sqlite files, damaged the way disks and
people damage them."""

from __future__ import annotations

import os

import diskcache
import pytest
from streamlit.testing.v1 import AppTest

from finsearch import pipeline
from finsearch.sources.cache import disk as cache_module
from tests.app_kit import settle, text_of
from tests.conftest import ROOT

QUESTION = "What's the latest news on Tesla?"


@pytest.fixture(autouse=True)
def fresh_caches(monkeypatch):
    """Each test opens its caches anew (the process keeps one per folder)."""
    monkeypatch.setattr(cache_module, "_OPEN", {})


def damage_random(folder):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cache.db").write_bytes(os.urandom(8192))


def damage_truncated(folder):
    store = diskcache.Cache(str(folder))
    for i in range(200):
        store.set(f"k{i}", "v" * 2000)
    store.close()
    size = (folder / "cache.db").stat().st_size
    with open(folder / "cache.db", "r+b") as handle:
        handle.truncate(size // 3)


@pytest.mark.parametrize("damage", [damage_random, damage_truncated])
def test_a_damaged_cache_is_replaced_and_said_once(damage, demo_settings):
    folder = demo_settings.cache_dir / "sources"
    damage(folder)
    first = pipeline.ask(QUESTION, settings=demo_settings)
    assert first.answer.markdown and not any(n.error for n in first.graph)
    assert any("source cache was damaged" in note for note in first.notes)
    assert list(demo_settings.cache_dir.glob("sources.damaged-*")), "the damaged cache was kept aside"
    second = pipeline.ask(QUESTION, settings=demo_settings)
    assert not any("source cache" in note for note in second.notes), "said once"


def test_damage_found_in_the_middle_of_a_run_is_survived(settings, tmp_path):
    from finsearch.sources.hub import DataHub

    class Upstream:
        def fetch(self, source, args):
            return [{"title": "story", "url": "https://e.test/1", "published": "2024-10-15T10:00:00Z"}]

    cache = cache_module.open_cache(settings.cache_dir / "sources", settings.freshness_s, 10)
    hub = DataHub(settings, adapters={"news": Upstream()}, cache=cache)
    hub.call("news", {"ticker": "TSLA"})
    cache.close()
    (settings.cache_dir / "sources" / "cache.db").write_bytes(os.urandom(8192))     # while the app runs
    assert hub.call("news", {"ticker": "AAPL"}).evidence[0].title == "story"
    assert hub.call("news", {"ticker": "AAPL"}).origin == "cache", "the fresh cache works"
    assert any("damaged" in n for n in hub.notices())


def test_a_cache_folder_that_cannot_hold_a_cache_leaves_the_cache_off(demo_settings, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    settings = demo_settings.replace(cache_dir=blocker)
    result = pipeline.ask(QUESTION, settings=settings)
    assert result.answer.markdown and not any(n.error for n in result.graph), "a replay-only run still answers"
    assert any("cannot be used" in note and "running without it" in note for note in result.notes)


@pytest.fixture
def app_env(sample_app_env):
    return sample_app_env


def test_the_settings_page_survives_a_damaged_cache_and_clears_it(app_env):
    damage_random(app_env / "cache" / "sources")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception
    assert "0 cached source results" in text_of(at)
    next(b for b in at.button if b.label == "Clear the cache").click().run()
    assert not at.exception and "0 cached source results" in text_of(at)


def test_an_unwritable_data_folder_keeps_the_answer_and_says_so(app_env):
    (app_env / "data").write_text("a file where the data folder should be")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.chat_input[0].set_value(QUESTION).run()
    settle(at)
    assert not at.exception
    assert "Tesla (TSLA) last traded" in text_of(at), "the answer is on the page"
    assert any("could not be saved on the server" in w.value for w in at.warning)
    assert not at.chat_input[0].disabled
    assert not any("?run=" in c.value or "?s=" in c.value for c in at.code), "no share link that would not open"
    assert not [b for b in at.button if b.label == "Create share link"]
