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

import re
import unicodedata
from dataclasses import dataclass

from casetrack.chunk.layout import PageLayout

# Every byte but a-z and 0-9: deleted from the lower-cased ASCII text by bytes.translate (C speed).
_NOT_KEY = bytes(b for b in range(256) if not (48 <= b <= 57 or 97 <= b <= 122))
_ASCII_KEY_CHAR = re.compile(r"[A-Za-z0-9]")
# A word as a reader sees it: letters and digits, with inner apostrophes; a hyphen at a line's end
# joins the two halves of one word.
WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*(?:-[ \t]*\n[ \t]*[^\W_]+(?:['\u2019][^\W_]+)*)*")


_LEADING_NUMBER = re.compile(r"[ \t]*(\d{1,2})(?=[ \t]|$)")


def without_line_numbers(text: str) -> str:
    """A page's text with the line numbers it prints in its margin (pleading paper, transcripts) blanked out,
    offsets unchanged: a quotation running from line 22 onto line 23 never quotes the "23"."""
    layout = PageLayout.of(text)
    if layout.printed is None:
        return text
    chars = list(text)
    ends = [*layout.line_starts[1:], len(text) + 1]
    for start, end, number in zip(layout.line_starts, ends, layout.printed, strict=True):
        m = _LEADING_NUMBER.match(text, start, end - 1)
        if m and int(m.group(1)) == number:
            chars[m.start(1):m.end(1)] = " " * (m.end(1) - m.start(1))
    return "".join(chars)


def ascii_fold(text: str) -> str:
    """Accents and compatibility forms to ASCII ("é" -> "e", "ﬁ" -> "fi"); what has no ASCII form goes."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def key_of(text: str) -> bytes:
    """The match key of `text`: its letters and digits, lower-case ASCII."""
    return ascii_fold(text).lower().encode("ascii").translate(None, _NOT_KEY)


@dataclass(frozen=True, slots=True)
class KeyedText:
    """A text's key with, for each key character, the offset in the text of the character it came from."""

    text: str
    key: str
    origin: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> KeyedText:
        if text.isascii():
            origin = tuple(m.start() for m in _ASCII_KEY_CHAR.finditer(text))
            return cls(text, "".join(text[i] for i in origin).lower(), origin)
        chars: list[str] = []
        places: list[int] = []
        for offset, char in enumerate(text):
            if char.isascii():
                if char.isalnum():
                    chars.append(char.lower())
                    places.append(offset)
                continue
            for folded in key_of(char).decode("ascii"):
                chars.append(folded)
                places.append(offset)
        return cls(text, "".join(chars), tuple(places))

    def span(self, key_start: int, key_end: int) -> tuple[int, int]:
        """The text offsets (start, end) of key[key_start:key_end] (which must not be empty)."""
        return self.origin[key_start], self.origin[key_end - 1] + 1


def words(text: str) -> list[tuple[str, int, int]]:
    """(key, start, end) of each word of `text`, in order; words without a key (symbols only) are left out."""
    out = []
    for m in WORD.finditer(text):
        key = key_of(m.group()).decode("ascii")
        if key:
            out.append((key, m.start(), m.end()))
    return out
