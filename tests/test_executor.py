"""The executor on fake sources (the network boundary): concurrency, dependencies,
failure isolation, skips, timeouts, Stop, and the rewriter's follow-ups."""

import threading
import time
from datetime import date

from finsearch.context import RunContext
from finsearch.errors import NoData, Unreachable
from finsearch.events import NodeAdded, NodeFailed, NodeFinished, NodeRewritten, NodeStarted
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.plan.analysis import analyse
from finsearch.run.executor import Executor
from finsearch.sources.hub import DataHub
from tests.conftest import NOW


class FakeSource:
    """Stands in for the network: sleeps, records when each call ran, returns canned items."""

    def __init__(self, delay_s=0.2, fail=None, items=None):
        self.delay_s = delay_s
        self.fail = fail or {}                 # (source, ticker) → exception
        self.items = items or {}               # source → list of raw items
        self.calls = []
        self.lock = threading.Lock()

    def fetch(self, source, args):
        started = time.perf_counter()
        time.sleep(self.delay_s)
        with self.lock:
            self.calls.append((source, dict(args), started, time.perf_counter()))
        error = self.fail.get((source, args.get("ticker")))
        if error:
            raise error
        return self.items.get(source, [{"title": f"{source} {args.get('ticker')}", "url": None,
                                        "published": "2024-10-11T12:00:00Z"}])


def price_item(ticker="NVDA"):
    return {"title": f"{ticker} prices", "period": {"start": "2024-10-07", "end": "2024-10-13"},
            "data": {"ticker": ticker, "rows": [["2024-10-11", 1, 1, 1, 1, 1]],
                     "stats": {"biggest_moves": [{"date": "2024-10-10", "change_pct": 1.2},
                                                 {"date": "2024-10-11", "change_pct": -4.7}]}}}


def run(question, settings, source, nodes=None, cancel=None):
    from finsearch.plan.rules import heuristic_plan

    hub = DataHub(settings, adapters={s: source for s in
                                      ("price_history", "news", "web_search", "quote", "symbol_search")})
    ctx = RunContext.open(question, settings=settings, now=NOW, cancel=cancel, hub=hub)
    graph = SearchGraph.build(question, ctx.analysis.time_context, nodes or heuristic_plan(ctx.analysis, NOW))
    executor = Executor(ctx, graph)
    events = list(executor.run())
    return graph, events


def test_independent_nodes_overlap_in_time(settings):
    source = FakeSource(delay_s=0.3)
    graph, _ = run("Compare AAPL and MSFT year to date", settings, source)
    assert len(source.calls) == len(graph) >= 6
    starts = sorted(c[2] for c in source.calls)
    ends = sorted(c[3] for c in source.calls)
    assert starts[-1] < ends[0], "all independent calls should be in flight together"


def test_dependents_start_after_their_parent_and_are_rewritten(settings):
    source = FakeSource(delay_s=0.05, items={"price_history": [price_item()]})
    graph, events = run("Why did NVDA fall last week?", settings, source)
    history = next(n for n in graph if n.source == "price_history")
    news = next(n for n in graph if n.source == "news")
    assert news.started_ms >= history.finished_ms
    assert news.rewritten_by == "heuristic"
    assert "2024-10-11" in news.sub_query and "4.7%" in news.sub_query
    assert news.original_sub_query != news.sub_query
    # The stories that explain a move: from three days before it (a weekend's news counts) to the day after.
    assert news.args["start"] == "2024-10-08" and news.args["end"] == "2024-10-12"
    assert (news.time_context.start, news.time_context.end) == (date(2024, 10, 8), date(2024, 10, 12))
    kinds = [type(e) for e in events]
    assert kinds.index(NodeRewritten) > kinds.index(NodeFinished)
    assert all(n.status is NodeStatus.DONE for n in graph)


def test_one_failure_does_not_stop_the_others(settings):
    source = FakeSource(delay_s=0.02, fail={("price_history", "AAPL"): Unreachable("Yahoo Finance is unreachable")})
    graph, events = run("Compare AAPL and MSFT year to date", settings, source)
    failed = [n for n in graph if n.status is NodeStatus.FAILED]
    assert [(n.source, n.args["ticker"], n.error) for n in failed] == \
        [("price_history", "AAPL", "Yahoo Finance is unreachable")]
    assert sum(1 for n in graph if n.status is NodeStatus.DONE) == len(graph) - 1
    assert sum(isinstance(e, NodeFailed) for e in events) == 1


def test_dependents_of_a_ticker_with_no_data_are_skipped_with_the_reason(settings):
    source = FakeSource(delay_s=0.01, fail={("price_history", "XYZQ"): NoData("no data for XYZQ")})
    graph, _ = run("Why did XYZQ fall last week?", settings, source)
    statuses = {n.source: (n.status, n.error) for n in graph}
    assert statuses["price_history"] == (NodeStatus.FAILED, "no data for XYZQ")
    assert statuses["news"][0] is NodeStatus.SKIPPED and "no data for XYZQ" in statuses["news"][1]
    assert all(call[0] == "price_history" for call in source.calls)


def test_dependents_run_with_what_exists_after_a_network_failure(settings):
    source = FakeSource(delay_s=0.01, fail={("price_history", "NVDA"): Unreachable("timed out")})
    graph, _ = run("Why did NVDA fall last week?", settings, source)
    news = next(n for n in graph if n.source == "news")
    assert news.status is NodeStatus.DONE and not news.rewritten


def test_a_slow_node_times_out_and_the_run_goes_on(settings):
    class Slow(FakeSource):
        def fetch(self, source, args):
            if source == "quote":
                time.sleep(3)
            return super().fetch(source, args)

    started = time.perf_counter()
    graph, _ = run("How is AAPL doing this year?", settings.replace(node_timeout_s=0.5), Slow(delay_s=0.01))
    assert time.perf_counter() - started < 2.5
    quote = next(n for n in graph if n.source == "quote")
    assert quote.status is NodeStatus.FAILED and quote.error == "timed out after 0.5 s"
    assert next(n for n in graph if n.source == "price_history").status is NodeStatus.DONE


def test_stop_keeps_what_was_found(settings):
    cancel = threading.Event()

    class StopAfterFirst(FakeSource):
        def fetch(self, source, args):
            result = super().fetch(source, args)
            cancel.set()
            return result

    graph, events = run("Why did NVDA fall last week?", settings, StopAfterFirst(delay_s=0.01,
                        items={"price_history": [price_item()]}), cancel=cancel)
    history = next(n for n in graph if n.source == "price_history")
    assert history.status in (NodeStatus.DONE, NodeStatus.SKIPPED)
    others = [n for n in graph if n is not history]
    assert all(n.status is NodeStatus.SKIPPED and "stopped" in n.error for n in others)
    assert all(n.status.finished for n in graph)


def test_symbol_search_adds_follow_up_nodes_for_the_ticker_it_found(settings):
    found = [{"title": "Rocket Lab USA", "data": {"query": "Rocket Lab",
                                                  "matches": [{"symbol": "RKLB", "name": "Rocket Lab USA"}]}}]
    source = FakeSource(delay_s=0.01, items={"symbol_search": found})
    graph, events = run("Why did Rocket Lab jump?", settings, source)
    added = [e.node for e in events if isinstance(e, NodeAdded)]
    assert {(n.source, n.args["ticker"]) for n in added} == {("price_history", "RKLB"), ("quote", "RKLB")}
    news = next(n for n in graph if n.source == "news")
    assert news.args["ticker"] == "RKLB" and news.rewritten
    assert all(n.status is NodeStatus.DONE for n in graph)


def test_no_rewriter_runs_the_plan_as_written(settings):
    source = FakeSource(delay_s=0.01, items={"price_history": [price_item()]})
    graph, events = run("Why did NVDA fall last week?", settings.replace(rewriter=False), source)
    assert not any(isinstance(e, (NodeRewritten, NodeAdded)) for e in events)
    assert all(not n.rewritten for n in graph)


def test_events_carry_copies(settings):
    source = FakeSource(delay_s=0.01)
    nodes = [SearchNode("n1", "q", "quote", {"ticker": "NVDA"}, analyse("NVDA", NOW).time_context)]
    graph, events = run("NVDA", settings, source, nodes=nodes)
    started = next(e for e in events if isinstance(e, NodeStarted))
    assert started.node.status is NodeStatus.RUNNING and graph["n1"].status is NodeStatus.DONE


def test_where_no_template_applies_the_models_rewrite_is_waited_for(llm_settings, fake_llm):
    import json

    from finsearch.model.loopback import Reply

    fake_llm.on("rewrite", Reply(content=json.dumps({"sub_query": "NVDA news after the quote",
                                                     "args": {"query": "Nvidia guidance"}}), delay_s=0.2))
    tc = analyse("Why did NVDA fall last week?", NOW).time_context
    nodes = [SearchNode("n1", "NVDA quote", "quote", {"ticker": "NVDA"}, tc),
             SearchNode("n2", "NVDA news", "news", {"ticker": "NVDA", "query": "Nvidia"}, tc, depends_on=("n1",))]
    source = FakeSource(delay_s=0.05)
    graph, _ = run("Why did NVDA fall last week?", llm_settings, source, nodes)
    news = graph["n2"]      # (a quote has no move to template from)
    assert news.rewritten_by == "llm" and news.llm_calls == 1 and news.sub_query == "NVDA news after the quote"
    news_queries = [args["query"] for s, args, *_ in source.calls if s == "news"]
    assert news_queries == ["Nvidia guidance"], "one fetch, the model's"
