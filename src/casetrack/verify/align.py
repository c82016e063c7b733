"""The passage closest to a quotation, and what differs between them, word by word.

A fitting alignment (every quotation word placed, the source free to start and end anywhere) finds
the run of source words that best matches the quotation's words, and how: words the same, replaced
(`shall` -> `may`), left out of the quotation or added to it. A change whose words spell the same
letters ("non-exclusive" / "nonexclusive") is no change. The alignment runs over the stretch of a
page the index (index.py) pointed to, so its quadratic cost stays small.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

MATCH, MISMATCH, GAP = 2, -1, -1


@dataclass(frozen=True, slots=True)
class Change:
    """Words of the quotation (`quote`) in place of words of the source (`source`); either may be empty."""

    quote: tuple[str, ...]
    source: tuple[str, ...]

    @property
    def kind(self) -> str:
        if not self.quote:
            return "omitted"  # the source has words the quotation leaves out, without an ellipsis
        if not self.source:
            return "added"
        return "replaced"


@dataclass(frozen=True, slots=True)
class Alignment:
    """The quotation's words aligned to source words [s_start, s_end), with the changes between."""

    s_start: int
    s_end: int
    matched: int  # quotation words equal to their source word
    changes: tuple[tuple[int, int, int, int], ...]  # (q_lo, q_hi, s_lo, s_hi) of each change, by word index


def align(quote: list[str], source: list[str]) -> Alignment | None:
    """The quotation's word keys aligned, every one of them, with the run of source words that fits them best
    (free to start and end anywhere in `source`); None when no word matches at all. Two words on one side
    that spell one word on the other ("A copy" / "Acopy", "non exclusive" / "nonexclusive") match."""
    n, m = len(quote), len(source)
    if not n or not m:
        return None
    score = [[0] * (m + 1)]  # row 0: the alignment may start at any source word
    for i in range(1, n + 1):
        above, word = score[-1], quote[i - 1]
        row = [i * GAP] + [0] * m
        joined_quote = quote[i - 2] + word if i > 1 else None
        for j in range(1, m + 1):
            value = max(above[j - 1] + (MATCH if word == source[j - 1] else MISMATCH), above[j] + GAP,
                        row[j - 1] + GAP)
            if joined_quote is not None and joined_quote == source[j - 1]:
                value = max(value, score[i - 2][j - 1] + MATCH)
            if j > 1 and word == source[j - 2] + source[j - 1]:
                value = max(value, above[j - 2] + MATCH)
            row[j] = value
        score.append(row)
    last = score[n]
    end = max(range(m + 1), key=lambda j: (last[j], -j))
    if end < m and last[end + 1] == last[end] == score[n - 1][end] + MISMATCH \
            and quote[-1].isdigit() == source[end].isdigit():
        end += 1  # the quotation's last word in place of the source's next of its kind ("this May" / "this June")
    pairs = _trace(score, quote, source, n, end)
    if not any(q >= 0 and s >= 0 and quote[q] == source[s] for q, s in pairs):
        return None
    return _alignment(pairs, quote, source)


def _trace(score: list[list[int]], quote: list[str], source: list[str], i: int, j: int) -> list[tuple[int, int]]:
    """(quote index or -1, source index or -1) pairs of the alignment ending at (i, j), in order; a merged or
    split word gives two pairs whose words spell the same letters."""
    pairs: list[tuple[int, int]] = []
    while i > 0:
        value = score[i][j]
        if j > 0 and value == score[i - 1][j - 1] + (MATCH if quote[i - 1] == source[j - 1] else MISMATCH):
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i > 1 and j > 0 and quote[i - 2] + quote[i - 1] == source[j - 1] and value == score[i - 2][j - 1] + MATCH:
            pairs += [(i - 1, -1), (i - 2, j - 1)]
            i, j = i - 2, j - 1
        elif j > 1 and quote[i - 1] == source[j - 2] + source[j - 1] and value == score[i - 1][j - 2] + MATCH:
            pairs += [(-1, j - 1), (i - 1, j - 2)]
            i, j = i - 1, j - 2
        elif value == score[i - 1][j] + GAP:
            pairs.append((i - 1, -1))
            i -= 1
        else:
            pairs.append((-1, j - 1))
            j -= 1
    pairs.reverse()
    return pairs


def _alignment(pairs: list[tuple[int, int]], quote: list[str], source: list[str]) -> Alignment:
    changes: list[tuple[int, int, int, int]] = []
    matched = 0
    pending_q: list[int] = []
    pending_s: list[int] = []
    next_q = 0
    next_s = next((s for _, s in pairs if s >= 0), 0)
    for q, s in pairs:
        if q >= 0 and s >= 0 and quote[q] == source[s]:
            _add_change(changes, quote, source, next_q, next_q + len(pending_q), next_s, next_s + len(pending_s))
            matched += 1
            pending_q, pending_s = [], []
            next_q, next_s = q + 1, s + 1
            continue
        if q >= 0:
            pending_q.append(q)
        if s >= 0:
            pending_s.append(s)
    _add_change(changes, quote, source, next_q, next_q + len(pending_q), next_s, next_s + len(pending_s))
    s_first = next((s for _, s in pairs if s >= 0), 0)
    s_last = max((s for _, s in pairs), default=-1) + 1
    return Alignment(s_first, max(s_first, s_last), matched, tuple(changes))


def _add_change(changes: list[tuple[int, int, int, int]], quote: list[str], source: list[str],
                q_lo: int, q_hi: int, s_lo: int, s_hi: int) -> None:
    if q_lo == q_hi and s_lo == s_hi:
        return
    if "".join(quote[q_lo:q_hi]) == "".join(source[s_lo:s_hi]):
        return  # the same letters, split or joined differently: "non-exclusive" / "nonexclusive"
    changes.append((q_lo, q_hi, s_lo, s_hi))


def looks_like_ocr_misreading(quote_words: tuple[str, ...], source_words: tuple[str, ...]) -> bool:
    """Whether the source's words could be an OCR misreading of the quotation's: replaced words that keep most
    of their letters ("Liebowitz" read as "Liebowltz", "1" as "l"), never a word inserted or left out
    whole (a missing "not" is no scanning accident)."""
    quote, source = "".join(quote_words), "".join(source_words)
    if not quote or not source:
        return False
    if abs(len(quote) - len(source)) > max(2, len(quote) // 4):
        return False
    return SequenceMatcher(None, quote, source, autojunk=False).ratio() >= 0.6
