"""A stored conversation whose one run read "SOL" as the listed stock (the question says
"stock") and offers Solana (SOL-USD) as the other reading, as the entity reader records an
ambiguous symbol (`Entity.read_as`, `Entity.alternatives`). The run is made by the real
pipeline on the demo pack. The app tests and the browser test open it with `?c=<conversation>`."""

from __future__ import annotations

import json
from pathlib import Path

from finsearch import pipeline
from finsearch.result import RunResult, new_id
from finsearch.settings import from_env
from finsearch.store import FileRunStore as RunStore
from tests.conftest import DEMO_PACK, NOW

QUESTION = "How is SOL stock doing?"
SOLANA = {"ticker": "SOL-USD", "name": "Solana", "kind": "crypto"}


def seed_ambiguous_sol(data_dir: Path) -> str:
    """Store the run in `data_dir`; returns its conversation id."""
    settings = from_env({}, pack=DEMO_PACK, offline=True, llm="heuristic", data_dir=Path(data_dir),
                        cache_dir=Path(data_dir) / "seed-cache")
    record = pipeline.ask(QUESTION, settings=settings, now=NOW).to_record()
    entity = record["analysis"]["entities"][0]
    assert (entity["ticker"], entity["read_as"], list(entity["alternatives"])) == ("SOL", "context", [SOLANA]), entity
    conversation = new_id()
    RunStore(Path(data_dir)).save(RunResult.from_record(json.loads(json.dumps(record))), conversation)
    return conversation
