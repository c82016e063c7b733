"""Where eyecite needs to look: windows of the text around citation-shaped anchors.

eyecite is slow on long texts, so `authorities.py` runs it only over windows around anchors:
a number before a reporter-like token (`988 F.3d 8`), a section sign, Id., supra, Pub. L.
Every citation eyecite finds holds one of them. A number before a line break or a run of
spaces is anchored too (`\\s+`), but that is mostly a page number before the next page's
heading, or an address in a letterhead: windows whose only anchors are of that kind hold no
citation and are dropped (`needed`), whole, so every window kept is the one it was.

Why none is lost (tests/graph/test_graph_citation_windows.py checks it against eyecite's own
patterns): inside a citation eyecite finds (its token, capture group 1 of an extractor),
whitespace after a digit is one or two spaces, except before "C", "S" or "U" ("La. App. 5
Cir.", "Pub. L. 111-148 Sec. 5"). So where an anchor's number belongs to a citation with
whitespace after it, `_CITABLE` matches at that number, or a match of it overlaps there.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import cache

from casetrack.graph.scan import digit_runs, find_all, finditer_at, index_keywords, keyword_hits, lowered

# A number then a reporter-like token (has a period, or WL/LEXIS), a section sign, Id./supra,
# or a name with a pin cite (eyecite's reference citations: "Qin, at *2").
# volume, reporter, page: "988 F.3d 8"; a short form's reporter may end with a comma before "at": "539 U. S., at 328"
_CITE_SHAPE = r"(?:[A-Z][\w.'&]*\s+){0,3}[A-Z][\w.'&]*(?:\s+(?:\d|_|at\s)|,\s+at\s)"
ANCHOR = re.compile(r"\d\s+" + _CITE_SHAPE + "|§")
ANCHOR_WORDS = ("id.", "ibid", "supra", "pub. l", "pub.l")  # found with str.find in the lower-cased text
index_keywords(ANCHOR_WORDS)
# ANCHOR's number part where an eyecite citation can go on after the number: one or two spaces, or any
# whitespace before the letters that follow a digit and other whitespace inside a citation (C, S, U).
CITABLE_AFTER_OTHER_SPACE = "CSU"
_CITABLE = re.compile(
    r"\d(?: {1,2}(?=[A-Z])|\s+(?=[" + CITABLE_AFTER_OTHER_SPACE + r"]))" + _CITE_SHAPE
)
WINDOW_BEFORE = 160  # enough for "United States v. Some Long Name, No. 21-1832, __F.4th__, "
WINDOW_AFTER = 160  # pin cite, court and year parenthetical
WINDOW_JOIN = "\n\n"


def anchors(text: str) -> list[tuple[int, int]]:
    """Where a citation may be: a number before a reporter-like token, a section sign, Id., supra..."""
    low = lowered(text)
    words = [(s, e) for s, e in keyword_hits(low, ANCHOR_WORDS) if s == 0 or not low[s - 1].isalpha()]
    # ANCHOR opens with a section sign or with the last digit of a number (a space follows it)
    starts = sorted([e - 1 for _, e in digit_runs(text)] + find_all(text, "§"))
    return sorted([m.span() for m in finditer_at(ANCHOR, text, starts)] + words)


def windows(text: str, anchors: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for a_start, a_end in anchors:
        lo = max(0, a_start - WINDOW_BEFORE)
        hi = min(len(text), a_end + WINDOW_AFTER)
        while lo > 0 and not text[lo - 1].isspace():
            lo -= 1
        while hi < len(text) and not text[hi].isspace():
            hi += 1
        if spans and lo <= spans[-1][1] + len(WINDOW_JOIN):
            spans[-1] = (spans[-1][0], max(hi, spans[-1][1]))
        else:
            spans.append((lo, hi))
    return spans


def needed(text: str, spans: list[tuple[int, int]], anchors: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The windows of `spans` (made by `windows` from the sorted `anchors`) that can hold a citation: those
    with an anchor other than a number before whitespace no citation has after a digit, or a `_CITABLE`
    match in them (tried at the window's numbers: a match of it may hide one opening at a later digit)."""
    out: list[tuple[int, int]] = []
    starts = [s for s, _ in anchors]
    runs: list[int] | None = None
    for lo, hi in spans:
        held = starts[bisect_left(starts, lo) : bisect_left(starts, hi)]
        if any(not text[s].isdigit() or _CITABLE.match(text, s) for s in held):
            out.append((lo, hi))
            continue
        if runs is None:
            runs = [e - 1 for _, e in digit_runs(text)]
        at = runs[bisect_left(runs, lo) : bisect_left(runs, hi)]
        if next(finditer_at(_CITABLE, text, at, hi), None) is not None:
            out.append((lo, hi))
    return out


_BOUNDARY = re.compile(r"\b")


def name_uses(text: str, names: set[str], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of `\b(?:name|...)` (longest name first) outside `spans`, as `re.finditer` would give them,
    found with `str.find` per name instead of trying the pattern at every position."""
    at: dict[int, str] = {}
    for name in sorted(names, key=len, reverse=True):
        i = text.find(name)
        while i != -1:
            at.setdefault(i, name)  # the longest name opening here is the alternative `re` takes
            i = text.find(name, i + 1)
    found: list[tuple[int, int]] = []
    pos = 0
    for i in sorted(at):
        if i >= pos and _BOUNDARY.match(text, i):
            found.append((i, i + len(at[i])))
            pos = i + len(at[i])
    return [(s, e) for s, e in found if not any(lo <= s < hi for lo, hi in spans)]


def pin_cite_follows(text: str, names: set[str], spans: list[tuple[int, int]]) -> bool:
    """Whether a use of a name outside `spans` is followed by a pin cite, as eyecite's reference pattern asks."""
    pin = _pin_cite_after()
    for name in names:
        i = text.find(name)
        while i != -1:
            outside = not any(lo <= i < hi for lo, hi in spans)
            if outside and _BOUNDARY.match(text, i) and pin.match(text, i + len(name)):
                return True
            i = text.find(name, i + 1)
    return False


@cache
def _pin_cite_after() -> re.Pattern[str]:
    from eyecite.regexes import PIN_CITE_REGEX

    return re.compile(r"\s+" + PIN_CITE_REGEX, re.VERBOSE)
