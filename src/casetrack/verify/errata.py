"""A quotation of a transcript row its errata sheet corrects (issue 37): which reading it matches. A quotation
verified at the cited rows matches the original, and the report says the sheet changes them; one that does not
is tried against the rows as corrected (each correction's original words replaced by its reading, in its row),
and where that matches it is verified with the sheet's correction named. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from casetrack.chunk.transcripts.errata import Correction
from casetrack.verify.case_view import CaseView, Outcome, Region, place_of
from casetrack.verify.keys import KeyedText
from casetrack.verify.model import Status
from casetrack.verify.pattern import QuotePattern


def with_errata(outcome: Outcome, pattern: QuotePattern, regions: Sequence[Region], view: CaseView) -> Outcome:
    """`outcome` with what the errata sheet of the cited transcript says of the cited rows."""
    for region in regions:
        found = view.corrected_rows(region)
        if not found:
            continue
        changes = "; ".join(f"{c.pin}: {c.change}" for c, _ in found)
        if outcome.status is Status.VERIFIED:
            return replace(outcome, note=f"It matches the transcript as printed; its errata sheet changes {changes}.")
        corrected = _corrected_match(pattern, region, found, view)
        if corrected is not None:
            return replace(corrected, note=f"It matches the reading of the transcript's errata sheet ({changes}), "
                                            "not the transcript as printed.")
    return outcome


def _corrected_match(pattern: QuotePattern, region: Region, found: Sequence[tuple[Correction, tuple[int, int, int]]],
                     view: CaseView) -> Outcome | None:
    window = view.window(region.document, region.first_page, region.last_page)
    if not window.parts:
        return None
    text = window.read
    for correction, (file_page, start, end) in sorted(found, key=lambda f: -f[1][1]):  # last first: offsets hold
        if correction.original is None or correction.corrected is None:
            continue
        span = _in_window(window.parts, (file_page, start, end))
        if span is None:
            continue
        at = text.find(correction.original, *span)
        if at >= 0:
            text = text[:at] + correction.corrected + text[at + len(correction.original):]
    keyed = KeyedText.of(text)
    match = pattern.regex.search(keyed.key)
    if match is None or match.end() == match.start():
        return None
    spans = [_in_window(window.parts, where) for _, where in found]
    rows = [s for s in spans if s is not None]
    if not rows:
        return None
    # cited where the corrected rows are (the corrected text's offsets are not the page's)
    place = place_of(window, region.document, min(lo for lo, _ in rows), max(hi for _, hi in rows))
    return Outcome(Status.VERIFIED, place, at_cited_place=True)


def _in_window(parts: Sequence[tuple[int, int, int]], where: tuple[int, int, int]) -> tuple[int, int] | None:
    """The window offsets of a row (file page, start, end)."""
    file_page, start, end = where
    lo = next((w + start - p for n, p, w in parts if n == file_page and p <= start), None)
    return None if lo is None else (lo, lo + end - start)
