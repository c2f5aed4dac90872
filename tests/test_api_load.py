"""Sixteen questions asked of the HTTP API at once on the demo replay pack, each replayed source call
taking ~200 ms as a network would: every one finishes with an answer (half as JSON, half streamed),
and the wall time of each is measured (p50 / p90 printed: `pytest -s tests/test_api_load.py`)."""

from __future__ import annotations

import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from finsearch.hosting.identity import LOCAL
from finsearch.hosting.limits import SLOTS
from tests.api_kit import NOW, served_api, sse_lines

QUESTIONS = ["Why did NVDA fall last week?", "Compare AAPL and MSFT year to date", "What's the latest news on Tesla?",
             "贵州茅台最近一个月表现如何？", "How is MSFT doing this month?", "Why did TSLA drop last week?",
             "AAPL price last month", "NVDA news this week", "How did Apple do last week?", "Tesla stock this month",
             "Microsoft latest news", "Compare NVDA and TSLA last month", "Apple vs Microsoft last week",
             "茅台股价走势", "NVIDIA performance this quarter", "What happened to Tesla in October?"]


def test_sixteen_asks_at_once_all_finish(demo_settings):
    settings = demo_settings.replace(replay_delay_s=0.2, max_runs_per_visitor=len(QUESTIONS))
    with served_api(settings) as api:

        def ask(index: int) -> tuple[float, dict]:
            body = {"question": QUESTIONS[index], "now": NOW}
            started = time.monotonic()
            with api.client(timeout=120.0) as client:
                if index % 2:
                    with client.stream("POST", "/v1/ask", json=body, headers={"Accept": "text/event-stream"}) as s:
                        assert s.status_code == 200
                        result = list(sse_lines(s))[-1]
                else:
                    answered = client.post("/v1/ask", json=body)
                    assert answered.status_code == 200, answered.text
                    result = answered.json()
            return time.monotonic() - started, result

        with ThreadPoolExecutor(len(QUESTIONS)) as pool:
            done = list(pool.map(ask, range(len(QUESTIONS))))
        assert SLOTS.counts(LOCAL)[0] == 0
    walls = sorted(wall for wall, _ in done)
    for (_, result), question in zip(done, QUESTIONS, strict=True):
        assert result["question"] == question and result["cancelled"] is False and result["answer"]["markdown"]
    p50, p90 = statistics.median(walls), statistics.quantiles(walls, n=10, method="inclusive")[8]
    print(f"\n16 concurrent API asks (demo pack, 200 ms per replayed call): p50 {p50:.2f} s, p90 {p90:.2f} s, "
          f"max {walls[-1]:.2f} s")
    assert walls[-1] < 60
