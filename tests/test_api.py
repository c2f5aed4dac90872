"""The HTTP API asked over real HTTP (a uvicorn server on loopback, httpx): an answer as `ask --json`
prints it, its events as Server-Sent Events read one by one, a client that goes away stopping its run,
bad bodies refused naming the field, every error as {"error": …} and never a traceback, OpenAPI docs."""

from __future__ import annotations

import time

import httpx
import pytest

from finsearch import pipeline
from finsearch.hosting.identity import LOCAL
from finsearch.hosting.limits import SLOTS
from tests.api_kit import NOW, QUESTION, served_api, sse_lines


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    from finsearch.settings import from_env
    from tests.conftest import DEMO_PACK

    folder = tmp_path_factory.mktemp("api")
    settings = from_env({}, cache_dir=folder / "cache", data_dir=folder / "data", llm="heuristic", pack=DEMO_PACK,
                        offline=True, node_timeout_s=5.0, max_runs_per_visitor=4)
    with served_api(settings) as served:
        yield served


def test_an_answer_is_the_object_ask_json_prints_with_the_same_evidence(api, demo_settings):
    with api.client() as client:
        answered = client.post("/v1/ask", json={"question": QUESTION, "now": NOW})
    assert answered.status_code == 200 and answered.headers["content-type"] == "application/json"
    body = answered.json()
    direct = pipeline.ask(QUESTION, settings=demo_settings).to_dict(with_answer=True)
    assert set(body) == set(direct)
    assert body["question"] == QUESTION and body["now"] == NOW and body["cancelled"] is False
    assert [r["evidence_id"] for r in body["answer"]["references"]] == \
        [r["evidence_id"] for r in direct["answer"]["references"]]
    assert body["answer"]["markdown"] == direct["answer"]["markdown"]
    with api.client() as client:                     # stored for its caller: this machine's user
        again = client.get(f"/v1/runs/{body['run_id']}")
    assert again.status_code == 200 and again.json()["answer"]["markdown"] == body["answer"]["markdown"]


def test_an_answer_streams_its_events_one_by_one_then_the_result(api):
    seen = []
    with api.client() as client, client.stream("POST", "/v1/ask", json={"question": QUESTION, "now": NOW},
                                               headers={"Accept": "text/event-stream"}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in sse_lines(response):
            seen.append(line)
    types = [line["type"] for line in seen[:-1]]
    assert types[0] == "PlanReady" and types[-1] == "RunFinished"
    assert "NodeStarted" in types and "NodeFinished" in types and "AnswerDelta" in types
    assert types.index("NodeStarted") < types.index("NodeFinished") < types.index("AnswerDelta")
    assert [line["at_ms"] for line in seen[:-1]] == sorted(line["at_ms"] for line in seen[:-1])
    finished = [line for line in seen[:-1] if line["type"] == "NodeFinished"]
    assert all(set(line) >= {"node", "status", "source", "evidence"} for line in finished)
    result = seen[-1]
    assert "type" not in result and result["question"] == QUESTION and result["answer"]["references"]
    assert {n["id"] for n in result["graph"]["nodes"]} >= set(seen[0]["nodes"])


@pytest.fixture
def held(tmp_path):
    """Every replayed source call takes a minute: the sources hold the run until it is stopped."""
    from finsearch.settings import from_env
    from tests.conftest import DEMO_PACK

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                        pack=DEMO_PACK, offline=True, replay_delay_s=60.0)
    with served_api(settings) as served:
        yield served


def _local_runs(api) -> list:
    return [api.state.store.load(s.run_id) for s in api.state.store.list(owner=LOCAL)]


def _ended_and_stored(api, timeout_s: float = 20.0) -> list:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        runs = _local_runs(api)
        if runs and SLOTS.counts(LOCAL)[0] == 0:
            return runs
        time.sleep(0.05)
    raise AssertionError("the run did not end")


def test_a_client_that_closes_the_stream_stops_its_run(held):
    started = time.monotonic()
    with held.client() as client, client.stream("POST", "/v1/ask", json={"question": QUESTION, "now": NOW},
                                                headers={"Accept": "text/event-stream"}) as response:
        for line in sse_lines(response):
            if line["type"] == "NodeStarted":        # a search is under way: leave
                break
        assert SLOTS.counts(LOCAL)[0] == 1
    [run] = _ended_and_stored(held)
    assert time.monotonic() - started < 30          # not the minute a search takes: stopped, not finished
    assert run.cancelled is True
    assert not [node for node in run.graph if node.evidence], "nothing was found after the client left"


def test_a_client_that_gives_up_on_a_json_answer_stops_its_run(held):
    with held.client(timeout=1.5) as client, pytest.raises(httpx.ReadTimeout):
        client.post("/v1/ask", json={"question": QUESTION, "now": NOW})
    [run] = _ended_and_stored(held)
    assert run.cancelled is True and not [node for node in run.graph if node.evidence]


@pytest.mark.parametrize("body, status, words", [
    (b"not json", 400, "the body is not JSON"),
    (b"[[[[" * 20_000, 413, "larger than 64 KiB"),
    (b"[" * 10_000 + b"]" * 10_000, 400, "the body is not JSON"),
    (b"\xff\xfe", 400, "the body is not JSON"),
    (b"[]", 400, "send a JSON object"),
    (b"{}", 400, '"question" must be a string'),
    (b'{"question": 5}', 400, '"question" must be a string'),
    (b'{"question": "   "}', 400, "Please type a question"),
    (b'{"question": "q", "now": "yesterday"}', 400, "not an ISO time"),
    (b'{"question": "q", "period": "2024-10-01"}', 400, '"period"'),
    (b'{"question": "q", "tickers": "SOL"}', 400, '"tickers" must be a list'),
    (b'{"question": "q", "answer": "42"}', 400, "unknown field 'answer'"),
])
def test_a_bad_body_is_refused_naming_the_field_before_anything_runs(api, body, status, words):
    with api.client() as client:
        refused = client.post("/v1/ask", content=body, headers={"Content-Type": "application/json"})
        report = client.post("/v1/reports", content=body, headers={"Content-Type": "application/json"})
    for answer in (refused, report):
        assert answer.status_code == status and words in answer.json()["error"]
        assert "Traceback" not in answer.text
    assert SLOTS.counts(LOCAL)[0] == 0


def test_a_report_takes_no_corrections_and_says_so(api):
    with api.client() as client:
        refused = client.post("/v1/reports", json={"question": "Research report on NVDA",
                                                   "period": "2024-10-01:2024-10-10"})
    assert refused.status_code == 400 and "a report takes" in refused.json()["error"]


def test_every_error_is_json_without_a_traceback(api, monkeypatch):
    with api.client() as client:
        assert client.get("/v1/nothing").json() == {"error": "not found"}
        assert client.get("/v1/ask").status_code == 405 and "error" in client.get("/v1/ask").json()
        assert client.get("/v1/runs/../../etc/passwd").status_code == 404
        assert client.get("/v1/runs/AAAAAAAAAAAAAAAA").json()["error"].startswith("no answer with this id")

        def broken(*args, **kwargs):
            raise RuntimeError("/secret/path/of/the/server")

        monkeypatch.setattr(api.state.store, "load", broken)
        failed = client.get("/v1/runs/AAAAAAAAAAAAAAAA")
    assert failed.status_code == 500
    assert failed.json() == {"error": "something went wrong on the server (RuntimeError); please try again"}
    assert "Traceback" not in failed.text and "/secret" not in failed.text


def test_a_store_that_cannot_be_reached_is_503_saying_so(tmp_path, demo_settings):
    from tests.redis_kit import free_port

    settings = demo_settings.replace(redis_url=f"redis://127.0.0.1:{free_port()}/0")   # nothing listens there
    with served_api(settings) as served, served.client() as client:
        down = client.get("/v1/runs/AAAAAAAAAAAAAAAA")
    assert down.status_code == 503 and "is unreachable" in down.json()["error"] and down.headers["Retry-After"]


def test_the_openapi_document_describes_the_requests_and_docs_are_served(api):
    with api.client() as client:
        spec = client.get("/openapi.json").json()
        docs = client.get("/docs")
    ask = spec["paths"]["/v1/ask"]["post"]
    schema = ask["requestBody"]["content"]["application/json"]["schema"]
    assert schema["required"] == ["question"] and set(schema["properties"]) == {"question", "now", "tickers", "period"}
    assert {"/v1/reports", "/v1/reports/{report_id}", "/v1/reports/{report_id}/events", "/v1/runs/{run_id}"} \
        <= set(spec["paths"])
    assert {"400", "401", "429"} <= set(ask["responses"])
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_cors_is_off_unless_the_operator_lists_origins(api, demo_settings):
    preflight = {"Origin": "https://dashboard.example.com", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization,content-type"}
    with api.client() as client:
        closed = client.options("/v1/ask", headers=preflight)
        plain = client.get("/openapi.json", headers={"Origin": "https://dashboard.example.com"})
    assert "access-control-allow-origin" not in closed.headers and "access-control-allow-origin" not in plain.headers
    settings = demo_settings.replace(api_cors_origins=("https://dashboard.example.com",))
    with served_api(settings) as served, served.client() as client:
        opened = client.options("/v1/ask", headers=preflight)
        other = client.options("/v1/ask", headers=preflight | {"Origin": "https://evil.example"})
    assert opened.status_code == 200
    assert opened.headers["access-control-allow-origin"] == "https://dashboard.example.com"
    assert "access-control-allow-origin" not in other.headers


def test_a_correction_the_question_was_not_read_as_is_422_saying_why(api):
    with api.client() as client:
        refused = client.post("/v1/ask", json={"question": QUESTION, "now": NOW, "tickers": {"SOL": "SOL-USD"}})
    assert refused.status_code == 422
    assert refused.json() == {"error": "'SOL' is not an instrument this question was read as (it was read as: NVDA); "
                                       "name one of those, by its symbol or the question's words"}
