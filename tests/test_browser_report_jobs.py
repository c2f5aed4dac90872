"""A deep research report outlives the web replica that took it, in a real browser: two `streamlit run`
replicas and one `python -m finsearch worker` share a real redis-server (nothing else: each has its own
data and cache folders). A visitor starts a report on replica A; once it is researching, A is killed
(SIGKILL, as a lost container is). The worker still writes the report: the same address on replica B
follows it to its end, and B's History — the same visitor, by their cookie — lists it and opens it.

Everything waits on states the pages show or on the store, never on time.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from finsearch.settings import from_env
from finsearch.store import open_store
from tests.browser_kit import ANSWER_TIMEOUT_MS, open_page, running_app
from tests.jobs_kit import QUICK, finsearch, job_env, stop
from tests.redis_kit import running_redis
from tests.test_browser_research import REPORT_PACK, SETTLED, wait_state
from tests.test_research import NVIDIA

pytestmark = pytest.mark.browser

# Each replayed call takes a while, so the report is still being researched when its replica is killed.
SLOW = {**REPORT_PACK, "FINSEARCH_REPLAY_DELAY_MS": "1500", "FINSEARCH_RESEARCH_APPROVE_S": "1"}


@pytest.fixture(scope="module")
def redis(tmp_path_factory):
    yield from running_redis(tmp_path_factory.mktemp("redis"))


@pytest.fixture(scope="module")
def worker(tmp_path_factory, redis):
    folder = tmp_path_factory.mktemp("worker")
    process = finsearch(["worker", *QUICK], job_env(folder, redis.url) | SLOW, folder / "worker.log")
    yield process
    stop(process)


@pytest.mark.timeout(600)
def test_a_report_whose_replica_is_killed_mid_run_is_written_by_a_worker_and_is_in_history(
        browser, request, tmp_path_factory, redis, worker):
    env = {**SLOW, "FINSEARCH_REDIS_URL": redis.url}
    store = open_store(from_env({"FINSEARCH_REDIS_URL": redis.url}))
    with running_app(tmp_path_factory.mktemp("replica-a"), **env) as a, \
            running_app(tmp_path_factory.mktemp("replica-b"), **env) as b:
        page = open_page(browser, request)
        page.goto(f"{a.url}/research")
        page.locator(SETTLED).wait_for(timeout=ANSWER_TIMEOUT_MS)
        page.get_by_label("Research request").fill(NVIDIA)
        page.get_by_role("button", name="Write report").click(timeout=30_000)
        assert wait_state(page, "researching") == "researching"
        assert worker.poll() is None

        a.process.kill()                                  # the replica is lost with the report in flight
        a.process.wait(15)
        assert not store.list(), "the report was written before its replica was lost: nothing was tested"

        assert f"{a.url}/research?report=" in page.url     # the address names the report from its start
        page.goto(page.url.replace(a.url, b.url))         # the same address on another replica follows it again
        assert wait_state(page, ("researching", "writing", "done")) in ("researching", "writing", "done")
        assert wait_state(page, "done") == "done"
        page.get_by_text(re.compile(r"^References \([1-9]\d*\)$")).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        assert not page.get_by_text("stopped early").count()

        page.goto(f"{b.url}/history")                     # and it is in the visitor's History there
        page.locator(SETTLED).wait_for(timeout=ANSWER_TIMEOUT_MS)
        expect(page.get_by_text(NVIDIA).first).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
        opens = page.get_by_role("link", name=re.compile("Open")).first.get_attribute("href")   # a new tab's link
        page.goto(b.url + opens)
        page.get_by_text(re.compile(r"^References \([1-9]\d*\)$")).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
