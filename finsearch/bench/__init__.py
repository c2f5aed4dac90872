"""The performance benchmark: `python -m finsearch.bench [--json]` (see cli.py)."""
