"""Stored runs, under the names the app and the tests have always imported.

The store itself lives in `finsearch.store` (the interface in `store.runs`, files in
`store.run_files`, Redis in `store.run_redis`); `RunStore(data_dir)` here is the file backend.
"""

from __future__ import annotations

from .store import FileRunStore as RunStore
from .store import RunSummary, open_store, valid_id

__all__ = ["RunStore", "RunSummary", "open_store", "valid_id"]
