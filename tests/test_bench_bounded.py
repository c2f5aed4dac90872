"""The benchmark's bounded runs (issue 15 §3) run and report: under a hanging, a drip-feeding
and a rate-limiting model every run ends before its deadline with an answer, and the report
says who wrote it and why. Short limits keep this quick; the only timing assert is "before
the deadline, plus generous slack" (the figures themselves are the benchmark's to report)."""


from finsearch.bench import bounded
from tests.bench_kit import DEADLINE_S, full_run

SLACK_S = 5


def test_the_bounded_runs_end_before_their_deadline_with_an_answer_and_say_who_wrote_it():
    out, whole = full_run()                # the whole benchmark's run, its bounded runs included
    report = whole["bounded"]
    assert (report["deadline_s"], report["llm_timeout_s"], report["stream_stall_s"]) == (6, 1, 1.5)
    assert report["repeats"] == 3 and report["profile"] == "custom"
    scenarios = report["scenarios"]
    assert list(scenarios) == ["hang_plan", "hang_rewrite", "hang_answer", "drip_answer", "rate_limited"]
    for name, s in scenarios.items():
        assert s["answered"], name
        assert s["wall_ms_spread"][1] < (DEADLINE_S + SLACK_S) * 1000, name

    # Who wrote what, and how many calls the model got before the breaker stopped them.
    ended = {name: (s["planners"], s["writers"], s["model_calls"]) for name, s in scenarios.items()}
    assert ended == {
        "hang_plan": ({"heuristic": 3}, {"heuristic": 3}, 1),        # one call; the rules plan and write
        # The rules' templates rewrite the news nodes (the day of the move): the model's rewrite, which
        # would hang, is never asked, even with the plan written first (it was asked beside them before).
        "hang_rewrite": ({"llm": 3}, {"llm": 3}, 2),
        # The draft's news nodes were rewritten by the rules while the model still wrote its plan.
        "hang_answer": ({"llm": 3}, {"heuristic": 3}, 2),            # plan, the answer that hung
        "drip_answer": ({"llm": 3}, {"heuristic": 3}, 2),
        # Retry-After 2 s is more than a quarter of a 6 s budget: not waited for, no second call.
        "rate_limited": ({"heuristic": 3}, {"heuristic": 3}, 1),
    }
    assert scenarios["hang_answer"]["reason"] == "the model at loopback did not answer within 1 s"
    assert scenarios["drip_answer"]["reason"] == "the model's answer came too slowly (under 1 piece a second)"
    assert "rate-limiting requests (it asked to wait 2 s)" in scenarios["rate_limited"]["reason"]
    assert scenarios["hang_rewrite"]["reason"] is None

    text = "\n".join(out[:-1])
    assert "bounded runs · Why did NVDA fall last week? · model custom · medians of 3 · deadline 6 s" in text
    assert "  hanging model (plan call): finished in " in text
    assert "; deadline 6 s), plan by rules, answer by rules · 1 model call · " in text
    assert "  drip-feeding model (a word every 1 s): finished in " in text
    assert "  429 storm (Retry-After: 2 s): finished in " in text
    assert "bounded hang_answer: worst ms, answered" in text


def test_a_run_past_its_deadline_or_without_an_answer_misses_its_target_and_says_so():
    scenario = {"label": "hanging model (plan call)", "wall_ms": 7000.0, "wall_ms_spread": [6500, 7200],
                "within_deadline": False, "answered": True, "planners": {"heuristic": 3},
                "writers": {"heuristic": 2, "llm": 1}, "model_calls": 1, "reason": None}
    report = {"question": "Q", "profile": "p", "repeats": 3, "deadline_s": 6.0, "llm_timeout_s": 1.0,
              "stream_stall_s": 1.5, "scenarios": {"hang_plan": scenario}}
    assert bounded.targets(report) == {"bounded hang_plan: worst ms, answered":
                                       {"value": 7200, "target": "< 6000", "ok": False}}
    assert bounded.lines(report)[1] == ("  hanging model (plan call): finished in 7.0 s (6.5–7.2; "
                                        "deadline 6 s, PAST IT in some runs), plan by rules, "
                                        "answer by rules (2 of 3 runs) · 1 model call")
    unanswered = report | {"scenarios": {"hang_plan": scenario | {"within_deadline": True, "answered": False}}}
    assert not bounded.targets(unanswered)["bounded hang_plan: worst ms, answered"]["ok"]
    assert "NO ANSWER in some runs" in bounded.lines(unanswered)[1]
