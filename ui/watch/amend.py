"""One change of the visitor's watchlist from the Watchlist page (its alerts, its channels), saved in one atomic
step of the store (`Watchlists.update`), the outcome said in the visitor's language, never raised.

The change may refuse what was typed with an InputError (its message is the visitor's); it may also run twice
(Redis retries it when another change landed meanwhile), so it computes and does nothing else.
"""

from __future__ import annotations

from collections.abc import Callable

from finsearch.errors import InputError, StoreUnavailable
from finsearch.phrases import Language, say
from finsearch.watch.mine import default_id
from finsearch.watch.watchlist import Watchlist
from ui.watch import mine


def amend(owner: str, change: Callable[[Watchlist], Watchlist], language: Language) -> tuple[Watchlist | None, str]:
    """`owner`'s watchlist with `change` made and saved: (the watchlist kept, "") or (None, what to tell them)."""
    try:
        kept = mine.watchlists().update(default_id(owner), owner,
                                        lambda current: change(current) if current is not None else None)
    except InputError as exc:
        return None, str(exc)
    except (StoreUnavailable, OSError, ValueError) as exc:
        why = str(exc) if isinstance(exc, StoreUnavailable) else None
        return None, say("ui.watch.not_saved", language, why=why) if why else say("ui.watch.not_saved_plain", language)
    if kept is None:
        return None, say("ui.watch.none_yet", language)
    return kept, ""
