"""The HTTP API (`python -m finsearch api`): an edge over `finsearch.service` and the pipeline, with
no logic of its own — who calls, their limits, and the service's lines as JSON or Server-Sent Events.
"""
