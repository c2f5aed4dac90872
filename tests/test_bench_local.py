"""The real-model profile's own parts, on the loopback server standing in for the real one: the
meter passes replies through untouched and times them on the wire, and the profile runs its
question, follow-up and short report and says who did each stage. (Against a real server:
`pytest -m local_model`, `python -m finsearch.bench --local-model URL`.)"""

from __future__ import annotations

import json

from finsearch.bench import cli, local_model
from finsearch.bench.meter import Meter, summary
from finsearch.model.llm import LLMClient
from finsearch.model.loopback import LoopbackModel, Pace, Reply


def test_the_meter_passes_replies_through_and_times_them_on_the_wire(llm_settings):
    server = LoopbackModel(pace=Pace("test", 0.3, 200)).start()
    meter = Meter(server.base_url).start()
    server.on("answer", Reply(stream_pieces=[f"w{i} " for i in range(40)], completion_tokens=40))
    server.on("rewrite", Reply(content='{"args": {}}', completion_tokens=7))
    client = LLMClient(llm_settings.replace(base_url=meter.base_url))
    try:
        streamed = "".join(client.stream([{"role": "user", "content": "x"}], call="answer"))
        whole = client.complete([{"role": "user", "content": "x"}], call="rewrite").text
    finally:
        client.close()
        meter.stop()
        server.stop()
    assert streamed == "".join(f"w{i} " for i in range(40)) and whole == '{"args": {}}'
    answer, rewrite = meter.calls
    assert (answer.kind, answer.streamed, answer.output_tokens) == ("answer", True, 40)
    assert (rewrite.kind, rewrite.streamed, rewrite.output_tokens) == ("rewrite", False, 7)
    assert answer.ttft_s >= 0.3 and rewrite.ttft_s >= 0.3          # the server's time to first token, at least
    assert 20 < answer.tokens_per_s < 2000
    figures = summary([answer, rewrite])
    assert figures["calls"] == 2
    assert {kind: f["calls"] for kind, f in figures["by_kind"].items()} == {"answer": 1, "rewrite": 1}
    assert figures["ttft_ms"] >= 300 and figures["tokens_per_s"] == round(answer.tokens_per_s, 1)
    assert figures["by_kind"]["rewrite"]["tokens_per_s"] is None       # a whole reply: no rate to read


def test_the_profile_runs_a_question_a_follow_up_and_a_report_and_says_who_did_what(fake_llm, capsys):
    fake_llm.on("plan", Reply(stream_pieces=["I would look at the prices. "] * 20))      # not a plan
    fake_llm.on("answer", Reply(stream_pieces=["AMD fell 7.5% on 2024-11-06 [1]."]))
    assert cli.main(["--local-model", fake_llm.base_url, "--repeats", "3", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    report = json.loads(out[-1])
    figures = report["local_model"]
    assert figures["model"] == "loopback-model" and figures["plan_success"] == 0.0
    assert figures["wire"]["by_kind"]["plan"]["calls"] >= 6 and figures["wire"]["ttft_ms"] is not None
    question = figures["kinds"]["question"]
    assert question["runs"] == 3 and question["stages"]["plan"] == {"rules": 3}
    assert question["stages"]["answer"] == {"model": 3} and question["all_in_time"]
    assert figures["kinds"]["report"]["runs"] == 1 and figures["kinds"]["report"]["stages"]["outline"] == {"rules": 1}
    assert question["first_evidence_ms"] <= local_model.FIRST_EVIDENCE_MS
    assert set(report["targets"]) == {"local model: first evidence ms (question)",
                                      "local model: answer ms (question, worst)",
                                      "local model: every run within its deadline"}
    assert any(line.startswith("real local model loopback-model: TTFT ") for line in out)
