"""Run expensive patterns only near cheap triggers.

Python's `re` tries a pattern at every position; a pattern that opens with a name, a
class of common characters or IGNORECASE alternations costs microseconds per character.
Most legal text holds none of what such a pattern finds, so each one gets a trigger (a
literal-led pattern, or lower-case keywords) and runs only in windows around its hits.
Results equal a whole-text scan whenever a match lies within `reach` of its trigger.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from functools import lru_cache


def lowered(text: str) -> str:
    """`text.lower()` with offsets kept: the few characters whose lower case is longer stay as they are."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def windows_at(hits: Iterable[tuple[int, int]], length: int, reach: int) -> list[tuple[int, int]]:
    """Merged (start, end) windows extending `reach` characters either side of each hit."""
    out: list[tuple[int, int]] = []
    for s, e in hits:
        lo, hi = max(0, s - reach), min(length, e + reach)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(hi, out[-1][1]))
        else:
            out.append((lo, hi))
    return out


@lru_cache(maxsize=8)
def _words(lowered: str) -> list[str]:
    """The distinct letter runs of a text, sorted (str hashes are cached, so the lookup is O(1) per text)."""
    return sorted(set(_LETTERS.findall(lowered)))


_LETTERS = re.compile(r"[a-z]+")


def has_keyword(lowered: str, kw: str) -> bool:
    """Whether `lowered` holds `kw`. A keyword of plain letters must begin a word (`negligen` in
    "gross negligence", not in "unnegligent"); it is then a binary search, not a scan of the text."""
    if kw.isalpha() and kw.isascii():
        words = _words(lowered)
        i = bisect_left(words, kw)
        return i < len(words) and words[i].startswith(kw)
    return kw in lowered


def keyword_hits(lowered: str, keywords: Iterable[str]) -> list[tuple[int, int]]:
    """Every occurrence of each keyword in `lowered` (text.lower()), sorted."""
    hits: list[tuple[int, int]] = []
    for kw in keywords:
        if not has_keyword(lowered, kw):
            continue
        i = lowered.find(kw)
        while i != -1:
            hits.append((i, i + len(kw)))
            i = lowered.find(kw, i + 1)
    return sorted(hits)


def finditer_in(pattern: re.Pattern[str], text: str, windows: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """`pattern.finditer` over each window of `text` (lookbehinds see outside it), each match once."""
    seen: set[tuple[int, int]] = set()
    for lo, hi in windows:
        for m in pattern.finditer(text, lo, hi):
            if m.span() not in seen:
                seen.add(m.span())
                yield m


def near_trigger(pattern: re.Pattern[str], trigger: re.Pattern[str], text: str, reach: int) -> Iterator[re.Match[str]]:
    """Matches of `pattern` within `reach` characters of a match of `trigger`."""
    hits = [m.span() for m in trigger.finditer(text)]
    return finditer_in(pattern, text, windows_at(hits, len(text), reach))


def near_keywords(
    pattern: re.Pattern[str], keywords: Iterable[str], text: str, lowered: str, reach: int
) -> Iterator[re.Match[str]]:
    """Matches of `pattern` within `reach` characters of one of `keywords` (lower-case, found in `lowered`)."""
    return finditer_in(pattern, text, windows_at(keyword_hits(lowered, keywords), len(text), reach))
