"""Where watchlists are kept: files under the data directory, or Redis when one is configured.

    watchlists/<watchlist_id>.json     one watchlist (`Watchlist.to_json`), owner inside

`open_watchlists(settings)` picks the backend as `store.open_store` does. Both take the owner on
every call that reads or changes one watchlist: another owner's is not there (None, False), so a
guessed id reveals nothing. `every()` (all owners) is for the scheduler alone.

A change to a watchlist that exists goes through `update(id, owner, change)`: the read, the change
and the save are one step (a lock file here, WATCH/MULTI in Redis), so a visitor's edit and the
scheduled brief's mark, landing at once, both stay — a plain read-then-`save` of the whole record
would lose whichever was saved first. `save` is for a watchlist made whole (a new one).
"""

from __future__ import annotations

import fcntl
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..settings import Settings
from ..store.run_files import _write_json
from ..store.runs import valid_id
from .watchlist import Watchlist, parse_watchlist

# A change to a stored watchlist: given the owner's watchlist as it is now (None: there is none), the one to
# keep — the same object to leave it as it is, None to delete it. It may be called more than once (in Redis,
# again when another change landed meanwhile), so it computes and does nothing else.
Change = Callable[[Watchlist | None], Watchlist | None]


class Watchlists(Protocol):
    def save(self, watchlist: Watchlist) -> None: ...
    def update(self, watchlist_id: str, owner: str, change: Change) -> Watchlist | None: ...
    def get(self, watchlist_id: str, owner: str) -> Watchlist | None: ...
    def mine(self, owner: str) -> list[Watchlist]: ...
    def delete(self, watchlist_id: str, owner: str) -> bool: ...
    def every(self) -> list[Watchlist]: ...


def open_watchlists(settings: Settings) -> Watchlists:
    """The watchlists these settings name. Opening never contacts Redis; the first call does."""
    if settings.redis_url:
        from .lists_redis import RedisWatchlists  # the redis client only when it is used

        return RedisWatchlists(settings.redis_url)
    return FileWatchlists(settings.data_dir)


class FileWatchlists:
    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir).expanduser() / "watchlists"

    def save(self, watchlist: Watchlist) -> None:
        _write_json(self.folder / f"{watchlist.watchlist_id}.json", watchlist.to_json())

    def update(self, watchlist_id: str, owner: str, change: Change) -> Watchlist | None:
        """Apply `change` to `owner`'s watchlist `watchlist_id` under its lock; the watchlist kept (None: none).
        Another owner's watchlist under this id is neither shown to `change` nor touched."""
        if not valid_id(watchlist_id):
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / f"{watchlist_id}.lock").open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)                # released when the file closes
            stored = self._read(watchlist_id)
            if stored is not None and stored.owner != owner:
                return None
            kept = change(stored)
            if kept is stored:
                return stored
            if kept is None:
                (self.folder / f"{watchlist_id}.json").unlink(missing_ok=True)
                return None
            if kept.watchlist_id != watchlist_id or kept.owner != owner:
                raise ValueError("a change keeps the watchlist's id and owner")
            self.save(kept)
            return kept

    def _read(self, watchlist_id: str) -> Watchlist | None:
        if not valid_id(watchlist_id):
            return None
        try:
            return parse_watchlist((self.folder / f"{watchlist_id}.json").read_text("utf-8"))
        except OSError:
            return None

    def get(self, watchlist_id: str, owner: str) -> Watchlist | None:
        found = self._read(watchlist_id)
        return found if found is not None and found.owner == owner else None

    def mine(self, owner: str) -> list[Watchlist]:
        return [w for w in self.every() if w.owner == owner]

    def delete(self, watchlist_id: str, owner: str) -> bool:
        if self.get(watchlist_id, owner) is None:
            return False
        try:
            (self.folder / f"{watchlist_id}.json").unlink()
        except OSError:
            return False
        return True

    def every(self) -> list[Watchlist]:
        found = []
        for path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else ():
            try:
                watchlist = parse_watchlist(path.read_text("utf-8"))
            except OSError:                    # deleted meanwhile
                continue
            if watchlist is not None:
                found.append(watchlist)
        return found
