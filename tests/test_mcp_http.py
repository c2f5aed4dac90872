"""The MCP server over streamable HTTP (`python -m finsearch mcp --http`), through the SDK's own
client: a caller shows its API key where the operator requires one, asks and reads its own runs
back, calls a data source as a tool, follows a report section by section and cancels one; a bad
argument is a tool error naming the field."""

import anyio
import httpx
import pytest
from mcp import MCPError

from finsearch import pipeline
from finsearch.hosting import api_keys
from finsearch.hosting.api_keys import open_key_store
from finsearch.hosting.identity import LOCAL, api_key_owner
from finsearch.hosting.limits import SLOTS
from finsearch.settings import from_env
from finsearch.store import open_store
from tests.conftest import DEMO_PACK, NOW
from tests.mcp_kit import QUESTION, REPORT, Progress, in_own_loop, resource_json, served_mcp, text_of


@pytest.fixture(scope="module")
def keyed(tmp_path_factory):
    """A server that requires API keys (FINSEARCH_API_KEYS_REQUIRED=1) and one key: (served, key, owner, settings)."""
    home = tmp_path_factory.mktemp("mcp")
    settings = from_env({}, data_dir=home / "data", cache_dir=home / "cache", pack=DEMO_PACK, offline=True, now=NOW,
                        llm="heuristic", api_keys_required=True)
    kept, key = api_keys.create(open_key_store(settings), "test")
    with served_mcp(settings) as served:
        yield served, key, api_key_owner(kept.key_id), settings


def test_a_call_without_a_valid_api_key_is_refused_before_any_session(keyed):
    served, key, _, _ = keyed
    hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    for headers in ({}, {"Authorization": "Bearer fsk_0123456789ab_" + "x" * 43}, {"Authorization": key}):
        refused = httpx.post(served.url, json=hello, headers=headers, timeout=10)
        assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "Bearer"
        assert "key" in refused.json()["error"]


def test_an_answer_is_saved_for_the_key_owner_who_alone_reads_it_back(keyed):
    served, key, owner, settings = keyed
    local = pipeline.ask("How is AAPL doing?", settings=settings)
    open_store(settings).save(local, owner=LOCAL)

    async def session():
        async with served.client(key) as client:
            answer = await client.call_tool("ask", {"question": QUESTION, "tickers": {"NVDA": "NVDA"}})
            run = resource_json(await client.read_resource(f"finsearch://runs/{answer.structured_content['run_id']}"))
            with pytest.raises(MCPError, match="not yours"):
                await client.read_resource(f"finsearch://runs/{local.run_id}")
            planned = await client.call_tool("plan", {"question": QUESTION})
            return answer, run, planned

    answer, run, planned = in_own_loop(session)
    assert not answer.is_error and answer.structured_content["answer"]["references"]
    assert run["run_id"] == answer.structured_content["run_id"]
    assert open_store(settings).owner_of(run["run_id"]) == owner
    assert [n["source"] for n in planned.structured_content["graph"]["nodes"]] == \
        ["question", "price_history", "news", "web_search"]
    assert "answer" not in planned.structured_content


def test_a_source_is_a_tool_whose_evidence_comes_through_the_hub(keyed):
    served, key, _, _ = keyed

    async def session():
        async with served.client(key) as client:
            return await client.call_tool("quote", {"ticker": "nvda"})

    quoted = in_own_loop(session)
    assert not quoted.is_error
    answer = quoted.structured_content
    assert answer["source"] == "quote" and answer["args"] == {"ticker": "NVDA"}
    assert answer["origin"] == "pack" and answer["sample"] is True
    (evidence,) = answer["evidence"]
    assert evidence["source"] == "quote" and evidence["id"].startswith("quote:")
    assert evidence["data"]["ticker"] == "NVDA"


BAD_CALLS = [
    ("ask", {"question": "Why did SOL fall?", "tickers": "SOL"}, '"tickers" must be a list'),
    ("ask", {"question": "Why did SOL fall?", "answer": "42"}, "unknown field 'answer'"),
    ("ask", {"question": "   "}, "Please type a question"),
    ("plan", {"question": "q", "now": "yesterday"}, "not an ISO time"),
    ("research_report", {"question": REPORT, "period": "2024-10-01:2024-10-10"}, 'a report takes "question" and "now"'),
    ("quote", {}, "quote: missing argument 'ticker'"),
    ("price_history", {"ticker": "NVDA", "interval": "2d"}, "price_history: bad value for 'interval'"),
    ("cn_announcements", {"ticker": "AAPL"}, "cn_announcements: bad value for 'ticker'"),
    ("news", {"lang": "en"}, "news: needs one of ticker, query"),
]


def test_bad_arguments_are_tool_errors_naming_the_field(keyed):
    served, key, _, _ = keyed

    async def session():
        async with served.client(key) as client:
            return [await client.call_tool(name, arguments) for name, arguments, _ in BAD_CALLS]

    for (name, _, words), refused in zip(BAD_CALLS, in_own_loop(session), strict=True):
        assert refused.is_error, name
        assert words in text_of(refused) and "Traceback" not in text_of(refused)


def test_a_report_tells_its_progress_section_by_section_then_gives_its_markdown(keyed):
    served, key, _, _ = keyed
    progress = Progress()

    async def session():
        async with served.client(key) as client:
            written = await client.call_tool("research_report", {"question": REPORT}, progress_callback=progress)
            kept = resource_json(await client.read_resource(
                f"finsearch://reports/{written.structured_content['report_id']}"))
            return written, kept

    written, kept = in_own_loop(session)
    assert not written.is_error
    assert progress.messages[0] == ("Outline of 7 sections: Business and segments; Recent results; Valuation; "
                                    "Analyst views; Price action; Risk factors; Catalysts and outlook")
    done = sorted(m for m in progress.messages if " done: " in m)
    assert done[0] == "Section 1 of 7 done: Business and segments" and len(done) == 7
    values = [value for value, _, _ in progress.seen]
    assert values == sorted(set(values)) and values[-1] == 7 and {t for _, t, _ in progress.seen} == {7}
    report = written.structured_content
    assert text_of(written) == report["markdown"] and report["markdown"].startswith("# NVIDIA (NVDA)")
    assert report["references"] and report["cancelled"] is False and kept["report_id"] == report["report_id"]


def test_a_cancelled_report_stops_and_frees_its_run_slot(tmp_path, demo_settings):
    settings = demo_settings.replace(data_dir=tmp_path / "slow", replay_delay_s=1.5)
    store = open_store(settings)
    started = anyio.Event()

    async def noted(value, total, message):
        if " started: " in (message or ""):
            started.set()

    async def session(served):
        async with served.client() as client:               # on loopback, no key: this machine's user
            async with anyio.create_task_group() as calls:
                calls.start_soon(lambda: client.call_tool("research_report", {"question": REPORT},
                                                          progress_callback=noted))
                with anyio.fail_after(30):
                    await started.wait()
                assert SLOTS.counts(LOCAL)[0] == 1
                calls.cancel_scope.cancel()
            with anyio.fail_after(15):
                while SLOTS.counts(LOCAL)[0] or not store.list(owner=LOCAL):
                    await anyio.sleep(0.05)

    with served_mcp(settings) as served:
        in_own_loop(session, served)
    (saved,) = store.list(owner=LOCAL)
    assert store.load(saved.run_id, "report").cancelled is True


def test_a_question_over_the_limit_is_a_tool_error_saying_when_to_ask_again(tmp_path, demo_settings):
    settings = demo_settings.replace(data_dir=tmp_path / "limited", question_limit=1)

    async def session(served):
        async with served.client() as client:
            return [await client.call_tool("ask", {"question": QUESTION}) for _ in range(2)]

    with served_mcp(settings) as served:
        first, second = in_own_loop(session, served)
    assert not first.is_error and second.is_error
    assert text_of(second).startswith("You have asked the most questions this server allows (1 in 1 hour). "
                                      "You can ask again in ")
