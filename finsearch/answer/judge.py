"""The optional LLM judge (off by default): presentation quality and entailment.

- presentation: eight criteria, each scored 1, 3 or 5 by the model, normalised to 0–1
  ((score − 1) / 4) and averaged;
- entailment: each cited sentence against the text of the evidence it cites —
  supported, contradicted or overstated.

The figures audit (finsearch.answer.audit) never depends on this: it is computed in code.
"""

from __future__ import annotations

from ..errors import LLMError
from ..model.language_model import LanguageModel
from ..model.prompts import fill, prompt
from ..model.text import parse_json_object
from .generator import render_evidence

CRITERIA = ("conclusion_first", "clear_structure", "key_insights_emphasised", "tables_for_dense_data",
            "aligned_comparisons", "consistent_formatting", "claim_evidence_chain", "risks_and_limitations")
VERDICTS = ("supported", "contradicted", "overstated")
MAX_SENTENCES = 12

SCHEMA = {
    "type": "object",
    "properties": {
        "presentation": {"type": "object", "properties": {c: {"type": "integer", "enum": [1, 3, 5]}
                                                          for c in CRITERIA}},
        "entailment": {"type": "array", "items": {
            "type": "object",
            "properties": {"sentence": {"type": "integer"}, "verdict": {"type": "string", "enum": list(VERDICTS)}},
            "required": ["sentence", "verdict"]}},
    },
    "required": ["presentation", "entailment"],
}


def judge(question: str, answer, graph, llm: LanguageModel) -> dict:
    """The judge's verdict on an answer (finsearch.answer.generator.Answer) to `question`, given the
    run's search graph; {"error": …} when it cannot judge."""
    from .audit import sentences
    from .citations import markers

    if answer is None or not answer.markdown.strip():
        return {"error": "there is no answer to judge"}
    by_number = {r.n: r.evidence_id for r in answer.references}
    evidence = {e.id: e for n in graph for e in n.evidence}
    cited = [(i, s) for i, s in enumerate(sentences(answer.markdown)) if markers(s)][:MAX_SENTENCES]
    lines = []
    for i, sentence in cited:
        sources = [render_evidence(n, evidence[by_number[n]]) for n in markers(sentence)
                   if n in by_number and by_number[n] in evidence]
        lines.append(f"Sentence {i}: {sentence}\nIts evidence:\n" + "\n".join(sources))
    messages = [{"role": "system", "content": prompt("judge_system")},
                {"role": "user", "content": fill(prompt("judge_user"), question=question,
                                                 answer=answer.markdown, cited="\n\n".join(lines) or "(none)",
                                                 criteria=", ".join(CRITERIA))}]
    try:
        raw = parse_json_object(llm.complete(messages, call="judge", schema=SCHEMA, max_tokens=900).text)
    except LLMError as exc:
        return {"error": f"the judge failed: {exc}"}
    return _normalise(raw, {i for i, _ in cited})


def _normalise(raw: dict, asked: set[int]) -> dict:
    scores = {}
    given = raw.get("presentation") if isinstance(raw.get("presentation"), dict) else {}
    for criterion in CRITERIA:
        value = given.get(criterion)
        scores[criterion] = value if value in (1, 3, 5) else None
    known = [v for v in scores.values() if v is not None]
    presentation = round(sum((v - 1) / 4 for v in known) / len(known), 4) if known else None
    entailment = []
    for item in raw.get("entailment") or []:
        if isinstance(item, dict) and item.get("sentence") in asked and item.get("verdict") in VERDICTS:
            entailment.append({"sentence": item["sentence"], "verdict": item["verdict"]})
    counts = {v: sum(1 for e in entailment if e["verdict"] == v) for v in VERDICTS}
    return {"presentation": scores, "presentation_score": presentation, "entailment": entailment,
            "entailment_counts": counts}


def describe(judgement: dict) -> str:
    if "error" in judgement:
        return judgement["error"]
    score = judgement.get("presentation_score")
    counts = judgement.get("entailment_counts", {})
    head = f"presentation {score:.2f}" if score is not None else "presentation n/a"
    return head + " · " + ", ".join(f"{n} {v}" for v, n in counts.items())
