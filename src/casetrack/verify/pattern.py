"""A quotation as legal citation practice writes it, turned into what its source must hold.

An ellipsis (`...`, `…`, `. . .`, `. . . .`, `[...]`) marks words left out: the quotation falls into
segments that must appear in order, each after the one before and not far from it. Brackets mark
what the writer changed: letters (`[t]he` for "The", `employ[ees]`) or words (`[the Company]` for
"Acme"); the changed part may stand for anything of about its size in the source, and it is reported
as an alteration, never checked. `[sic]`, `[emphasis added]` and the like are the writer's notes and
stand for nothing. Everything else must be in the source letter for letter (on match keys, keys.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from casetrack.verify.keys import key_of, words

# An ellipsis: three or four stops, spaced or not, the single character, or one of those in brackets.
ELLIPSIS = re.compile(r"\[\s*(?:\.\s*){3,4}\]|\[\s*\u2026\s*\]|\.(?:\s*\.){2,3}|\u2026")
_BRACKET = re.compile(r"\[([^\[\]]{0,80})\]")
# Bracketed notes that replace nothing in the source.
_NOTES = re.compile(
    r"^(?:sic|emphasis (?:added|supplied|omitted|in original)|internal (?:quotation marks|citations?)"
    r"(?: and [a-z ]+)? omitted|citations? omitted|footnotes? omitted|alterations? (?:added|in original)|"
    r"brackets in original|quotation marks omitted)\.?$", re.IGNORECASE)
MAX_ELLIPSIS_KEY_CHARS = 6000  # an ellipsis leaves out at most this much (about two pages) of its source
WORD_GAP = 60  # a bracketed word or phrase stands for at most this many letters of the source


@dataclass(frozen=True, slots=True)
class Gap:
    """Source letters a bracketed alteration stands for: between `least` and `most` of them."""

    least: int
    most: int


@dataclass(frozen=True, slots=True)
class QuoteWord:
    """A word of the quotation as written (`text`), its match key, and whether a bracket altered it."""

    key: str
    text: str
    altered: bool


@dataclass(frozen=True)  # not slotted: `regex` is cached in the instance's __dict__
class QuotePattern:
    """What a quotation requires of its source: `segments` in order (each a run of literal keys and gaps), the
    same segments' words (`words`) for the word-by-word comparison, the brackets it altered (`alterations`) and
    whether it omits words (`elided`)."""

    segments: tuple[tuple[str | Gap, ...], ...]
    words: tuple[tuple[QuoteWord, ...], ...]
    alterations: tuple[str, ...]
    elided: bool

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """Matches the quotation in a key: segments in order, ellipses as short lazy gaps."""
        parts = ["".join(_piece_regex(p) for p in seg) for seg in self.segments]
        return re.compile(f"(?:.{{0,{MAX_ELLIPSIS_KEY_CHARS}}}?)".join(parts), re.DOTALL)

    @property
    def key_length(self) -> int:
        """Letters and digits the quotation itself requires (gaps and omissions not counted)."""
        return sum(len(p) for seg in self.segments for p in seg if isinstance(p, str))

    @property
    def literal_keys(self) -> list[str]:
        """The literal runs of the quotation, longest first: what an index can look up."""
        return sorted((p for seg in self.segments for p in seg if isinstance(p, str) and p), key=len, reverse=True)


def _piece_regex(piece: str | Gap) -> str:
    if isinstance(piece, Gap):
        return f"[a-z0-9]{{{piece.least},{piece.most}}}"
    return re.escape(piece)


def parse_quote(quote: str) -> QuotePattern:
    """The pattern of a quotation as written (without its quotation marks)."""
    segments: list[tuple[str | Gap, ...]] = []
    segment_words: list[tuple[QuoteWord, ...]] = []
    alterations: list[str] = []
    parts = ELLIPSIS.split(quote)
    for part in parts:
        pieces, seg_alterations, seg_words = _segment(part)
        alterations += seg_alterations
        if any(isinstance(p, str) and p for p in pieces):
            segments.append(pieces)
            segment_words.append(seg_words)
    return QuotePattern(tuple(segments), tuple(segment_words), tuple(alterations), len(parts) > 1)


def _segment(text: str) -> tuple[tuple[str | Gap, ...], list[str], tuple[QuoteWord, ...]]:
    """One segment's pieces: literal keys between brackets; a bracket inside a word stands for a few letters, a
    bracketed word or phrase for up to WORD_GAP letters. Also its words, brackets opened, notes dropped; a word a
    whole-word bracket supplied is `altered` (letters bracketed inside a word must still fit their source word)."""
    pieces: list[str | Gap] = []
    alterations: list[str] = []
    plain: list[str] = []
    altered: list[tuple[int, int]] = []  # spans of `plain` text a bracket supplied
    at = 0
    for m in _BRACKET.finditer(text):
        before = text[at:m.start()]
        pieces.append(key_of(before).decode("ascii"))
        plain.append(before)
        inner = m.group(1).strip()
        at = m.end()
        if _NOTES.match(inner):
            continue
        alterations.append(m.group())
        size = len(key_of(inner))
        in_word = _letter(text, m.start() - 1) or _letter(text, m.end())
        if not in_word:  # a bracketed word or phrase stands for whatever the source says there
            offset = sum(len(p) for p in plain)
            altered.append((offset, offset + len(inner)))
        plain.append(inner)
        pieces.append(Gap(0, max(3, 2 * size)) if in_word else Gap(0, max(WORD_GAP, 3 * size)))
    pieces.append(key_of(text[at:]).decode("ascii"))
    plain.append(text[at:])
    joined = "".join(plain)
    quote_words = tuple(
        QuoteWord(key, joined[start:end], any(lo < end and start < hi for lo, hi in altered))
        for key, start, end in words(joined))
    return _merged(pieces), alterations, quote_words


def _letter(text: str, i: int) -> bool:
    return 0 <= i < len(text) and text[i].isalnum()


def _merged(pieces: list[str | Gap]) -> tuple[str | Gap, ...]:
    """Adjacent literals joined, empty ones dropped, adjacent gaps added, no gap at either end (a segment's
    ends are where it is anchored: a bracket there only changes letters next to what is checked)."""
    out: list[str | Gap] = []
    for piece in pieces:
        if isinstance(piece, str):
            if not piece:
                continue
            if out and isinstance(out[-1], str):
                out[-1] += piece
                continue
        elif out and isinstance(out[-1], Gap):
            out[-1] = Gap(out[-1].least + piece.least, out[-1].most + piece.most)
            continue
        out.append(piece)
    while out and isinstance(out[0], Gap):
        out.pop(0)
    while out and isinstance(out[-1], Gap):
        out.pop()
    return tuple(out)
