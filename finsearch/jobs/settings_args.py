"""The asker's own settings, carried to the job that works for them: what a visitor changed on the
settings page (time weighting off, a longer deadline, a replay pack, another model server) as JSON,
laid over the worker's settings. Never a secret: a visitor's own API key or SEC contact would be kept
in Redis with the job, so settings holding one — or any change no job carries — are no job's
(`settings_args` answers None, and the caller runs that work itself)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..settings import Settings

CARRIED = ("llm", "model", "base_url", "deadline_s", "answer_due_s", "window_hours", "time_weighting", "rewriter",
           "judge", "research_approve_s", "disabled_sources", "offline", "pack", "candle_colours",
           "visitor_endpoint", "visitor_key", "model_guard")
_BACK = {"pack": lambda value: Path(value) if value else None, "disabled_sources": frozenset}


def settings_args(server: Settings, mine: Settings) -> dict | None:
    """What `mine` changes of `server`, as JSON; None when a change may not (or cannot) go with a job."""
    changed = {}
    for field in dataclasses.fields(Settings):
        value = getattr(mine, field.name)
        if value == getattr(server, field.name):
            continue
        if field.name not in CARRIED:
            return None
        changed[field.name] = _json(value)
    return changed


def with_settings_args(settings: Settings, args: dict) -> Settings:
    """`settings` with the changes `settings_args` carried (others are not read)."""
    carried = {name: _BACK.get(name, lambda value: value)(value) for name, value in args.items() if name in CARRIED}
    return settings.replace(**carried)


def _json(value):
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, frozenset):
        return sorted(value)
    return value
