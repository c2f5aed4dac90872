"""A stored run or report opened by its id for whoever asks, by the app's rules: a run is its
owner's (or anyone's when it was saved before there were identities), a report only its owner's.
Another's is "not found", never "forbidden": an id reveals nothing about whose it is."""

from __future__ import annotations

from ..store.runs import RecordKind, RunStore, Stored, valid_id


def may_open(kind: RecordKind, saved_by: str | None, owner: str) -> bool:
    """May `owner` open a record of `kind` that `saved_by` saved?"""
    return saved_by == owner or (kind == "run" and saved_by is None)


def stored(store: RunStore, kind: RecordKind, record_id: str, owner: str) -> Stored | None:
    """The run or report `record_id` when `owner` may open it, else None. Raises StoreUnavailable
    when the store cannot be reached (down is not "not found")."""
    if not valid_id(record_id):
        return None
    found = store.load(record_id, kind)
    return found if found is not None and may_open(kind, store.owner_of(record_id), owner) else None
