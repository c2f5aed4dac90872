"""Legal forms of company names (Inc, Corp, AG, SE, NV, PLC, SA, SpA, Ltd, Co …), and names without them

A name as compared leaves them out, for the readers of legal names and of the bundled index
companies."""

from __future__ import annotations

import re
import unicodedata

# Each form, with its dotted spellings; the ones that are everyday words in lower case ("as",
# "co") count only as written by a company (AS, Co).
_FORMS = (r"Inc|Incorporated|Corp|Corporation|Company|Companies|Ltd|Limited|LLC|L\.L\.C|LLP|PLC|P\.L\.C|AG|SE|NV"
          r"|N\.V|SA|S\.A|SpA|S\.p\.A|SAS|ASA|A/S|Oyj|GmbH|KGaA|Holdings?|Group")
_CASED_FORMS = r"Co|Cos|AS|AB|KK|K\.K|BV|B\.V|LP|L\.P|NL|Bhd|Berhad|Tbk|Pty|Pte"
FORM = rf"(?:(?i:{_FORMS})|{_CASED_FORMS})\.?"
FORM_WORD = re.compile(rf"{FORM}(?![A-Za-z0-9/])")


def core(name: str) -> str:
    """A company's name as compared: accents, punctuation, legal forms and case left out
    ("Nestlé SA" → "nestle", "ASML Holding N.V." → "asml")."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    plain = re.sub(r"\([^)]*\)", " ", plain)
    words = re.sub(r"[,’'`]", " ", plain).split()
    while len(words) > 1 and FORM_WORD.fullmatch(words[-1]):
        words.pop()
    return " ".join(w.strip(".").lower() for w in words if w.strip("."))
