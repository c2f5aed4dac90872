"""PDFs printed once and kept: a report's PDF under its id and a digest of the HTML it was
printed from, so a second click, or another visitor opening the shared link, gets the kept
bytes at once and Chromium is not asked again. A folder of files (the source cache's
directory by default, `cache_dir/pdf`), the newest `keep` of them kept: a PDF is made again
from its report when asked after it was dropped, so losing one costs a print, nothing more.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import re
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

KEEP = 64                                  # a few MB each: a bounded folder, not a second store
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclasses.dataclass(frozen=True)
class PdfKey:
    """Which PDF: the report's id and the digest of its HTML (a report written again, or an
    export that changed, is a different document, so it is printed again)."""

    report_id: str
    digest: str

    @classmethod
    def of(cls, report_id: str, document: str) -> PdfKey:
        return cls(report_id, hashlib.sha256(document.encode("utf-8")).hexdigest()[:24])

    @property
    def file_name(self) -> str:
        # The id comes from a link (`?report=`, a share): anything but a plain id is not a file name.
        safe = self.report_id if _SAFE_ID.fullmatch(self.report_id) else "report"
        return f"{safe}-{self.digest}.pdf"


class KeptPdfs:
    """The folder of kept PDFs; reading and writing never raise (a PDF not kept is printed again)."""

    def __init__(self, folder: Path, keep: int = KEEP):
        self.folder = Path(folder).expanduser()
        self.keep = keep

    def get(self, key: PdfKey) -> bytes | None:
        path = self.folder / key.file_name
        try:
            data = path.read_bytes()
            os.utime(path)                 # read recently: kept longest
        except OSError:
            return None
        return data if data.startswith(b"%PDF") else None

    def put(self, key: PdfKey, pdf: bytes) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # A temporary file first, then replace: a reader never sees half a PDF.
            with tempfile.NamedTemporaryFile(dir=self.folder, suffix=".part", delete=False) as part:
                part.write(pdf)
            os.replace(part.name, self.folder / key.file_name)
            self._trim()
        except OSError as exc:
            log.warning("a PDF could not be kept in %s: %s", self.folder, exc)

    def _trim(self) -> None:
        kept = sorted(self.folder.glob("*.pdf"), key=_mtime, reverse=True)
        for old in kept[self.keep:]:
            old.unlink(missing_ok=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
