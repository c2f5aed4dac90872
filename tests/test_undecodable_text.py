"""Text no UTF-8 can carry, from every door (issue 31, items 5, 6 and 9): a lone UTF-16 surrogate
("\\ud800" in a pack's title, a model's reply, an outline edit, an uploaded summary) is U+FFFD
where it enters, so the run is answered, saved, listed and loaded back; a summary with a number
of thousands of digits is refused with a reason; bytes that are not UTF-8 in a command-line
argument are a usage error, never raw bytes in the JSON."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from finsearch import pipeline, surrogates
from finsearch.errors import InputError
from finsearch.evaluate import summary_files
from finsearch.evidence import Evidence
from finsearch.model.llm import LLMClient
from finsearch.model.loopback import Reply
from finsearch.plan.analysis import analyse, check_question
from finsearch.plan.interpretation import Corrections
from finsearch.research.outline import rule_outline
from finsearch.research.outline_text import parse_outline_text
from finsearch.sources.hub import DataHub
from finsearch.store import open_store
from tests.conftest import DEMO_PACK, NOW, ROOT
from tests.store_kit import sample_run

QUESTION = "Why did NVDA fall last week?"
TITLE = "Nvidia says demand for Blackwell chips is 'insane', shares edge up"


# -- the one function ------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "mended"), [
    ("a\ud800b", "a\ufffdb"),                       # a lone high surrogate
    ("a\udfffb", "a\ufffdb"),                       # a lone low one
    ("\udcff\udcfe", "\ufffd\ufffd"),               # bytes 0xFF 0xFE as surrogateescape hands them over
    ("\ud83d\ude00", "\U0001F600"),                 # the two halves of one emoji: that emoji
    ("\ude00\ud83d", "\ufffd\ufffd"),               # the halves the wrong way round: two lone ones
    ("英伟达 😀 ok", "英伟达 😀 ok"),                  # nothing to mend: the same text
])
def test_a_lone_surrogate_becomes_the_replacement_character(text, mended):
    assert surrogates.replace_lone(text) == mended
    mended.encode("utf-8")                          # encodes, which the input did not


def test_json_read_through_it_has_no_lone_surrogate_in_any_string_or_key():
    escaped = '{"t\\ud800": ["x\\udfff", {"k": "\\ud83d\\ude00"}], "n": 1.5}'
    assert surrogates.loads(escaped) == {"t\ufffd": ["x\ufffd", {"k": "\U0001F600"}], "n": 1.5}
    raw = b'{"t": "a\xed\xa0\x80b"}'                # a surrogate encoded raw (CESU-8), as json reads bytes
    assert surrogates.loads(raw) == {"t": "a\ufffdb"}


# -- item 5: every door text comes in by ---------------------------------------------------------

def test_evidence_questions_corrections_and_outline_edits_are_mended_where_they_enter():
    item = Evidence.from_untrusted({"title": "Nvidia \ud800 demand", "snippet": "up\udcff",
                                    "publisher": "Wire\udfff", "data": {"k\ud800": ["v\ud800"]}},
                                   source="news", kind="news")
    assert (item.title, item.snippet, item.publisher) == ("Nvidia \ufffd demand", "up\ufffd", "Wire\ufffd")
    assert item.data == {"k\ufffd": ["v\ufffd"]}
    assert check_question("Why did NVDA fall\ud800?") == "Why did NVDA fall\ufffd?"
    assert Corrections.parse(["SOL\ud800=SOL-USD"]).tickers[0].read == "SOL\ufffd"
    assert Corrections().with_ticker("Apple\ud800", "AAPL").tickers[0].read == "Apple\ufffd"
    drafted = rule_outline(analyse("Analyse NVIDIA's recent performance and outlook", NOW))
    edited = parse_outline_text("## Results \ud800\n- Did revenue grow\udcff?", drafted)
    assert [(s.title, s.key_questions) for s in edited.sections] == [("Results \ufffd", ("Did revenue grow\ufffd?",))]


def test_a_models_reply_is_mended_as_it_arrives(llm_settings, fake_llm):
    # The loopback server writes its JSON with ASCII escapes: "\ud800" on the wire, as a hostile server would.
    fake_llm.script = [Reply(content="NVDA fell \ud800 4%"), Reply(stream_pieces=["NVDA ", "fell \udfff", " 4%"])]
    with LLMClient(llm_settings) as client:
        assert client.complete([{"role": "user", "content": "x"}]).text == "NVDA fell \ufffd 4%"
        assert "".join(client.stream([{"role": "user", "content": "x"}], call="answer")) == "NVDA fell \ufffd 4%"


@pytest.fixture
def hostile_pack(tmp_path) -> Path:
    """The demo pack with "\\ud800" (as JSON writes it) in an NVIDIA headline and in the pack's label."""
    pack = tmp_path / "pack"
    shutil.copytree(DEMO_PACK, pack)
    path = pack / "news-NVDA-62e185363c.json"
    recording = json.loads(path.read_text("utf-8"))
    assert recording["evidence"][0]["title"] == TITLE
    recording["evidence"][0]["title"] = "Nvidia \ud800 says demand is 'insane'"
    path.write_text(json.dumps(recording), "utf-8")            # ASCII escapes: the file holds \ud800
    assert "\\ud800" in path.read_text("utf-8")
    manifest = json.loads((pack / "_pack.json").read_text("utf-8"))
    (pack / "_pack.json").write_text(json.dumps({**manifest, "label": "Sample \ud800 data"}), "utf-8")
    return pack


def test_ask_json_with_a_lone_surrogate_in_a_packs_headline_answers_in_utf8(hostile_pack, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FINSEARCH_"))}
    env |= {"PYTHONPATH": str(ROOT), "FINSEARCH_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "finsearch", "ask", QUESTION, "--now", "2024-10-15T20:00:00Z",
                           "--offline", "--pack", str(hostile_pack), "--json"],
                          capture_output=True, env=env, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    out = json.loads(done.stdout.decode("utf-8"))         # strict: the output is UTF-8
    titles = [e["title"] for n in out["graph"]["nodes"] for e in n.get("evidence") or []]
    assert "Nvidia \ufffd says demand is 'insane'" in titles
    assert "\\ud800" not in done.stdout.decode("utf-8")


def test_a_run_on_that_pack_is_saved_listed_shared_and_loaded_back(hostile_pack, backend):
    settings = backend.settings.replace(pack=hostile_pack, offline=True)
    run = pipeline.ask(QUESTION, settings=settings, hub=DataHub(settings))
    store = open_store(backend.settings)
    store.save(run, "conv-surrogate", owner="anon:AAAAAAAAAAAAAAAAAAAAAA")
    loaded = store.load(run.run_id)
    assert loaded is not None and loaded.answer.markdown == run.answer.markdown
    titles = {e.title for n in loaded.graph for e in n.evidence}
    assert "Nvidia \ufffd says demand is 'insane'" in titles
    assert [s.run_id for s in store.list()] == [run.run_id]
    assert [r.run_id for r in store.load_conversation("conv-surrogate")] == [run.run_id]
    link = store.share("run", [run.run_id], "anon:AAAAAAAAAAAAAAAAAAAAAA", run.question)
    assert store.shared(link.token).run_ids == (run.run_id,)


def test_a_store_saves_even_a_run_that_slipped_past_every_door(backend):
    """The last defence: a question holding a lone surrogate (as a run built in code could) saves."""
    run = sample_run("run-lone1111")
    run = dataclasses.replace(run, analysis=dataclasses.replace(run.analysis, question="NVDA \ud800 last week"))
    store = open_store(backend.settings)
    store.save(run, "conv-lone1111")
    assert store.load("run-lone1111").question == "NVDA \ufffd last week"
    [summary] = store.list()
    assert summary.question == "NVDA \ufffd last week"
    link = store.share("run", ["run-lone1111"], "anon:AAAAAAAAAAAAAAAAAAAAAA", "NVDA \ud800")
    assert store.shared(link.token).question == "NVDA \ufffd"


# -- item 6: summaries the Evaluate page reads ---------------------------------------------------

def _summary_with(accuracy: str, variant: str = "full") -> bytes:
    return ('{"format": "mcq", "variants": {"' + variant + '": {"n": 2, "accuracy": ' + accuracy + "}}}").encode()


@pytest.mark.parametrize("digits", [5_000, 4_000, 19])
def test_a_summary_holding_a_number_of_thousands_of_digits_is_refused_with_a_reason(digits):
    with pytest.raises(InputError) as refused:
        summary_files.parse_summary(_summary_with("7" * digits), "summary.json")
    assert str(refused.value) == \
        f"summary.json is not a summary FinSearch can read: it holds a whole number {digits:,} digits long"


def test_a_summary_with_a_lone_surrogate_in_a_variants_name_reads_with_the_replacement_character():
    read = summary_files.parse_summary(_summary_with("0.5", variant="full\\ud800"), "summary.json")
    assert list(read["variants"]) == ["full\ufffd"]
    assert summary_files.parse_summary(_summary_with("-" + "9" * 18))["variants"]["full"]["accuracy"] == -(10**18 - 1)


@pytest.fixture
def evaluate_page(monkeypatch, tmp_path):
    """The Evaluate page browsing the data directory's eval folder (as its operator)."""
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FINSEARCH_ADMIN", "1")
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "data" / "eval" / "hostile").mkdir(parents=True)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/evaluate.py").run()
    return at, tmp_path / "data" / "eval" / "hostile" / "summary.json"


def test_the_evaluate_page_says_why_it_cannot_read_a_summary_with_a_5000_digit_number(evaluate_page):
    at, path = evaluate_page
    path.write_bytes(_summary_with("7" * 5_000))
    at.text_input[0].set_value("hostile").run()
    assert not at.exception and not at.dataframe
    assert [e.value for e in at.error] == \
        ["summary.json is not a summary FinSearch can read: it holds a whole number 5,000 digits long"]


def test_the_evaluate_page_shows_a_variant_whose_name_held_a_lone_surrogate(evaluate_page):
    at, path = evaluate_page
    path.write_bytes(_summary_with("0.5", variant="full\\ud800"))
    at.text_input[0].set_value("hostile").run()
    assert not at.exception and not at.error
    assert list(at.dataframe[0].value["variant"]) == ["full\ufffd"]


# -- item 9: bytes in the command line's arguments -----------------------------------------------

def _finsearch(*args: str | bytes) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FINSEARCH_"))}
    env |= {"PYTHONPATH": str(ROOT), "FINSEARCH_PACK": str(DEMO_PACK), "LC_ALL": "C.UTF-8"}
    return subprocess.run([sys.executable, "-m", "finsearch", *args], capture_output=True, env=env,
                          timeout=120, cwd=ROOT)


@pytest.mark.parametrize(("args", "named"), [
    ([b"\xff\xfe"], "the question"),
    ([b"Why did NVDA fall\xff?"], "the question"),
    (["How did NVDA do?", "--ticker", b"NV\xff=NVDA"], "--ticker"),
    (["How did NVDA do?", "--period", b"2024-10-01:2024-10-1\xfe"], "--period"),
])
def test_a_text_argument_that_is_not_utf8_is_a_usage_error(args, named):
    done = _finsearch("plan", *args, "--json")
    assert done.returncode == 2 and done.stdout == b""
    error = done.stderr.decode("utf-8").strip().splitlines()[-1]
    assert error == (f"python -m finsearch: error: {named} is not valid text: it holds bytes that are not "
                     "UTF-8 (is the terminal set to UTF-8?)")


def test_a_question_in_utf8_still_plans_and_its_json_is_utf8():
    done = _finsearch("plan", "英伟达上周为什么下跌？".encode(), "--now", "2024-10-15T20:00:00Z", "--json")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert json.loads(done.stdout.decode("utf-8"))["question"] == "英伟达上周为什么下跌？"
