"""The quotations of a draft: in quotation marks, or set off as block quotations.

Inline quotations are paired marks within a paragraph: curly “...”, or straight "..." (a straight mark
opens where words follow it, and closes the quotation open before it). Single marks are left alone: they are
apostrophes as often as quotations, and inside a double-quoted quotation they are part of it. A block
quotation is a paragraph set off from the text: every line indented or opened with `>` (plain text,
Markdown), a paragraph the Word file indents (the reader passes those in), or a paragraph introduced by
a colon and followed by its citation on a line of its own. Each quotation carries where its citation
may be: after its closing mark up to the next quotation or the paragraph's end, or the line or paragraph
after a block quotation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MAX_QUOTE_CHARS = 4000
MAX_CITE_CHARS = 400  # a citation is read at most this far after its quotation
MIN_BLOCK_WORDS = 8
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_DOUBLE_MARKS = frozenset('"\u201c\u201d')
_INNER_OPENS_AFTER = " \t\n(["  # a straight mark here, before a word, opens a quotation inside the open one
_INDENTED = re.compile(r"^(?: {4,}|\t)\S")
_MARKDOWN_QUOTE = re.compile(r"^[ \t]{0,3}> ?")
_CITATION_LINE = re.compile(
    r"^\s*\(?\s*(?:(?:See|see|Cf\.|cf\.)\s+)?(?:Id\.|id\.|[A-Z][\w.'\u2019&-]*(?:\s+[\w.'\u2019&-]+){0,8}?"
    r"(?:,?\s*(?:at\s+\d|pp?\.\s*\d|\u00a7|\u00b6|\d+:\d+))|[A-Z]{2,}[ _-]?\d{4,}|(?:ECF|Dkt\.?)\s*(?:No\.\s*)?\d)")


@dataclass(frozen=True, slots=True)
class Quotation:
    text: str  # as written, without its quotation marks (a block quotation's lines joined by spaces)
    start: int  # offsets of the quotation's text in the draft
    end: int
    cite_start: int  # where its citation may begin ...
    cite_end: int  # ... and must end
    block: bool


def find_quotations(text: str, indented: Iterable[str] = ()) -> list[Quotation]:
    """Every quotation of the draft `text`, in order. `indented`: paragraphs the draft's own format sets off
    (a Word file's indented paragraphs), as their text."""
    hints = {" ".join(h.split()) for h in indented if len(h.split()) >= MIN_BLOCK_WORDS}
    paragraphs = _paragraphs(text)
    out: list[Quotation] = []
    for i, (start, end) in enumerate(paragraphs):
        block = _block(text, paragraphs, i, hints)
        if block is not None:
            out.append(block)
            continue
        out += _inline(text, start, end)
    return out


def _paired(text: str, start: int, end: int, nest: bool) -> list[tuple[int, int]] | None:
    """The spans between paired double marks; None when `nest` leaves a quotation open at the end."""
    spans: list[tuple[int, int]] = []
    open_at: int | None = None
    inner = 0  # straight quotations open inside the open one
    for i in range(start, end):
        char = text[i]
        if char not in _DOUBLE_MARKS:
            continue
        follows_word = i + 1 < end and text[i + 1].isalnum()
        if open_at is None:
            # “ opens; a straight mark opens where words follow it ("...", not a closing mark before a space)
            if char == "\u201c" or (char == '"' and i + 1 < end and not text[i + 1].isspace()):
                open_at, inner = i, 0
        elif nest and char == '"' and follows_word and text[i - 1] in _INNER_OPENS_AFTER:
            inner += 1
        elif nest and char == '"' and inner:
            inner -= 1
        elif char != "\u201c":  # ” or a straight mark closes the open quotation
            if i - open_at <= MAX_QUOTE_CHARS:
                spans.append((open_at, i))
            open_at = None
        else:  # a second “ before any close: the first was never closed
            open_at = i
    return None if nest and open_at is not None else spans


def _paragraphs(text: str) -> list[tuple[int, int]]:
    spans, at = [], 0
    for m in _PARAGRAPH_BREAK.finditer(text):
        if m.start() > at:
            spans.append((at, m.start()))
        at = m.end()
    if at < len(text):
        spans.append((at, len(text)))
    return spans


def _block(text: str, paragraphs: Sequence[tuple[int, int]], i: int, hints: set[str]) -> Quotation | None:
    start, end = paragraphs[i]
    body = text[start:end]
    lines = body.split("\n")
    following = paragraphs[i + 1] if i + 1 < len(paragraphs) else (end, end)
    if all(_MARKDOWN_QUOTE.match(line) for line in lines if line.strip()):
        plain = " ".join(_MARKDOWN_QUOTE.sub("", line).strip() for line in lines)
        return _block_quotation(text, start, end, plain, following)
    if len(body.split()) < MIN_BLOCK_WORDS or body.lstrip()[:1] in "\"\u201c":
        return None
    indented = all(_INDENTED.match(line) for line in lines if line.strip())
    hinted = " ".join(body.split()) in hints
    introduced = i > 0 and text[paragraphs[i - 1][0]:paragraphs[i - 1][1]].rstrip().endswith(":")
    cited_after = _CITATION_LINE.match(text[following[0]:following[1]]) is not None and len(
        text[following[0]:following[1]]) <= MAX_CITE_CHARS
    if indented or hinted or (introduced and cited_after):
        return _block_quotation(text, start, end, " ".join(body.split()), following)
    return None


def _block_quotation(text: str, start: int, end: int, plain: str, following: tuple[int, int]) -> Quotation:
    """A block quotation; its citation is its own last line when that is one, else the next paragraph."""
    last_break = text.rfind("\n", start, end)
    if last_break > start and _CITATION_LINE.match(text[last_break + 1:end]):
        body_end = last_break
        plain = " ".join(_MARKDOWN_QUOTE.sub("", line).strip() for line in text[start:body_end].split("\n"))
        return Quotation(plain, start, body_end, body_end, end, True)
    return Quotation(plain, start, end, following[0], min(following[1], following[0] + MAX_CITE_CHARS), True)


def _inline(text: str, start: int, end: int) -> list[Quotation]:
    # A quotation inside a quotation in straight marks ("clicks the "Submit"") is read as one; a paragraph left
    # with a quotation open under that reading (a mark missing) is read again pairing each mark with the next.
    spans = _paired(text, start, end, nest=True)
    if spans is None:
        spans = _paired(text, start, end, nest=False) or []
    out = []
    for n, (open_at, close_at) in enumerate(spans):
        cite_end = spans[n + 1][0] if n + 1 < len(spans) else end
        quoted = text[open_at + 1:close_at]
        out.append(Quotation(" ".join(quoted.split()), open_at + 1, close_at, close_at + 1,
                             min(cite_end, close_at + 1 + MAX_CITE_CHARS), False))
    return out
