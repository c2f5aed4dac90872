"""Where watchlists are kept: files under the data directory, or Redis when one is configured.

    watchlists/<watchlist_id>.json     one watchlist (`Watchlist.to_json`), owner inside

`open_watchlists(settings)` picks the backend as `store.open_store` does. Both take the owner on
every call that reads or changes one watchlist: another owner's is not there (None, False), so a
guessed id reveals nothing. `every()` (all owners) is for the scheduler alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..settings import Settings
from ..store.run_files import _write_json
from ..store.runs import valid_id
from .watchlist import Watchlist, parse_watchlist


class Watchlists(Protocol):
    def save(self, watchlist: Watchlist) -> None: ...
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
