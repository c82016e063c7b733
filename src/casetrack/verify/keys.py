"""Match keys: text reduced to the letters and digits a reader compares when checking a quotation.

A quotation and the page it quotes are compared on their keys: lower-case ASCII letters and digits,
nothing else. So line breaks, a hyphen that splits a word at a line's end ("termi-\\nnation"),
straight or curly quotes, dashes, spacing, accents (NFKD: "é" -> "e") and ligatures ("ﬁ" -> "fi")
never make two readings differ, while every changed letter, digit or word ("shall"/"may", "30"/"60",
a "not" left out) does. A word boundary is no letter, so "non-exclusive" and "nonexclusive" agree,
as they should.

`key_of` is the fast reduction of a whole case (C-speed passes only); `KeyedText` is the same key for
one page with the offset of each key character in the page, to cite what matched.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

import numpy as np

from casetrack.chunk.layout import MIN_PRINTED_LINES, PRINTED_NUMBER, PageLayout
from casetrack.chunk.pinpoints import transcript_lines

# Every byte but a-z and 0-9: deleted from the lower-cased ASCII text by bytes.translate (C speed).
_NOT_KEY = bytes(b for b in range(256) if not (48 <= b <= 57 or 97 <= b <= 122))
# A word as a reader sees it: letters and digits, with inner apostrophes; a number with its separators ("4,500.00",
# "9.4", "10:41": a changed amount is shown whole, not as "5" against "4"); a hyphen at a line's end joins the two
# halves of one word.
WORD = re.compile(r"[^\W_]+(?:(?:['\u2019]|(?<=\d)[.,:](?=\d))[^\W_]+)*"
                  r"(?:-[ \t]*\n[ \t]*[^\W_]+(?:['\u2019][^\W_]+)*)*")


_PAGE_HEADING = re.compile(r"(?mi)^[ \t]*page[ \t]+\d{1,4}[ \t]*$")  # "Page 5" above a transcript page's rows
_NUMBERED_LINE = re.compile(r"(?m)^[ \t]*\d{1,2}(?:[ \t]|$)")  # a line opening as a numbered row does


def without_line_numbers(text: str) -> str:
    """A page's text with the line numbers it prints in its margin (pleading paper, transcripts) blanked out,
    offsets unchanged: a quotation running from line 22 onto line 23 never quotes the "23"."""
    if len(_NUMBERED_LINE.findall(text)) < MIN_PRINTED_LINES:  # cheap test first: most pages number no lines
        return text
    rows, _ = transcript_lines(text)
    if len(rows) >= MIN_PRINTED_LINES:
        return _without_transcript_rows(text, max(rows, _leading_rows(text), key=len))
    layout = PageLayout.of(text)
    if layout.printed is None:
        return text
    chars = list(text)
    ends = [*layout.line_starts[1:], len(text) + 1]
    for start, end, number in zip(layout.line_starts, ends, layout.printed, strict=True):
        m = PRINTED_NUMBER.match(text, start, end - 1)
        if m and int(m.group(1)) == number:
            chars[m.start(1):m.end(1)] = " " * (m.end(1) - m.start(1))
    return "".join(chars)


def _leading_rows(text: str) -> list[tuple[int, int, int]]:
    """The rows of a transcript page as read when the page opens with the last rows of a transcript page whose
    "Page 9" and first rows are on the page of the file before (a filed deposition printed four pages to a sheet,
    then split): chunk.pinpoints leaves rows under no page number out of its citations, but their numbers are
    still no part of what a brief quotes."""
    first = next((int(m.group(1)) for line in text.split("\n") if (m := PRINTED_NUMBER.match(line))), None)
    if first is None or first < 2:
        return []
    rows, _ = transcript_lines(text, carried=(0, first - 1))
    return rows


def _without_transcript_rows(text: str, rows: list[tuple[int, int, int]]) -> str:
    """A page of several transcript pages (a condensed sheet: rows 1-25 under "Page 4", again under "Page 5") with
    its row numbers and its "Page N" lines blanked, offsets unchanged: a quotation running from 4:24 onto 5:1
    quotes neither the "25", the "Page 5" nor the "1" (chunk.pinpoints reads the rows)."""
    chars = list(text)
    for offset, _, line in rows:
        width = len(str(line))
        chars[offset:offset + width] = " " * width
    for mark in _PAGE_HEADING.finditer(text):
        chars[mark.start():mark.end()] = " " * (mark.end() - mark.start())
    return "".join(chars)


def ascii_fold(text: str) -> str:
    """Accents and compatibility forms to ASCII ("é" -> "e", "ﬁ" -> "fi"); what has no ASCII form goes."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def key_of(text: str) -> bytes:
    """The match key of `text`: its letters and digits, lower-case ASCII."""
    return ascii_fold(text).lower().encode("ascii").translate(None, _NOT_KEY)


_KEY_CODES = np.zeros(128, dtype=bool)
_KEY_CODES[[ord(c) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"]] = True


@functools.lru_cache(maxsize=4096)
def _folded(char: str) -> str:
    return key_of(char).decode("ascii")


@dataclass(frozen=True, slots=True)
class KeyedText:
    """A text's key with, for each key character, the offset in the text of the character it came from."""

    text: str
    key: str
    origin: np.ndarray  # int64, one offset per key character, ascending

    @classmethod
    def of(cls, text: str) -> KeyedText:
        """Built with numpy over the text's code points: a page of ~8,000 characters in well under a millisecond
        (a loop over its characters cost ~20 ms). The few characters outside ASCII are folded one by one."""
        codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
        ascii_keys = np.flatnonzero((codes < 128) & _KEY_CODES[np.minimum(codes, 127)])
        others = np.flatnonzero(codes >= 128)
        folded = [(int(i), _folded(text[i])) for i in others.tolist()]
        folded = [(i, f) for i, f in folded if f]
        if not folded:
            key = codes[ascii_keys].astype(np.uint8).tobytes().decode("ascii").lower()
            return cls(text, key, ascii_keys)
        places = np.concatenate([ascii_keys, np.array([i for i, f in folded for _ in f], dtype=np.int64)])
        chars = np.concatenate([codes[ascii_keys].astype(np.uint8),
                                np.frombuffer("".join(f for _, f in folded).encode("ascii"), dtype=np.uint8)])
        order = np.argsort(places, kind="stable")
        key = chars[order].tobytes().decode("ascii").lower()
        return cls(text, key, places[order])

    def span(self, key_start: int, key_end: int) -> tuple[int, int]:
        """The text offsets (start, end) of key[key_start:key_end] (which must not be empty)."""
        return int(self.origin[key_start]), int(self.origin[key_end - 1]) + 1

    def key_at(self, offset: int) -> int:
        """The first key character at or after text offset `offset`."""
        return int(np.searchsorted(self.origin, offset))


def words(text: str, start: int = 0, end: int | None = None) -> list[tuple[str, int, int]]:
    """(key, start, end) of each word of text[start:end], in order; words without a key (symbols only) are left
    out."""
    out = []
    for m in WORD.finditer(text, start, len(text) if end is None else end):
        word = m.group()
        key = word.lower() if word.isascii() and word.isalnum() else key_of(word).decode("ascii")
        if key:
            out.append((key, m.start(), m.end()))
    return out
