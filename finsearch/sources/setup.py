"""Wiring: the data hub a run uses, from its settings."""

from __future__ import annotations

from ..settings import Settings
from .hub import DataHub


def make_hub(settings: Settings) -> DataHub:
    """A hub over the replay pack (when set). Live adapters and the cache plug in here."""
    return DataHub(settings)
