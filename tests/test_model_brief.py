"""The model writer gets the same facts as the rules (the facts brief), and its answer goes through
the same audit: on the loopback OpenAI-compatible server, with the probe packs."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from finsearch import pipeline
from finsearch.model.loopback import Reply
from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from tests.conftest import ROOT

PACKS = ROOT / "tests" / "probes" / "packs"
ALL = "".join(f"[{n}]" for n in range(1, 13))


def probe(llm_settings, pack, now):
    return llm_settings.replace(pack=PACKS / pack, offline=True, now=now)


def script(model, question, now, answer: str) -> None:
    """The model plans what the rules would, rewrites too slowly to be waited for, and answers `answer`."""
    nodes = [{"id": n.id, "sub_query": n.sub_query, "source": n.source, "args": n.args,
              "depends_on": list(n.depends_on)} for n in heuristic_plan(analyse(question, now), now)]
    model.on("plan", Reply(content=json.dumps({"nodes": nodes})))
    model.on("rewrite", Reply(content="{}", delay_s=1.0))
    model.on("answer", Reply(content=answer))


def test_the_brief_reaches_the_prompt_with_the_cause_the_figures_and_the_lead_shape(llm_settings, fake_llm):
    now = datetime(2025, 3, 18, 21, 0, tzinfo=UTC)
    script(fake_llm, "Why did Adobe stock fall last week?", now,
           f"Adobe fell 9.42% on 2025-03-14 after a weak outlook {ALL}.")
    pipeline.ask("Why did Adobe stock fall last week?", settings=probe(llm_settings, "us_guidance", now))
    user = fake_llm.last("answer")["messages"][1]["content"]
    facts = user.split("Facts already read from the evidence", 1)[1]
    assert "- lead shape: why → the cause, the move's date and size (first sentence)" in facts
    assert "- ADBE -9.42% on 2025-03-14 (from [" in facts and "most supported cause: guidance cut" in facts
    assert re.search(r"- ADBE guidance: revenue \$23\.30? billion to \$23\.55 billion vs consensus "
                     r"\$23\.70? billion \[",
                     facts), facts
    assert "- ADBE results vs expected: revenue $5.71 billion vs $5.66 billion (beat)" in facts


def test_the_brief_gives_the_fresh_price_and_names_the_stale_quote(llm_settings, fake_llm):
    now = datetime(2025, 6, 20, 20, 30, tzinfo=UTC)
    script(fake_llm, "What is Verizon's stock price right now?", now, f"Verizon closed at $43.00 on 2025-06-20 {ALL}.")
    pipeline.ask("What is Verizon's stock price right now?", settings=probe(llm_settings, "us_dividends", now))
    facts = fake_llm.last("answer")["messages"][1]["content"].split("Facts already read", 1)[1]
    assert "- VZ price: 43 USD on 2025-06-20 [" in facts
    assert "(an older value 42.06 from 2025-06-12 is 8 days older [" in facts


def test_a_model_lead_that_answers_a_default_question_is_flagged(llm_settings, fake_llm):
    """The model opens with the price and explains the fall only later: the audit names the
    intent the lead missed, and trust drops."""
    now = datetime(2025, 3, 18, 21, 0, tzinfo=UTC)
    script(fake_llm, "Why did Adobe stock fall last week?", now,
           f"Adobe (ADBE) closed at $423.78 on 2025-03-18 {ALL}.\n\n"
           f"It fell 9.42% on 2025-03-14 after its outlook disappointed {ALL}.")
    result = pipeline.ask("Why did Adobe stock fall last week?", settings=probe(llm_settings, "us_guidance", now))
    assert result.answer.writer == "llm"
    assert result.audit.answered.answered == ("why",) and result.audit.answered.not_in_lead == ("why",)
    assert result.audit.to_dict()["answered"]["not_in_lead"] == ["why"]
    assert result.audit.trust <= 0.75


def test_a_model_that_says_not_found_while_the_evidence_holds_it_is_contradicted(llm_settings, fake_llm):
    now = datetime(2025, 6, 20, 20, 30, tzinfo=UTC)
    script(fake_llm, "What is Verizon's payout ratio?", now,
           f"No payout ratio for Verizon was found in the evidence. Verizon yields 6.27% {ALL}.")
    result = pipeline.ask("What is Verizon's payout ratio?", settings=probe(llm_settings, "us_dividends", now))
    assert result.answer.writer == "llm"
    gap = result.audit.to_dict()["answered"]["missing"]
    assert [(g["intent"], g["reason"]) for g in gap] == [("dividend", "contradicted")]
    assert gap[0]["found_in"] and all(i.startswith("profile:") for i in gap[0]["found_in"])
    assert result.audit.trust == 0.0
