"""An exchange named where a company files or trades ("Tencent's HKEX filing", "小米港交所公告") is a venue

"hkex announcements for 9988" asks for 9988's documents on HKEXnews. The alias table rightly
reads "HKEX" and "港交所" as the exchange operator's own listing (0388.HK): "how is HKEX doing",
"港交所股价" ask about that stock. Beside a filing word and another company,
the same words name the venue, and the operator is dropped from the question's instruments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, TypeVar


class _Named(Protocol):
    """What this module reads of an entity (entities imports this module, so not Entity itself)."""
    ticker: str | None
    mention: str
    position: int


Named = TypeVar("Named", bound=_Named)

# Operators whose stock the alias table finds under the exchange's own name.
EXCHANGE_OPERATORS = frozenset({"0388.HK"})
# A filing word right after the exchange's name ("HKEX filing", "港交所公告", "hkex announcements"),
# or the exchange after a filing verb and a preposition ("filed with HKEX", "在港交所发布的公告").
_AFTER = re.compile(r"^\W{0,3}(?:'s\s+|’s\s+)?(?:\w+\s+){0,1}(?:filings?|announcements?|disclosures?|notices?"
                    r"|circulars?|documents?|submissions?)\b"
                    r"|^\W{0,2}(?:的|上)?(?:最新|最近)?(?:公告|披露|文件|通告|通函)", re.I)
# A filing word may be the noun ("the latest announcement from HSBC on HKEX"); "on HKEX" beside
# another company is where it trades or files ("HSBC shares on HKEX today").
_BEFORE = re.compile(r"\b(?:filed?|files|filing|filings|posted|published|announced|announcements?|disclosed"
                     r"|disclosures?|submitted|notices?|circulars?|documents?)\b[^.?!]{0,40}"
                     r"\b(?:with|to|via|through)\s+(?:the\s+)?$|\b(?:on|at)\s+(?:the\s+)?$|(?:在|向|于|通过)$", re.I)


def without_filing_venue(found: Sequence[Named], question: str) -> tuple[Named, ...]:
    """`found` less each exchange operator whose words name where another company's documents
    are filed; unchanged when no other company is named (then the operator is the subject)."""
    others = [e for e in found if e.ticker not in EXCHANGE_OPERATORS]
    if not others or len(others) == len(found):
        return tuple(found)
    return tuple(e for e in found if e.ticker not in EXCHANGE_OPERATORS or not _names_venue(e, question))


def _names_venue(entity: _Named, question: str) -> bool:
    start = question.find(entity.mention, entity.position) if entity.mention else -1
    if start < 0:
        return False
    end = start + len(entity.mention)
    return bool(_AFTER.search(question[end:end + 40]) or _BEFORE.search(question[max(0, start - 60):start]))
