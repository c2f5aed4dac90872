"""Deep research reports: an outline before any fetching, research by section on the same
engine (make_plan, Executor, time weighting), one numbered set of references for the whole
report, and the answer audit run over every section (see docs/ARCHITECTURE.md)."""
