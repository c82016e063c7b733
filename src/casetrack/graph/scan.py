"""Run expensive patterns only near cheap triggers.

Python's `re` tries a pattern at every position; a pattern that opens with a name, a
class of common characters or IGNORECASE alternations costs microseconds per character.
Most legal text holds none of what such a pattern finds, so each one gets a trigger (a
literal-led pattern, or lower-case keywords) and runs only in windows around its hits.
Results equal a whole-text scan whenever a match lies within `reach` of its trigger.

The finders' keywords are fixed, so they are registered once (`index_keywords`) and found
together in one Aho-Corasick pass over the lower-cased text instead of one `str.find` scan
each; the hits are the same, every occurrence of every keyword.
"""

from __future__ import annotations

import codecs
import re
import threading
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

import ahocorasick

T = TypeVar("T")


class _PerText(Generic[T]):
    """The last few results of a function of one text, looked up by the text's identity: every finder of one
    extraction passes the same string object, so it is computed once per extraction, and a later extraction
    (a new string, even of equal content) computes it afresh rather than paying for a string comparison."""

    def __init__(self, fn: Callable[[str], T], size: int = 4) -> None:
        self._fn = fn
        self._size = size
        self._kept: dict[int, tuple[str, T]] = {}  # id -> (the text, kept alive so its id stays its own; result)
        self._lock = threading.Lock()

    def __call__(self, text: str) -> T:
        kept = self._kept.get(id(text))  # a dict read is atomic; only writes take the lock
        if kept is not None and kept[0] is text:
            return kept[1]
        value = self._fn(text)
        with self._lock:
            while len(self._kept) >= self._size:
                self._kept.pop(next(iter(self._kept)))
            self._kept[id(text)] = (text, value)
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()


def per_text(fn: Callable[[str], T]) -> _PerText[T]:
    return _PerText(fn)


@per_text  # every finder of one document asks for the same text's lower case
def lowered(text: str) -> str:
    """`text.lower()` with offsets kept: the few characters whose lower case is longer stay as they are."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def windows_at(hits: Iterable[tuple[int, int]], length: int, reach: int) -> list[tuple[int, int]]:
    """Merged (start, end) windows extending `reach` characters either side of each hit."""
    out: list[tuple[int, int]] = []
    start = end = -1  # the window being grown; plain comparisons, not max/min and a tuple per hit
    for s, e in hits:
        lo = s - reach if s > reach else 0
        hi = e + reach if e + reach < length else length
        if end >= 0 and lo <= end:
            if hi > end:
                end = hi
        else:
            if end >= 0:
                out.append((start, end))
            start, end = lo, hi
    if end >= 0:
        out.append((start, end))
    return out


def _one_byte(error: UnicodeError) -> tuple[str, int]:
    """Encoding error handler: each character Latin-1 lacks becomes one byte, "0" for a decimal digit (`\\d`
    matches those too), else "?"."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    lacking = error.object[error.start : error.end]
    return "".join("0" if c.isdecimal() else "?" for c in lacking), error.end


codecs.register_error("casetrack.graph.one_byte", _one_byte)
_DIGIT_MARKS = bytes(0x31 if 0x30 <= b <= 0x39 else 0x30 for b in range(256))  # "1" for an ASCII digit, else "0"


@per_text
def digit_runs(text: str) -> list[tuple[int, int]]:
    """Spans of the runs of digits (`\\d+`) in `text`. Patterns that open with a digit are tried only at these, one
    pass finding them all instead of one `re` scan (tried at every position) per pattern. `re` itself spends
    ~15 ns per character here; marking the digits of a one-byte-per-character copy and hopping from run to
    run with `bytes.find` (memchr) gives the same spans in a fifth of the time."""
    marks = text.encode("latin-1", "casetrack.graph.one_byte").translate(_DIGIT_MARKS)
    out: list[tuple[int, int]] = []
    find = marks.find
    start = find(b"1")
    while start != -1:
        end = find(b"0", start)
        if end == -1:
            out.append((start, len(marks)))
            break
        out.append((start, end))
        start = find(b"1", end)
    return out


_INDEXED: set[str] = set()
_automaton: Any = None
_lock = threading.Lock()


def index_keywords(keywords: Iterable[str]) -> None:
    """Register lower-case keywords for the one-pass search (call at import, with a finder's fixed keywords)."""
    global _automaton
    with _lock:
        new = set(keywords) - _INDEXED
        if new:
            _INDEXED.update(new)
            _automaton = None
            _starts.cache_clear()


def _built() -> Any:
    global _automaton
    with _lock:
        if _automaton is None:
            automaton = ahocorasick.Automaton()
            for kw in _INDEXED:
                automaton.add_word(kw, (kw, len(kw) - 1))
            automaton.make_automaton()
            _automaton = automaton
        return _automaton


@per_text
def _starts(lowered: str) -> dict[str, list[int]]:
    """Start of every occurrence of every indexed keyword in `lowered`, in order (overlaps included)."""
    out: dict[str, list[int]] = {}
    if lowered:
        for end, (kw, back) in _built().iter(lowered):
            out.setdefault(kw, []).append(end - back)
    return out


def occurrences(lowered: str) -> Mapping[str, list[int]]:
    """Start of every occurrence of every indexed keyword in `lowered`, in order (overlaps included): the one
    keyword pass of an extraction, for a caller that registered keywords of its own (`index_keywords`)."""
    return _starts(lowered)


# Characters `re.IGNORECASE` equates with an ASCII letter that `lowered` keeps as they are (the Kelvin sign
# lowers to "k"): where the text holds one, an IGNORECASE pattern can match where no keyword shows in it.
CASE_FOLD_EXTRAS = ("İ", "ı", "ſ")  # i, i, s; tests/graph check this against every code point
index_keywords(CASE_FOLD_EXTRAS)


def folds_beyond_lowered(lowered: str) -> bool:
    """Whether `lowered` holds a character of CASE_FOLD_EXTRAS (found in the keyword pass at no extra cost)."""
    index = _starts(lowered)
    return any(c in index for c in CASE_FOLD_EXTRAS)


def keyword_hits(lowered: str, keywords: Iterable[str]) -> list[tuple[int, int]]:
    """Every occurrence of each keyword in `lowered` (text.lower()), sorted. A keyword of plain letters
    counts only if it begins a word somewhere (`negligen` in "gross negligence", not in "unnegligent")."""
    hits: list[tuple[int, int]] = []
    index = _starts(lowered)
    for kw in keywords:
        starts = index.get(kw, ()) if kw in _INDEXED else find_all(lowered, kw)
        if starts and _word_start_in(lowered, kw, starts):
            n = len(kw)
            hits.extend((i, i + n) for i in starts)
    return sorted(hits)


def find_all(text: str, literal: str) -> list[int]:
    """Start of every occurrence of `literal` in `text`, overlapping ones included."""
    out = []
    i = text.find(literal)
    while i != -1:
        out.append(i)
        i = text.find(literal, i + 1)
    return out


def _word_start_in(lowered: str, kw: str, starts: Sequence[int]) -> bool:
    """Whether the keyword occurs at all; for a plain word, whether an occurrence begins a run of a-z."""
    if not (kw.isalpha() and kw.isascii()):
        return bool(starts)
    return any(i == 0 or not ("a" <= lowered[i - 1] <= "z") for i in starts)


def finditer_in(pattern: re.Pattern[str], text: str, windows: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """`pattern.finditer` over each window of `text` (lookbehinds see outside it), each match once."""
    seen: set[tuple[int, int]] = set()
    for lo, hi in windows:
        for m in pattern.finditer(text, lo, hi):
            if m.span() not in seen:
                seen.add(m.span())
                yield m


def finditer_at(
    pattern: re.Pattern[str], text: str, starts: Iterable[int], endpos: int | None = None
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text, starts[0], endpos)` for a pattern that can only match at one of `starts`
    (sorted): tried there alone instead of at every position."""
    end = len(text) if endpos is None else endpos
    pos = 0
    for i in starts:
        if i < pos or i > end:
            continue
        m = pattern.match(text, i, end)
        if m is not None:
            yield m
            pos = m.end() if m.end() > i else i + 1


def finditer_in_at(
    pattern: re.Pattern[str], text: str, windows: list[tuple[int, int]], starts: list[int]
) -> Iterator[re.Match[str]]:
    """`finditer_in(pattern, text, windows)` (windows disjoint, as `windows_at` makes them) for a pattern that
    can only match at one of `starts` (sorted)."""
    for lo, hi in windows:
        yield from finditer_at(pattern, text, starts[bisect_left(starts, lo) : bisect_left(starts, hi)], hi)


def near_trigger(
    pattern: re.Pattern[str], trigger: re.Pattern[str], text: str, reach: int, literal: str, lead: int
) -> Iterator[re.Match[str]]:
    """Matches of `pattern` within `reach` characters of a match of `trigger`, every match of which holds
    `literal` at most `lead` characters from its start: the trigger is tried only there."""
    starts = sorted({i - k for i in find_all(text, literal) for k in range(lead + 1) if i >= k})
    hits = [m.span() for m in finditer_at(trigger, text, starts)]
    return finditer_in(pattern, text, windows_at(hits, len(text), reach))


def near_keywords(
    pattern: re.Pattern[str], keywords: Iterable[str], text: str, lowered: str, reach: int
) -> Iterator[re.Match[str]]:
    """Matches of `pattern` within `reach` characters of one of `keywords` (lower-case, found in `lowered`)."""
    return finditer_in(pattern, text, windows_at(keyword_hits(lowered, keywords), len(text), reach))
