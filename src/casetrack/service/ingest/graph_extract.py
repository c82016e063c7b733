"""Running context-graph extraction at ingestion and locating every mention in a chunk,
so the stored extract can answer "which passage says this" without re-reading pages."""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass, replace
from enum import Enum
from operator import attrgetter
from typing import Any, get_type_hints

from casetrack import helper_process
from casetrack.chunk import StructureEntry
from casetrack.chunk.roles import role_hits
from casetrack.domain import ChunkSpan, ParsedPage
from casetrack.graph import IssueMention, causes_of_action, extract_mentions, issues_with_causes

log = logging.getLogger(__name__)

SECTIONS = ("authorities", "entities", "parties", "dates", "issues")
ROLES = "roles"  # where each passage's legal roles are worded (chunk.roles), for its chunk; not part of the graph
# Below ~8 pages of text the extraction takes a few ms, no more than sending it to the helper and back.
HELPER_MIN_CHARS = 20_000
# Extraction runs at ~0.5 ms a page; an answer this late means the helper is stuck, and this process
# extracts instead (as it would have without the helper).
HELPER_TIMEOUT_S = 300.0

Mentions = tuple[dict[str, list[dict[str, Any]]], list[IssueMention]]


def build_extract(pages: Sequence[ParsedPage], headings: Sequence[StructureEntry],
                  chunks: Sequence[tuple[str, ChunkSpan]], mentions: Mentions | None = None) -> dict[str, Any]:
    """The document's extract as plain records, each mention with the id of its chunk.
    `mentions` is `mention_records` when it has already run (in the helper process)."""
    try:
        records, causes = mention_records(pages) if mentions is None else mentions
        records["issues"] = [record_of(issue) for issue in issues_with_causes(pages, headings, causes)]
    except Exception:  # extraction is an extra: a failure must never lose the document
        log.exception("Context-graph extraction failed; the document is stored without it")
        return {section: [] for section in SECTIONS} | {"error": "extraction failed"}
    locate = ChunkLocator(chunks)
    for section in (*SECTIONS, ROLES):
        for record in records.get(section, ()):
            if "page" in record and "char_start" in record:
                record["chunk_id"] = locate(record["page"], record["char_start"])
    return {section: records[section] for section in SECTIONS} | {ROLES: records.get(ROLES, [])}


def mention_records(pages: Sequence[ParsedPage]) -> Mentions:
    """Every mention but the issues (they need the headings), as records without chunk ids, and the
    causes of action the issues include. Records travel between processes ~5x faster than dataclasses."""
    found = extract_mentions(pages)
    records = {section: [record_of(item) for item in getattr(found, section)] for section in SECTIONS[:-1]}
    records[ROLES] = [{"role": role, "page": page.number, "char_start": start}
                      for page in pages for role, start in role_hits(page.text)]
    return records, causes_of_action(found.entities)


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

    def records(self, headings: Sequence[StructureEntry], chunks: Sequence[tuple[str, ChunkSpan]]) -> dict[str, Any]:
        call, self._call = self._call, None
        found = None if call is None else call.result_or_none(HELPER_TIMEOUT_S, "extract the context graph")
        return build_extract(self._pages, headings, chunks, found)

    def __enter__(self) -> PendingExtract:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._call is not None:
            self._call.__exit__(*exc)

def record_of(item: Any) -> dict[str, Any]:
    """A mention dataclass as a JSON-ready record, equal to `_plain(asdict(item))` but built directly:
    asdict deep-copies every field through its generic recursion (~0.3 s on a 200-page document), and even
    a per-field `_json` call costs ~5 us a record; `_converter` does the common case in a few C calls."""
    convert = _CONVERTERS.get(type(item))
    if convert is None:
        convert = _CONVERTERS[type(item)] = _converter(type(item))
    return convert(item)


_CONVERTERS: dict[type, Callable[[Any], dict[str, Any]]] = {}
_PLAIN = frozenset({str, int, float, type(None)})  # exact types `_json` returns unchanged


def _converter(cls: type) -> Callable[[Any], dict[str, Any]]:
    """`{name: _json(value)}` for instances of the dataclass `cls`. Fields annotated with an Enum take their
    `.value`; when every value is then of a plain type (checked in C: `issuperset(map(type, ...))`) that is
    the record, else the generic `_json` builds it, so the result is `_json`'s whatever a field holds."""
    names = tuple(f.name for f in fields(cls))
    try:
        hints = get_type_hints(cls)
    except Exception:  # an annotation that does not resolve: no field is known to be an Enum
        hints = {}
    if len(names) < 2:  # attrgetter of one name gives the value, not a tuple; no mention is this small
        return lambda item: {name: _json(getattr(item, name)) for name in names}
    enums = [i for i, name in enumerate(names) if isinstance(hints.get(name), type) and issubclass(hints[name], Enum)]
    get = attrgetter(*names)

    def convert(item: Any) -> dict[str, Any]:
        raw = get(item)
        values = list(raw)
        for i in enums:
            value = values[i]
            if isinstance(value, Enum):
                values[i] = value._value_  # what `.value` returns, without its Python-level property
        if _PLAIN.issuperset(map(type, values)):
            return dict(zip(names, values, strict=True))
        return {name: _json(value) for name, value in zip(names, raw, strict=True)}

    return convert


def _json(value: Any) -> Any:
    """Enums to their values, tuples to lists, nested dataclasses to records."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, str | int | float) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return record_of(value)
    return value


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

