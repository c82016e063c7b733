"""What a chunk boundary may never cut: citations, statutes, rules, section references, defined
terms and inline clause titles, each a pattern whose matches are `protected_spans` of a page.

Cutting "42 U.S.C. § 1983" or "Acme Corp. ("Licensee")" in two would leave each half unsearchable
and uncitable. Everything here is regex scans over the page: linear in its length, no recursion.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_REPORTER = (
    r"(?:U\.\s?S\.|S\.\s?Ct\.|L\.\s?Ed\.(?:\s?2d)?|F\.(?:\s?(?:2d|3d|4th))?|F\.\s?Supp\.(?:\s?(?:2d|3d))?"
    r"|F\.\s?App'x|B\.R\.|A\.(?:2d|3d)|P\.(?:2d|3d)|N\.[EW]\.(?:2d|3d)?|S\.[EW]\.(?:2d)?|So\.(?:\s?[23]d)?"
    r"|Cal\.(?:\s?App\.)?(?:\s?\d(?:d|th))?|N\.Y\.(?:S\.)?(?:\s?\d(?:d|th))?)"
)
_PARENS = r"(?:\s*\([^()]{0,80}\))?"  # (1st Cir. 2021), possibly wrapped over lines
_CASE_NAME = (
    r"(?:[A-Z][\w'&.-]*,?\s+){0,4}[A-Z][\w'&.-]*\s+v\.\s+(?:(?!No\.)[A-Z&][\w'&.-]*,?\s+){0,4}(?!No\.)[A-Z&][\w'&.-]*"
)
_REPORTER_CITE = rf"\d\d{{0,3}}\s+{_REPORTER}\s+\d{{1,6}}(?:,\s*\d{{1,6}})*{_PARENS}"
_WESTLAW_CITE = rf"\d\d{{3}}\s+(?:WL|U\.S\.\s?(?:App\.|Dist\.)\s?LEXIS)\s+\d{{1,9}}(?:,\s*at\s*\*?\d+)?{_PARENS}"


@dataclass(frozen=True, slots=True)
class Protector:
    """A pattern whose matches may not be cut. With an `anchor`, the pattern is only
    tried in a window around each anchor hit: the regex engine finds the rare anchor
    fast, where the full pattern (optional leading words) would be tried at every
    offset of the page. `needs` skips the pattern when a page cannot contain it."""

    pattern: re.Pattern[str]
    anchor: re.Pattern[str] | None = None
    before: int = 0  # window reach before / after an anchor hit, in characters
    after: int = 0
    needs: tuple[str, ...] = ()  # substrings one of which must occur, or the pattern is skipped


def _protector(
    pattern: str, anchor: str | None = None, before: int = 0, after: int = 0, needs: tuple[str, ...] = ()
) -> Protector:
    return Protector(re.compile(pattern), re.compile(anchor) if anchor else None, before, after, needs)


PROTECTORS = (
    # Miranda v. Arizona, 384 U.S. 436 (1966); United States v. Qin, No. 21-1832, 2023 WL 128600 (...)
    _protector(
        rf"{_CASE_NAME}(?:,\s+(?:No\.\s*[\w.:-]+,\s+)?(?:_*[\w.]*_*,\s+)?(?:{_REPORTER_CITE}|{_WESTLAW_CITE}))?",
        anchor=r"\sv\.\s",
        before=120,
        after=260,
        needs=("v.",),
    ),
    _protector(_REPORTER_CITE, anchor=r"\d\s+[A-Z]", before=6, after=140),
    _protector(_WESTLAW_CITE, anchor=r"\b(?:WL|LEXIS)\b", before=30, after=140, needs=("WL", "LEXIS")),
    # 42 U.S.C. § 1983(a); 17 C.F.R. § 240.10b-5
    _protector(
        r"\d\d{0,2}\s+(?:U\.\s?S\.\s?C\.(?:\s?A\.)?|C\.\s?F\.\s?R\.|Stat\.)\s*(?:§§?\s*)?[\w.-]+(?:\([\w]{1,4}\))*",
        needs=("C.", "Stat."),
    ),
    # Fed. R. Civ. P. 12(b)(6); Federal Rule of Appellate Procedure 28(j); FRAP 12(a)
    _protector(
        r"(?:Fed(?:eral|\.)\s+R(?:ules?|\.)\s+(?:of\s+)?(?:Civ(?:il|\.)|Crim(?:inal|\.)|App(?:ellate|\.)"
        r"|Evid(?:ence|\.)|Bankr(?:uptcy|\.))\s+(?:P(?:rocedure|\.)\s+)?|FRAP\s+|FRCP\s+)\d{1,3}(?:\([\w]{1,4}\))*",
        needs=("Fed", "FRAP", "FRCP"),
    ),
    # Section 8.1 / § 4.2(a) / ARTICLE V / Rule 12(b)(6), with the word that follows unless a "." ends the sentence
    # (Each word is spelled "first letter, then not after a word character, then the rest", and
    # the inline clause number below "digit, then not after ...": a pattern that opens with a
    # character set lets the regex engine skip to candidates in C instead of trying every offset.)
    _protector(
        r"(?:S(?<!\wS)(?:ections?|ECTIONS?|ecs?\.|chedules?)|A(?<!\wA)(?:rticles?|RTICLES?|rt\.)"
        r"|P(?<!\wP)(?:aragraphs?|ara\.)|C(?<!\wC)lauses?|R(?<!\wR)ules?|E(?<!\wE)(?:xhibits?|XHIBITS?)"
        r"|N(?<!\wN)(?:o\.|os\.)|§§?|¶¶?)\s*"
        r"(?:[\dIVXLC]{1,6}[A-Za-z]?(?:[.-]\d{1,4})*(?:\([\w]{1,4}\))*)(?:[:,]?\s+[^\s]+)?"
    ),
    # Acme Corp. ("Licensee"), (the “Agreement”), with the name (or the word) before it
    _protector(
        r"(?:(?:(?:[A-Z][\w.,&'’-]*|of|and|&)\s+){1,4}|\S+\s+)?"
        r"\(\s*(?:the\s+|each,?\s+an?\s+|an?\s+|hereinafter\s+)?[\"“'‘][^\"”’\n]{1,80}[\"”'’]\s*\)",
        anchor=r"\(\s*(?:the\s+|each,?\s+an?\s+|an?\s+|hereinafter\s+)?[\"“'‘]",
        before=60,
        after=140,
    ),
    # "Confidential Information" means
    _protector(r"[\"“][A-Z][^\"”\n]{0,60}[\"”]\s+(?:means|shall\s+mean|has\s+the\s+meaning)", needs=("mean",)),
    # 1.2 Compensation. The Company ... — an inline clause number, its title and the gap after it. The
    # first word is only looked at: it may be the next clause's number ("6. Miscellaneous. 6.1 Entire
    # Agreement. This ..."), whose own title must be found and protected too.
    _protector(
        r"\d(?<![\w.,$/-]\d)\d{0,2}(?:\.\d{1,3})*\.?\s+[A-Z][\w&'’-]*(?:\s+(?:[A-Z][\w&'’-]*|of|and|or|the|to|for|in|on)){0,6}"
        r"\.\s+(?=\S)"
    ),
)


def _matches(protector: Protector, text: str) -> list[tuple[int, int]]:
    if protector.needs and not any(needed in text for needed in protector.needs):
        return []
    if protector.anchor is None:
        return [m.span() for m in protector.pattern.finditer(text)]
    found: list[tuple[int, int]] = []
    searched_to = 0
    for hit in protector.anchor.finditer(text):
        lo = max(searched_to, hit.start() - protector.before)
        hi = min(len(text), hit.end() + protector.after)
        if lo >= hi:
            continue
        found.extend(m.span() for m in protector.pattern.finditer(text, lo, hi))
        searched_to = hi
    return found


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Merged, sorted (start, end) spans no cut may fall inside."""
    spans = sorted(span for p in PROTECTORS for span in _matches(p, text) if span[1] > span[0])
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
