"""The interpretation bar in the app (AppTest): what was read above the graph, and a click on
a switch re-plans the question as a new turn read the chosen way (demo pack, offline)."""

import time

from streamlit.testing.v1 import AppTest

from tests.app_kit import APP, settle, text_of
from tests.interpretation_seed import QUESTION, seed_ambiguous_sol


def button(at: AppTest, label: str):
    found = [b for b in at.button if b.label == label]
    assert found, f"no button {label!r} among {[b.label for b in at.button]}"
    return found[-1]


def test_an_assumed_period_is_shown_and_switching_it_re_plans_the_question(sample_app_env):
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.chat_input[0].set_value("What's the latest news on Tesla?").run()
    settle(at)
    assert "Read as: Tesla (TSLA) · today (2024-10-15, assumed) · looking for news" in text_of(at)
    assert "The question names no period: assumed today (2024-10-15)" in text_of(at)
    button(at, "past month (2024-09-15 → 2024-10-15)").click().run()
    settle(at)
    turns = at.session_state["finsearch_chat"].turns
    assert len(turns) == 2 and turns[1].question == "What's the latest news on Tesla?"
    again = turns[1].result
    assert (again.analysis.time_context.start.isoformat(), again.analysis.time_context.label) == ("2024-09-15",
                                                                                                  "past month")
    assert "Re-planned with period past month (2024-09-15 → 2024-10-15)" in text_of(at)
    assert "Period past month (2024-09-15 → 2024-10-15): your choice" in text_of(at)


def test_an_ambiguous_symbol_switches_to_its_other_reading_and_back(sample_app_env):
    conversation = seed_ambiguous_sol(sample_app_env / "data")
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["c"] = conversation
    at.run()
    assert not at.exception
    assert "SOL = Emeren Group (SOL)" in text_of(at)
    button(at, "switch to Solana (SOL-USD)").click().run()
    settle(at)
    turns = at.session_state["finsearch_chat"].turns
    assert [t.question for t in turns] == [QUESTION, QUESTION]
    graph = turns[1].result.graph
    assert "Solana (SOL-USD) latest quote" in [n.sub_query for n in graph]
    assert all("SOL-USD" in n.sub_query for n in graph if n.source != "question")
    assert "Solana (SOL-USD): your choice" in text_of(at)
    assert "Re-planned with SOL as SOL-USD" in text_of(at)
    # The re-planned turn offers the first reading back (as the reader reads the question afresh).
    button(at, "switch to Emeren Group (SOL)").click().run()
    settle(at)
    third = at.session_state["finsearch_chat"].turns[2].result
    assert third.analysis.tickers == ["SOL"]


def test_a_shared_read_only_page_shows_how_it_was_read_but_offers_no_switch(sample_app_env):
    from finsearch.store import FileRunStore as RunStore

    conversation = seed_ambiguous_sol(sample_app_env / "data")
    run_id = RunStore(sample_app_env / "data").conversation(conversation)[0]
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["run"] = run_id
    at.run()
    assert not at.exception
    assert "SOL = Emeren Group (SOL)" in text_of(at)
    assert not [b.label for b in at.button if b.label.startswith("switch to")]


def test_how_the_question_was_read_shows_while_it_runs_with_its_choices_greyed(sample_app_env, monkeypatch, fake_llm):
    from finsearch.model.loopback import Reply

    fake_llm.on("plan", Reply(content="no JSON here"))           # the rules plan
    fake_llm.on("answer", Reply(stream_pieces=["Tesla fell [1]."], delay_s=4.0))
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.chat_input[0].set_value("What's the latest news on Tesla?").run()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and "Read as:" not in text_of(at):
        time.sleep(0.1)
        at.run()
    assert at.session_state["finsearch_chat"].turns[0].running, "the run ended before the bar was looked at"
    assert "Read as: Tesla (TSLA) · today (2024-10-15, assumed) · looking for news" in text_of(at)
    offered = button(at, "past month (2024-09-15 → 2024-10-15)")
    assert offered.disabled                       # no second run while one goes
    settle(at)
    assert not button(at, "past month (2024-09-15 → 2024-10-15)").disabled
