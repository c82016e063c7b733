"""A transcript's errata sheet (issue 37): the witness's corrections, each to a page:line ("Page 4, Line 17:
'myself' should read 'my supervisor'. Reason: misheard"), read so that the corrected reading can be shown beside
the original and verify_draft can say which one a quotation matched. Only what the sheet prints: a row whose
page and line cannot be read is left out. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.chunk.pinpoints import PageText

# The sheet's heading: "ERRATA SHEET", "E R R A T A", "Errata"
_HEADING = re.compile(r"(?im)^[ \t]*(?:\d{1,2}[ \t]+)?E[ \t]?R[ \t]?R[ \t]?A[ \t]?T[ \t]?A\b")
# "Page 4, Line 17: ..." / "PAGE 4 LINE 17 CHANGE: ... REASON: ..." / "4:17 ..." / "4   17   ..." (a table), after
# the sheet's own row number when it prints one
_ENTRY = re.compile(
    r"^[ \t]*(?:\d{1,2}[ \t]+)?(?:page[ \t]*(?P<p1>\d{1,4})[ \t]*[,;]?[ \t]*line[ \t]*(?P<l1>\d{1,2})"
    r"|(?P<p2>\d{1,4}):(?P<l2>\d{1,2})"
    r"|(?P<p3>\d{1,4})[ \t]{2,}(?P<l3>\d{1,2})(?=[ \t]{2,}))"
    r"[ \t]*[:.,-]?[ \t]*(?:change[ \t]*:?[ \t]*)?(?P<change>.+?)"
    r"(?:[ \t]*(?:reason|because)[ \t]*:?[ \t]*(?P<reason>.*))?$", re.IGNORECASE)
_QUOTED = re.compile(r"[\"\u201c']([^\"\u201d']+)[\"\u201d']")
_SHOULD_READ = re.compile(r"(?:should\s+read|to\s+read|change\s+to|replace\s+with|->|\u2192|\bto\b)\s*:?\s*(.+)$",
                          re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Correction:
    """One row of an errata sheet: the transcript's `page`:`line`, the change as printed, the reading it gives
    (`corrected`, where the sheet says "should read ..."), the words it replaces (`original`, where quoted), the
    reason; `file_page` the sheet's page in the file."""

    page: int
    line: int
    change: str
    corrected: str | None
    original: str | None
    reason: str | None
    file_page: int

    @property
    def pin(self) -> str:
        return f"{self.page}:{self.line}"


def corrections(pages: Sequence[PageText]) -> list[Correction]:
    """The corrections of every errata sheet in a document's pages, in order (none when it has no sheet)."""
    out: list[Correction] = []
    for page in sorted(pages, key=lambda p: p.number):
        heading = _HEADING.search(page.text)
        if heading is None:
            continue
        for line in page.text[heading.end():].split("\n"):
            found = _entry(line, page.number)
            if found is not None:
                out.append(found)
    return out


def _entry(line: str, file_page: int) -> Correction | None:
    match = _ENTRY.match(line)
    if match is None:
        return None
    page = match.group("p1") or match.group("p2") or match.group("p3")
    row = match.group("l1") or match.group("l2") or match.group("l3")
    change = match.group("change").strip()
    if not change or not 1 <= int(row) <= 40:
        return None
    quoted = _QUOTED.findall(change)
    reads = _SHOULD_READ.search(change)
    corrected = (_QUOTED.findall(reads.group(1)) or [reads.group(1).strip(" .")])[0] if reads else None
    original = quoted[0] if quoted and reads and quoted[0] != corrected else None
    reason = (match.group("reason") or "").strip(" .") or None
    return Correction(int(page), int(row), change, corrected, original, reason, file_page)


def correction_of(found: Sequence[Correction], page: int, first: int, last: int) -> list[Correction]:
    """The corrections to rows `first`-`last` of transcript page `page`."""
    return [c for c in found if c.page == page and first <= c.line <= last]
