"""Checking one quotation against the case: at the cited place, anywhere in the case, or close to it.

In that order: the exact words (after the allowed normalisation, keys.py; ellipses and brackets as
pattern.py reads them) at the place the citation names make it `verified`; the exact words elsewhere
`wrong_location`; a passage sharing most of its words `differs`, with the words that differ; nothing,
`not_found`. Only an exact match ever verifies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from casetrack.domain import Document
from casetrack.verify.align import align, looks_like_ocr_misreading
from casetrack.verify.case_view import CaseView, Outcome, Region, place_of
from casetrack.verify.errata import with_errata
from casetrack.verify.index import Candidate
from casetrack.verify.keys import words
from casetrack.verify.model import Difference, Place, Status
from casetrack.verify.pattern import QuotePattern, QuoteWord
from casetrack.verify.window import Window

MIN_SIMILARITY = 0.6  # a passage holding fewer of a quotation's words is not the passage it misquotes
MIN_RUN = 3  # ... and it must hold at least this many of them in a row (or all of a shorter quotation)
# A quotation of more runs of words keeps enough fingerprints; each run looked up is a pass over the case's text
# (~25 ms for a 26 MB case at load 9)
MAX_WORD_RUNS = 16
MIN_RUN_KEY = 8  # letters a run of words looked up whole must spell (`_word_runs`), lest it be found everywhere
ALIGN_MARGIN = 400  # characters of the page read on either side of where the index places a quotation
CANDIDATE_PAGES = 5
WEAK_VOTES = 3  # a candidate page with a third of the best one's shared runs is not aligned
CLOSE_ENOUGH = 0.9  # a passage at the cited place this close ends the search for a closer one
EXACT_PAGE_LIMIT = 200  # pages holding a quotation's longest run that are tried for the whole quotation


def check(pattern: QuotePattern, regions: Sequence[Region], view: CaseView) -> Outcome:
    """The outcome of one quotation cited to `regions` (none: it cites nothing the case holds); where the words
    are in a transcript, the place also names the transcript's page:line ("4:17-18")."""
    outcome = with_errata(_check(pattern, regions, view), pattern, regions, view)
    place = outcome.found
    printed = view.printed_span(place) if place is not None else None
    if place is None or printed is None:
        return outcome
    return replace(outcome, found=replace(place, printed=printed, citation=f"{place.citation}, printed {printed}"))


def _check(pattern: QuotePattern, regions: Sequence[Region], view: CaseView) -> Outcome:
    for region in regions:
        place = _exact_in_region(pattern, region, view)
        if place is not None:
            return Outcome(Status.VERIFIED, place, at_cited_place=True)
    cited_docs = [r.document.id for r in regions]
    place = _exact_in_case(pattern, view, cited_docs)
    if place is not None:
        return Outcome(Status.WRONG_LOCATION, place)
    return _closest(pattern, regions, view)


# --- exact --------------------------------------------------------------------------------------


def _exact_in_region(pattern: QuotePattern, region: Region, view: CaseView) -> Place | None:
    if region.printed:
        stored = view.page_printing(region.document, region.first_page)
        if stored is None:
            return None
        region = Region(region.document, stored, stored + region.last_page - region.first_page)
    first, last = region.first_page - region.slack, region.last_page + region.slack
    window = view.window(region.document, first, last + 1)  # the quotation may run onto the next page
    if not window.parts:
        return None
    lo = 0 if region.slack else window.offset_of(region.first_page, region.start)
    if region.end is None or region.slack:
        hi = _window_end_of(window, min(last, region.document.page_count))
    else:
        hi = window.offset_of(region.last_page, region.end)
    return _search(pattern, window, region.document, lo, hi)


def _window_end_of(window: Window, page: int) -> int:
    """The window offset where `page` ends (the window's end when it is the last)."""
    for number, _, window_offset in window.parts:
        if number > page:
            return window_offset
    return len(window.text)


def _search(pattern: QuotePattern, window: Window, document: Document, lo: int, hi: int) -> Place | None:
    """The first match of the quotation starting at window offsets [lo, hi)."""
    keyed = window.keyed
    origin = keyed.origin
    for m in pattern.regex.finditer(keyed.key, keyed.key_at(lo)):
        if origin[m.start()] >= hi:
            return None
        if m.end() > m.start():
            start, end = keyed.span(m.start(), m.end())
            return place_of(window, document, *_whole_words(window.text, start, end))
    return None


def _exact_in_case(pattern: QuotePattern, view: CaseView, cited_docs: Sequence[str]) -> Place | None:
    """The quotation's exact words anywhere in the case, the cited documents first. The pages holding its longest
    run are tried on their stored keys (with the pages either side, for an ellipsis reaching over) and read only
    where those match. (A run broken by a page break and its furniture is found only where it is cited.)"""
    runs = pattern.literal_keys
    if not runs:
        return None
    keys = view.keys
    pages = keys.find_all(runs[0].encode("ascii"), EXACT_PAGE_LIMIT)
    entries = keys.pages
    pages.sort(key=lambda p: (entries[p].document_id not in cited_docs, p))
    for index in pages:
        entry = entries[index]
        around = [i for i in (index - 1, index, index + 1)
                  if 0 <= i < len(entries) and entries[i].document_id == entry.document_id]
        if pattern.regex.search(b"".join(keys.page_key(i) for i in around).decode("ascii")) is None:
            continue  # not even with the page furniture between pages left in: not here
        document = view.documents.get(entry.document_id)
        if document is None:
            continue
        window = view.window(document, entry.number - 1, entry.number + 1)
        place = _search(pattern, window, document, 0, _window_end_of(window, entry.number))
        if place is not None:
            return place
    return None


# --- close ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Near:
    place: Place
    similarity: float
    changes: tuple[tuple[tuple[QuoteWord, ...], tuple[str, ...]], ...]
    at_cited_place: bool


def _closest(pattern: QuotePattern, regions: Sequence[Region], view: CaseView) -> Outcome:
    runs = [p for seg in pattern.segments for p in seg if isinstance(p, str)]
    cited = {(r.document.id, n) for r in regions if not r.printed
             for n in range(r.first_page - r.slack, r.last_page + r.slack + 1)}
    aligned: list[Candidate] = []
    best = _best_near(pattern, view, cited, view.keys.candidates(runs, CANDIDATE_PAGES), aligned)
    runs_of_words, length = _word_runs(pattern)
    if (best is None or best.similarity < MIN_SIMILARITY) and len(runs_of_words) <= MAX_WORD_RUNS:
        # A short quotation keeps few fingerprints, and its changed word ("within 60 days") may take them all:
        # its runs of words, looked up whole, find the passage (where it was not aligned already).
        found = _best_near(pattern, view, cited, [
            c for c in view.keys.run_candidates(runs_of_words, length, CANDIDATE_PAGES)
            if not any(a.page == c.page and a.key_start - ALIGN_MARGIN // 2 <= c.key_start
                       and c.key_end <= a.key_end + ALIGN_MARGIN // 2 for a in aligned)])  # (key letters: fewer)
        if found is not None and (best is None or found.similarity > best.similarity):
            best = found
    if best is None or best.similarity < MIN_SIMILARITY:
        return Outcome(Status.NOT_FOUND, similarity=None if best is None else round(best.similarity, 2))
    differences = tuple(Difference(" ".join(w.text for w in q), " ".join(s)) for q, s in best.changes)
    ocr = best.place.ocr and all(looks_like_ocr_misreading(tuple(w.key for w in q), s) for q, s in best.changes)
    return Outcome(Status.DIFFERS, best.place, differences, round(best.similarity, 2), ocr, best.at_cited_place)


def _best_near(pattern: QuotePattern, view: CaseView, cited: set[tuple[str, int]], candidates: Sequence[Candidate],
               aligned: list[Candidate] | None = None) -> _Near | None:
    """The closest alignment of the quotation among the candidate pages (those at the cited place winning ties);
    the candidates aligned are added to `aligned`."""
    best: _Near | None = None
    for candidate in candidates:
        if candidate.votes * WEAK_VOTES < candidates[0].votes:
            break  # shares far fewer of the quotation's runs than the best page: not where it came from
        if best is not None and best.similarity >= CLOSE_ENOUGH and best.at_cited_place:
            break
        entry = view.keys.pages[candidate.page]
        document = view.documents.get(entry.document_id)
        if document is None:
            continue
        near = _near(pattern, view, document, entry.number, candidate.key_start, candidate.key_end,
                     (entry.document_id, entry.number) in cited)
        if aligned is not None:
            aligned.append(candidate)
        if near is not None and (best is None or (near.similarity, near.at_cited_place) >
                                 (best.similarity, best.at_cited_place)):
            best = near
    return best


def _word_runs(pattern: QuotePattern) -> tuple[list[tuple[str, int]], int]:
    """Each run of MIN_RUN words of the quotation that no bracket altered (longer where those spell fewer than
    MIN_RUN_KEY letters: "a. no." is everywhere), as a literal key with its offset in the quotation's key; and
    that key's length."""
    runs: list[tuple[str, int]] = []
    at = 0
    for segment in pattern.words:
        starts = [at]
        for word in segment:
            starts.append(starts[-1] + len(word.key))
        for first in range(len(segment)):
            last = first + MIN_RUN
            while last < len(segment) and starts[last] - starts[first] < MIN_RUN_KEY:
                last += 1
            if last > len(segment) or any(w.altered for w in segment[first:last]):
                continue
            runs.append(("".join(w.key for w in segment[first:last]), starts[first]))
        at = starts[-1]
    return runs, at


def _near(pattern: QuotePattern, view: CaseView, document: Document, page: int, key_start: int, key_end: int,
          at_cited: bool) -> _Near | None:
    """The quotation aligned word by word with the stretch of `page` (and the next) the index pointed to."""
    window = view.window(document, page, page + 1)
    if not window.parts:
        return None
    origin = window.keyed.origin
    if not len(origin):
        return None
    lo = max(0, int(origin[min(key_start, len(origin) - 1)]) - ALIGN_MARGIN)
    hi = int(origin[min(max(key_end, key_start + 1), len(origin)) - 1]) + ALIGN_MARGIN
    source = words(window.read, lo, min(hi, len(window.read)))
    if not source:
        return None
    total = matched = longest = 0
    changes: list[tuple[tuple[QuoteWord, ...], tuple[str, ...]]] = []
    span: list[int] = []
    at = 0
    for segment in pattern.words:
        keys = [w.key for w in segment]
        alignment = align(keys, [k for k, _, _ in source[at:]])
        total += sum(1 for w in segment if not w.altered)
        if alignment is None:
            continue
        matched += sum(1 for w in segment if not w.altered) - _unmatched(segment, alignment.changes)
        longest = max(longest, _longest_run(len(keys), alignment.changes))
        for q_lo, q_hi, s_lo, s_hi in alignment.changes:
            quoted = segment[q_lo:q_hi]
            if quoted and all(w.altered for w in quoted):
                continue  # a bracketed word or phrase: the writer's, accepted unchecked
            changes.append((quoted, tuple(window.text[s:e] for _, s, e in source[at + s_lo:at + s_hi])))
        span += [source[at + alignment.s_start][1], source[at + alignment.s_end - 1][2]]
        at += alignment.s_end
        if at >= len(source):
            break
    if not span or not total:
        return None
    if longest < min(MIN_RUN, total):
        return None
    place = place_of(window, document, min(span), max(span))
    return _Near(place, matched / total, tuple(changes), at_cited)


def _unmatched(segment: Sequence[QuoteWord], changes: Iterable[tuple[int, int, int, int]]) -> int:
    return sum(1 for q_lo, q_hi, _, _ in changes for w in segment[q_lo:q_hi] if not w.altered)


def _longest_run(n: int, changes: Iterable[tuple[int, int, int, int]]) -> int:
    """The longest run of quotation words between changes."""
    longest, at = 0, 0
    for q_lo, q_hi, _, _ in sorted(changes):
        longest = max(longest, q_lo - at)
        at = max(at, q_hi)
    return max(longest, n - at)


# --- places ---------------------------------------------------------------------------------------

_WORD_CHAR = re.compile(r"\w")


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """A match widened to whole words: a bracketed first letter (`[t]he`) left the word's start out."""
    while start > 0 and _WORD_CHAR.match(text[start - 1]):
        start -= 1
    while end < len(text) and _WORD_CHAR.match(text[end]):
        end += 1
    return start, end
