"""Reading EDGAR's XML forms (Form 4's `ownershipDocument`, 13F's `informationTable`) by the
local names of their elements, so a namespace or a filer's own prefix (`ns1:infoTable`) does
not matter.

Parsed with defusedxml, DTDs refused: EDGAR's forms declare none, and a DTD is where an entity
bomb (billion laughs) or an external entity (`file:///etc/passwd`, a URL) would be declared.
The stdlib's expat only refuses a bomb past its amplification limit, and still expands smaller
ones. A document with a DTD is Unreachable, like any document that is not the form.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from ...errors import Unreachable
from .adapter import SEC


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].split(":")[-1]


def parse(content: bytes | str, root: str, what: str) -> ET.Element:
    """The document's root element, which must be `root`; else Unreachable naming `what`
    (a changed or broken answer is never "no data")."""
    try:
        element = fromstring(content.strip(), forbid_dtd=True)     # EDGAR's files may open with a blank line
    except DefusedXmlException as exc:
        raise Unreachable(f"{SEC.name} served {what} with a document type declaration (DTD), which "
                          "no EDGAR form has; it was not read") from exc
    except ET.ParseError as exc:
        raise Unreachable(f"{SEC.name} served {what} that is not well-formed XML ({exc})") from exc
    if local(element.tag) != root:
        raise Unreachable(f"{SEC.name} served {what} that is not an {root} (its root is {local(element.tag)})")
    return element


def children(element: ET.Element | None, name: str) -> list[ET.Element]:
    return [c for c in element if local(c.tag) == name] if element is not None else []


def child(element: ET.Element | None, *path: str) -> ET.Element | None:
    for name in path:
        element = next(iter(children(element, name)), None)
        if element is None:
            return None
    return element


def text(element: ET.Element | None, *path: str) -> str | None:
    """The stripped text at `path` below `element`; Form 4 wraps most values in <value>, which
    is read through when the path ends above it."""
    found = child(element, *path)
    if found is None:
        return None
    value = child(found, "value")
    raw = (value if value is not None else found).text
    return raw.strip() if raw and raw.strip() else None


def number(element: ET.Element | None, *path: str) -> float | None:
    raw = text(element, *path)
    try:
        return float(raw.replace(",", "")) if raw is not None else None
    except ValueError:
        return None
