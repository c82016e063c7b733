"""Legal-aware chunking with exact character spans (PRD 06 §6, PRD 07 §4).

Each page is split on its own (chunks never cross a page) by one greedy pass: from
the current start, every break in the allowed window is scored by its strength
(paragraph > clause heading > sentence > wrapped line > ";" > word) less a penalty
for its distance from the target size, and the best one ends the chunk. The next
chunk starts about `overlap` tokens earlier, at a sentence or line start when one is
near. When a window has no break at all (a 50,000-character token run) the chunk
is cut at the target size, so the loop always advances and no chunk exceeds max.

The pass is iterative and each step looks only at breaks inside its window, found by
bisection, so time is linear in the page length.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.chunk.boundaries import Break, Strength, find_breaks, word_breaks
from casetrack.chunk.doctype import infer_document_type
from casetrack.chunk.layout import PageLayout
from casetrack.chunk.protected import protected_spans
from casetrack.chunk.sizes import ChunkSizes, count_tokens, sizes_for
from casetrack.chunk.transcripts.passages import TRANSCRIPT_SIZES, transcript_passages
from casetrack.domain import ChunkSpan, DocumentType, ParsedPage

# How much each break strength is worth, against a distance penalty of 1.0 per
# target-length of undershoot and 2.0 per target-length of overshoot: a paragraph
# end at the minimum size still beats a mid-paragraph sentence end at the target,
# but a paragraph end at twice the target does not.
STRENGTH_WEIGHT = {
    Strength.PARAGRAPH: 3.0,
    Strength.STRUCTURE: 2.4,
    Strength.SENTENCE: 1.8,
    Strength.LINE: 0.9,
    Strength.CLAUSE: 0.5,
    Strength.WORD: 0.0,
}
UNDERSHOOT_PENALTY = 1.0
OVERSHOOT_PENALTY = 2.0
# An overlap starts at a break no weaker than this, when one is near enough.
OVERLAP_MIN_STRENGTH = Strength.LINE


def chunk_pages(pages: Sequence[ParsedPage], document_type: DocumentType) -> list[ChunkSpan]:
    """Split a document's pages into chunks sized for `document_type`.

    `page.text[c.char_start:c.char_end] == c.text` holds for every chunk; chunks never
    cross pages; whitespace-only pages yield none. Raises nothing for any input text.
    The pages of a file attached to an e-mail are sized for that file's own type: a contract
    attached to a letter is chunked as a contract, and as it is when ingested on its own.
    """
    sizes = sizes_for(document_type)
    attachment_sizes = _attachment_sizes(pages)
    exchanges = transcript_passages(pages)  # a transcript is cut where its exchanges begin
    chunks: list[ChunkSpan] = []
    for page in pages:
        if exchanges is not None:
            spans = _transcript_page(page.text, exchanges.get(page.number))
        else:
            spans = split_page(page.text, attachment_sizes[page.attachment] if page.attachment else sizes)
        if not spans:
            continue
        layout = PageLayout.of(page.text, page.line_width)
        for start, end in spans:
            text = page.text[start:end]
            chunks.append(
                ChunkSpan(
                    sequence=len(chunks),
                    page=page.number,
                    char_start=start,
                    char_end=end,
                    text=text,
                    paragraph_start=layout.paragraph_at(start),
                    paragraph_end=layout.paragraph_at(end - 1),
                    line_start=layout.line_at(start),
                    line_end=layout.line_at(end - 1),
                    token_count=count_tokens(text),
                )
            )
    return chunks


def _transcript_page(text: str, passages: list[tuple[int, int]] | None) -> list[tuple[int, int]]:
    """A transcript page's passages (chunk.transcripts.passages), one longer than the largest cut by size; a page
    that opens no exchange cut by size alone."""
    if passages is None:
        return split_page(text, TRANSCRIPT_SIZES)
    out: list[tuple[int, int]] = []
    for start, end in passages:
        if end - start <= TRANSCRIPT_SIZES.max_chars:
            out.append((start, end))
        else:
            out += [(start + a, start + b) for a, b in split_page(text[start:end], TRANSCRIPT_SIZES)]
    return out


def _attachment_sizes(pages: Sequence[ParsedPage]) -> dict[str, ChunkSizes]:
    """Per attached file (an e-mail's pages from it), the sizes for the type inferred from its name and text."""
    texts: dict[str, list[str]] = {}
    for page in pages:
        if page.attachment:
            texts.setdefault(page.attachment, []).append(page.text)
    return {name: sizes_for(infer_document_type(name, "\f".join(parts))[0]) for name, parts in texts.items()}


@dataclass(frozen=True, slots=True)
class _Level:
    """The breaks of one strength, with their ends and starts for bisection."""

    strength: Strength
    breaks: tuple[Break, ...]
    ends: tuple[int, ...]


def split_page(text: str, sizes: ChunkSizes) -> list[tuple[int, int]]:
    """(start, end) offsets of one page's chunks, trimmed of surrounding whitespace."""
    first = _skip_space(text, 0)
    if first == len(text):
        return []
    last = len(text.rstrip())
    if last - first <= sizes.max_chars and last - first <= sizes.target_chars * 1.25:
        return [(first, last)]
    spans = protected_spans(text)
    breaks = find_breaks(text, spans)
    by_strength: dict[Strength, list[Break]] = {s: [] for s in Strength if s is not Strength.WORD}
    for b in breaks:  # one pass, not one per strength
        by_strength[b.strength].append(b)
    levels = [_Level(s, tuple(group), tuple(b.end for b in group)) for s, group in by_strength.items()]
    starts = [b.next_start for b in breaks]

    result: list[tuple[int, int]] = []
    pos, prev_end = first, first
    while True:
        cut = _choose_end(text, spans, levels, sizes, pos, prev_end, last)
        if cut.end <= prev_end:  # only blank space after the last chunk in reach: resume past it
            pos = prev_end = _skip_space(text, prev_end)
            continue
        result.append((pos, cut.end))
        if cut.end >= last:
            return result
        pos = _choose_start(text, spans, breaks, starts, sizes, pos, cut)
        prev_end = cut.end


def _choose_end(
    text: str,
    spans: list[tuple[int, int]],
    levels: list[_Level],
    sizes: ChunkSizes,
    pos: int,
    prev_end: int,
    last: int,
) -> Break:
    target = pos + sizes.target_chars
    lo = max(pos + sizes.min_chars, prev_end + 1)
    hi = min(pos + sizes.max_chars, last - sizes.min_chars)  # never leave a tail below min
    options: list[Break] = []
    if last - pos <= sizes.max_chars:
        options.append(Break(last, last, Strength.PARAGRAPH))
    if lo <= hi:
        anchor = min(max(target, lo), hi)
        for level in levels:
            i = bisect_left(level.ends, anchor)
            options.extend(
                level.breaks[j] for j in (i - 1, i) if 0 <= j < len(level.ends) and lo <= level.ends[j] <= hi
            )
        if not options:
            options = word_breaks(text, lo, hi, spans)
    if options:
        return max(options, key=lambda b: _score(b.strength, b.end, target, sizes))
    return _hard_cut(text, spans, pos, lo, hi, target, last, sizes)


def _score(strength: Strength, end: int, target: int, sizes: ChunkSizes) -> float:
    distance = (end - target) / sizes.target_chars
    penalty = distance * OVERSHOOT_PENALTY if distance > 0 else -distance * UNDERSHOOT_PENALTY
    return STRENGTH_WEIGHT[strength] - penalty


def _hard_cut(
    text: str, spans: list[tuple[int, int]], pos: int, lo: int, hi: int, target: int, last: int, sizes: ChunkSizes
) -> Break:
    """A cut inside a run without usable gaps; outside a protected span when possible."""
    if lo > hi:  # only when sizes leave no room; fall back to the largest legal chunk
        lo = hi = min(pos + sizes.max_chars, last)
    cut = min(max(target, lo), hi)
    i = bisect_right(spans, (cut, len(text) + 1)) - 1
    if i >= 0 and spans[i][0] < cut < spans[i][1]:
        if lo <= spans[i][0]:
            cut = spans[i][0]
        elif spans[i][1] <= hi:
            cut = spans[i][1]
    end = len(text[pos:cut].rstrip()) + pos
    return Break(end, _skip_space(text, cut), Strength.WORD)


def _choose_start(
    text: str,
    spans: list[tuple[int, int]],
    breaks: list[Break],
    starts: list[int],
    sizes: ChunkSizes,
    pos: int,
    cut: Break,
) -> int:
    """Where the chunk after `cut` starts: about `overlap` before its end, at a boundary."""
    overlap = sizes.overlap_chars
    if overlap == 0 or cut.end - overlap <= pos:
        return cut.next_start
    wanted = cut.end - overlap
    lo, hi = max(pos + 1, cut.end - 2 * overlap), cut.end - overlap // 2
    near = breaks[bisect_left(starts, lo) : bisect_right(starts, hi)]
    # A long sentence leaves no sentence or line start near: its clause after a ";" or ":" is the
    # next best place to start ("(ii) request a Return Material Authorization ..."), before any word.
    candidates = [b for b in near if b.strength >= OVERLAP_MIN_STRENGTH] or [
        b for b in near if b.strength is Strength.CLAUSE
    ]
    if candidates:
        best = max(candidates, key=lambda b: STRENGTH_WEIGHT[b.strength] - abs(b.next_start - wanted) / overlap)
        return best.next_start
    words = word_breaks(text, lo, hi, spans)
    if words:
        return min(words, key=lambda b: abs(b.next_start - wanted)).next_start
    start = _skip_space(text, wanted)
    i = bisect_right(spans, (start, len(text) + 1)) - 1
    if i >= 0 and lo <= spans[i][0] < start < spans[i][1]:
        start = spans[i][0]  # a hard overlap start must not fall inside a citation either
    return start if pos < start < cut.end else cut.next_start


_NON_SPACE = re.compile(r"\S")


def _skip_space(text: str, offset: int) -> int:
    found = _NON_SPACE.search(text, offset)
    return found.start() if found else len(text)
