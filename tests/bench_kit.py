"""One run of the whole benchmark, shared by the tests that read it (`test_bench`, and
`test_bench_bounded` for its bounded runs): it takes half a minute, and its figures do not
change by being read twice."""

import contextlib
import functools
import io
import json

from finsearch.bench import cli

DEADLINE_S = 6
# A fast cooperative model and sources (a model call, 40 ms + tokens, always outlasts a source
# call, 10 ms, as with real models), a 1 s model-call timeout and a 1.5 s stall window.
FAST = ["--ttft-ms", "40", "--tokens-per-s", "4000", "--source-delay-ms", "10",
        "--deadline-s", str(DEADLINE_S), "--llm-timeout-s", "1", "--stream-stall-s", "1.5"]


@functools.cache
def full_run() -> tuple[tuple[str, ...], dict]:
    """What `python -m finsearch.bench --json` printed with the fast limits: its lines, and the JSON."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        cli.main(["--json", *FAST])
    lines = tuple(printed.getvalue().strip().splitlines())
    return lines, json.loads(lines[-1])
