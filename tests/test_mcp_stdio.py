"""The MCP server over stdio, as Claude Desktop runs it: `python -m finsearch mcp` started by the
SDK's own client, on the demo replay pack, with nothing printed on stdout but the protocol."""

from pathlib import Path

import anyio
import pytest
from mcp import Client, MCPError

from finsearch import pipeline
from finsearch.catalogue import CATALOGUE
from finsearch.cli import main
from finsearch.hosting.identity import LOCAL, api_key_owner
from finsearch.settings import from_env, parse_now
from finsearch.store import open_store
from tests.conftest import DEMO_PACK
from tests.mcp_kit import NOW, QUESTION, REPORT, Progress, in_own_loop, resource_json, stdio_server, text_of


def _settings(home: Path):
    return from_env({}, data_dir=home / "data", cache_dir=home / "cache", pack=DEMO_PACK, offline=True,
                    now=parse_now(NOW), llm="heuristic")


def test_a_client_lists_the_tools_asks_on_the_replay_pack_and_reads_the_run_back(tmp_path):
    settings = _settings(tmp_path)
    direct = pipeline.ask(QUESTION, settings=settings.replace(data_dir=tmp_path / "direct"))
    theirs = pipeline.ask("How is AAPL doing?", settings=settings)
    open_store(settings).save(theirs, owner=api_key_owner("0123456789ab"))      # an API key's run

    async def session():
        async with Client(stdio_server(tmp_path)) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            answer = await client.call_tool("ask", {"question": QUESTION})
            mine = resource_json(await client.read_resource(f"finsearch://runs/{answer.structured_content['run_id']}"))
            with pytest.raises(MCPError, match="not yours"):
                await client.read_resource(f"finsearch://runs/{theirs.run_id}")
            return tools, answer, mine

    tools, answer, mine = in_own_loop(session)
    assert set(tools) == {"ask", "plan", "research_report"} | set(CATALOGUE)
    assert tools["ask"].input_schema["required"] == ["question"]
    assert set(tools["ask"].input_schema["properties"]) == {"question", "now", "tickers", "period"}
    assert tools["quote"].input_schema == {
        "type": "object", "additionalProperties": False, "required": ["ticker"],
        "properties": {"ticker": {"type": "string", "description": "Yahoo Finance symbol, e.g. NVDA, 0700.HK, ^GSPC"}}}
    assert tools["price_history"].input_schema["properties"]["interval"]["enum"] == \
        ["1m", "5m", "15m", "30m", "1h", "1d", "1wk", "1mo"]
    assert tools["sec_section"].input_schema["required"] == ["ticker", "item"]

    assert not answer.is_error
    result = answer.structured_content
    assert [r["evidence_id"] for r in result["answer"]["references"]] == \
        [r.evidence_id for r in direct.answer.references]
    assert result["question"] == QUESTION and result["now"] == NOW and result["audit"]["citations"]
    assert text_of(answer).startswith(direct.answer.markdown) and "References" in text_of(answer)
    assert mine["run_id"] == result["run_id"] and mine["answer"]["markdown"] == result["answer"]["markdown"]
    assert open_store(settings).owner_of(result["run_id"]) == LOCAL


def test_cancelling_a_report_stops_it_and_it_is_kept_marked_cancelled(tmp_path):
    # Each replayed source call takes ~1.5 s, so a section takes several seconds: the cancel comes
    # while the research is under way (a report left to run would take ~10 s and not be cancelled).
    store = open_store(_settings(tmp_path))
    progress = Progress()

    async def session():
        async with Client(stdio_server(tmp_path, FINSEARCH_REPLAY_DELAY_MS="1500")) as client:
            started = anyio.Event()

            async def noted(value, total, message):
                await progress(value, total, message)
                if " started: " in (message or ""):
                    started.set()

            async with anyio.create_task_group() as calls:
                calls.start_soon(lambda: client.call_tool("research_report", {"question": REPORT},
                                                          progress_callback=noted))
                with anyio.fail_after(30):
                    await started.wait()
                calls.cancel_scope.cancel()               # the client gives up: the SDK sends the cancel
            with anyio.fail_after(15):
                while not store.list(owner=LOCAL):
                    await anyio.sleep(0.05)
            return await client.list_tools()              # the server goes on answering

    assert in_own_loop(session).tools
    assert progress.messages[0].startswith("Outline of 7 sections: Business and segments; ")
    assert not [m for m in progress.messages if " done: " in m]
    (saved,) = store.list(owner=LOCAL)
    report = store.load(saved.run_id, "report")
    assert saved.kind == "report" and report.cancelled is True


def test_host_and_port_are_for_http_and_the_cli_says_so(capsys):
    assert main(["mcp", "--port", "9000"]) == 2
    assert "--host and --port are for --http" in capsys.readouterr().err
