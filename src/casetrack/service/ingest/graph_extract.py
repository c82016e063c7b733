"""Running context-graph extraction at ingestion and locating every mention in a chunk,
so the stored extract can answer "which passage says this" without re-reading pages."""

from __future__ import annotations

import bisect
import logging
from collections.abc import Sequence
from dataclasses import replace

from casetrack import helper_process
from casetrack.chunk import StructureEntry
from casetrack.chunk.roles.tagging import ANCHORS, AnchorValue, anchor_value, role_hits
from casetrack.domain import ChunkSpan, ParsedPage
from casetrack.graph import IssueMention, causes_of_action, extract_mentions, issues_with_causes
from casetrack.graph.pagetext import JoinedText, join_pages
from casetrack.graph.records import (
    AuthorityRecord,
    DateRecord,
    EntityRecord,
    ExtractRecord,
    IssueRecord,
    PartyRecord,
    RoleRecord,
    extract_json,
    extract_of,
    located,
)
from casetrack.graph.scan import index_keywords, lowered, occurrences

log = logging.getLogger(__name__)

# Below ~8 pages of text the extraction takes a few ms, no more than sending it to the helper and back.
HELPER_MIN_CHARS = 20_000
# Extraction runs at ~0.5 ms a page; an answer this late means the helper is stuck, and this process
# extracts instead (as it would have without the helper).
HELPER_TIMEOUT_S = 300.0

# What the helper process sends back: the stored form of the mentions but the issues (records.extract_json, plain
# lists, which cross between processes several times faster than dataclasses), and the causes of action.
Mentions = tuple[dict[str, object], list[IssueMention]]


def build_extract(pages: Sequence[ParsedPage], headings: Sequence[StructureEntry],
                  chunks: Sequence[tuple[str, ChunkSpan]], mentions: Mentions | None = None) -> ExtractRecord:
    """The document's extract, each mention with the id of its chunk.
    `mentions` is `mention_records` when it has already run (in the helper process)."""
    try:
        if mentions is None:
            found, causes = _mentions(pages)
        else:
            found, causes = extract_of(mentions[0]), mentions[1]
        issues = tuple(IssueRecord.of(issue) for issue in issues_with_causes(pages, headings, causes))
    except Exception:  # extraction is an extra: a failure must never lose the document
        log.exception("Context-graph extraction failed; the document is stored without it")
        return ExtractRecord(error="extraction failed")
    locate = ChunkLocator(chunks)
    return ExtractRecord(located(found.authorities, locate), located(found.entities, locate),
                         located(found.parties, locate), located(found.dates, locate), located(issues, locate),
                         located(found.roles, locate))


def mention_records(pages: Sequence[ParsedPage]) -> Mentions:
    """What the helper process runs: `_mentions` in their stored form."""
    found, causes = _mentions(pages)
    return extract_json(found), causes


def _mentions(pages: Sequence[ParsedPage]) -> tuple[ExtractRecord, list[IssueMention]]:
    """Every mention but the issues (they need the headings), without chunk ids, and the causes of action the
    issues include."""
    joined = join_pages(pages)
    found = extract_mentions(pages, joined)
    extract = ExtractRecord(
        tuple(map(AuthorityRecord.of, found.authorities)), tuple(map(EntityRecord.of, found.entities)),
        tuple(map(PartyRecord.of, found.parties)), tuple(map(DateRecord.of, found.dates)),
        roles=_worded_roles(pages, joined))
    return extract, causes_of_action(found.entities)


# The keyword roles' anchors are found in the graph's own keyword pass over the joined text (graph.scan), not in a
# second Aho-Corasick pass over every page (~0.07 ms a page).
index_keywords(ANCHORS)


def _worded_roles(pages: Sequence[ParsedPage], joined: JoinedText) -> tuple[RoleRecord, ...]:
    """Each page's keyword role hits (chunk.roles.role_hits), its anchors taken from the graph's keyword pass: every
    occurrence of an anchor (none holds a line break, so none crosses the joined text's page breaks), in the
    order the automaton's own pass gives them (by end, the longer of two ending together first)."""
    index = occurrences(lowered(joined.text))
    ends = sorted((start + len(kw) - 1, -len(kw), kw) for kw in ANCHORS for start in index.get(kw, ()))
    by_page: list[list[tuple[int, AnchorValue]]] = [[] for _ in pages]
    for last, _, kw in ends:
        i = bisect.bisect_right(joined.starts, last) - 1
        by_page[i].append((last - joined.starts[i], anchor_value(kw)))
    return tuple(RoleRecord(role, page.number, start) for page, anchors in zip(pages, by_page, strict=True)
                 for role, start in role_hits(page.text, anchors=anchors))


class PendingExtract:
    """A document's extraction, started in the helper process when the document is long enough to gain
    from it, so it runs while this process chunks and indexes; `records` collects it (or runs it here
    when the helper could not). Use as a context manager so an error in between releases the helper."""

    def __init__(self, pages: Sequence[ParsedPage]) -> None:
        self._pages = pages
        long_enough = sum(len(page.text) for page in pages) >= HELPER_MIN_CHARS
        # The helper reads the pages' text: a scan's OCR words (where they are on the page) stay here.
        sent = [replace(page, ocr_words=None) if page.ocr_words else page for page in pages]
        self._call = helper_process.try_submit(mention_records, sent) if long_enough else None

    def records(self, headings: Sequence[StructureEntry], chunks: Sequence[tuple[str, ChunkSpan]]) -> ExtractRecord:
        call, self._call = self._call, None
        found = None if call is None else call.result_or_none(HELPER_TIMEOUT_S, "extract the context graph")
        return build_extract(self._pages, headings, chunks, found)

    def __enter__(self) -> PendingExtract:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._call is not None:
            self._call.__exit__(*exc)


class ChunkLocator:
    """page + character offset -> the first chunk whose span contains it (chunks may overlap)."""

    def __init__(self, chunks: Sequence[tuple[str, ChunkSpan]]) -> None:
        self._by_page: dict[int, list[tuple[int, int, str]]] = {}
        for chunk_id, span in chunks:
            self._by_page.setdefault(span.page, []).append((span.char_start, span.char_end, chunk_id))
        for spans in self._by_page.values():
            spans.sort()
        self._starts = {page: [s for s, _, _ in spans] for page, spans in self._by_page.items()}

    def __call__(self, page: int, offset: int) -> str | None:
        spans = self._by_page.get(page)
        if not spans:
            return None
        i = bisect.bisect_right(self._starts[page], offset) - 1
        while i >= 0:
            start, end, chunk_id = spans[i]
            if start <= offset < end:
                return chunk_id
            i -= 1
        # Between chunks (trimmed whitespace): the next chunk on the page.
        j = bisect.bisect_right(self._starts[page], offset)
        return spans[j][2] if j < len(spans) else spans[-1][2]

