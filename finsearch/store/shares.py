"""Share links as capabilities: an unguessable token that maps to what its owner shared.

    ?s=<token>            a read-only view of the run (or the snapshot of a conversation) behind it
    research?s=<token>    a read-only view of the deep-research report behind it

A token is 192 random bits from `secrets` (well past the 128 a guess must beat), made only
when the owner presses Share, and revoked by its owner from History. It names nothing else:
the view behind a token shows the runs in `run_ids` and no other run of their owner. A
conversation is shared as a snapshot, the run ids it had when it was shared; what is asked
afterwards stays private.

Both run stores keep shares (`share`, `shared`, `shares`, `revoke`); this module holds what
they have in common.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from typing import Literal

from ..surrogates import replace_lone

SHARE_BYTES = 24                          # 192 bits → 32 URL-safe characters (a valid store id)

ShareKind = Literal["run", "conversation", "report"]


@dataclasses.dataclass(frozen=True)
class Share:
    token: str
    kind: ShareKind
    run_ids: tuple[str, ...]              # what the link shows, in order (a report: its id)
    owner: str
    question: str                         # the first question, for History's list of links
    created: float                        # epoch seconds

    def to_json(self) -> str:
        # A lone surrogate in the question would make the link unsaveable (`finsearch.surrogates`).
        return replace_lone(json.dumps({**dataclasses.asdict(self), "run_ids": list(self.run_ids)},
                                       ensure_ascii=False))


def new_share_token() -> str:
    return secrets.token_urlsafe(SHARE_BYTES)


def share_from_json(text: str | bytes | None) -> Share | None:
    """A stored share back, or None when it is damaged (a damaged link is a missing link)."""
    if text is None:
        return None
    try:
        raw = json.loads(text)
        share = Share(str(raw["token"]), raw["kind"], tuple(str(i) for i in raw["run_ids"]), str(raw["owner"]),
                      str(raw.get("question", "")), float(raw["created"]))
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    return share if share.kind in ("run", "conversation", "report") else None
