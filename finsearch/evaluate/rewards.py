"""Reward export: one trajectory per answered question, as JSON Lines an RL trainer can read.

    {"id", "variant", "question", "answer", "correct",
     "components": {"coverage", "grounding", "presentation"?, "tool_penalty"},
     "weights": {…the weights applied…}, "reward",
     "plan": [{"id", "source", "sub_query", "status"}, …]}

Components: `coverage` and `grounding` from the answer's audit (finsearch.answer.audit, 0–1);
`presentation` from the optional LLM judge (0–1; only when the run was judged, `--judge`);
`tool_penalty` from the number of source calls: none −1.0, one or two −0.5, three or more 0.

Reward = Σ w·component. When a quality component (coverage, grounding, presentation) is
missing, it is skipped and the weights of the ones present are scaled up so that together
they keep the total quality weight; the tool penalty is added with its own weight, unscaled.
With the default weights (quality 0.3 + 0.4 + 0.3 = 1, tool 1.0) a reward lies in [−1, 1].
A question with no answer (it failed or timed out) has no trajectory.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import InputError

DEFAULT_WEIGHTS = {"coverage": 0.3, "grounding": 0.4, "presentation": 0.3, "tool": 1.0}
QUALITY = ("coverage", "grounding", "presentation")


def parse_weights(text: str | None) -> dict[str, float]:
    """"coverage=0.3,tool=1" → the default weights with those replaced; InputError when malformed."""
    weights = dict(DEFAULT_WEIGHTS)
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in DEFAULT_WEIGHTS:
            raise InputError(f"unknown reward weight {name!r} (choose from {', '.join(DEFAULT_WEIGHTS)})")
        try:
            number = float(value)
        except ValueError:
            raise InputError(f"reward weight {name} needs a number, as {name}=0.3, not {part.strip()!r}") from None
        if number < 0 or number != number:
            raise InputError(f"reward weight {name} must be zero or positive")
        weights[name] = number
    return weights


def tool_penalty(source_calls: int) -> float:
    """−1.0 for no source call, −0.5 for one or two, 0 for three or more."""
    if source_calls <= 0:
        return -1.0
    if source_calls <= 2:
        return -0.5
    return 0.0


def components(row: dict) -> dict | None:
    """The reward components of one result row, or None when it has no answer to reward."""
    if not row.get("answer") or row.get("source_calls") is None:
        return None
    audit = row.get("audit") or {}
    out = {name: audit.get(name) for name in ("coverage", "grounding") if audit.get(name) is not None}
    if row.get("presentation") is not None:
        out["presentation"] = row["presentation"]
    out["tool_penalty"] = tool_penalty(int(row["source_calls"]))
    return out


def applied_weights(parts: dict, weights: dict[str, float]) -> dict[str, float]:
    """The weight each present component gets (quality weights renormalised, see the docstring)."""
    present = [q for q in QUALITY if q in parts]
    total = sum(weights[q] for q in QUALITY)
    given = sum(weights[q] for q in present)
    scale = total / given if given else 0.0
    out = {q: weights[q] * scale for q in present}
    out["tool_penalty"] = weights["tool"]
    return out


def reward(parts: dict, weights: dict[str, float]) -> float:
    applied = applied_weights(parts, weights)
    return round(sum(applied[name] * parts[name] for name in applied), 6)


def trajectory(row: dict, weights: dict[str, float]) -> dict | None:
    parts = components(row)
    if parts is None:
        return None
    return {"id": row["id"], "variant": row.get("variant"), "question": row.get("question"),
            "answer": row["answer"], "correct": row.get("correct"), "components": parts,
            "weights": {k: round(w, 6) for k, w in applied_weights(parts, weights).items()},
            "reward": reward(parts, weights),
            "plan": row.get("plan") or []}


def write(path: Path, rows: list[dict], weights: dict[str, float]) -> int:
    """Write the trajectories of `rows` to `path` (replacing it); how many were written."""
    path = Path(path).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            item = trajectory(row, weights)
            if item is not None:
                handle.write(json.dumps(item, ensure_ascii=False) + "\n")
                written += 1
    return written
