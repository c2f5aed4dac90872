"""What the HTTP API and the MCP server share over the pipeline, so neither edge has logic of its own.

A request read and checked (`request`), a run's events as lines (`lines`), a run whose events a
listener receives as they happen (`feed`), a report's progress by section (`report_feed`).
"""
