"""A document's records as the case store holds them: the document, its pages, and a chunk assembled from its
chunk and provenance records. Pure encoding, no store access."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import asdict
from typing import Any

from casetrack.chunk.roles.tagging import known_roles
from casetrack.chunk.roles.taxonomy import BY_ID
from casetrack.domain import Chunk, ChunkSpan, Document, DocumentType, ExtractionMethod, Provenance, StoredPage
from casetrack.store.records import dumps, loads, loads_or_empty


def encode_document(doc: Document) -> bytes:
    record = asdict(doc)
    record["document_type"] = doc.document_type.value
    record["embedders"] = list(doc.embedders)
    record["warnings"] = list(doc.warnings)
    record["metadata"] = dict(doc.metadata)
    return dumps(record)


def decode_document(raw: bytes) -> Document:
    r = loads(raw)
    return Document(
        id=r["id"], name=r["name"], original_path=_text(r.get("original_path")), file_hash=r["file_hash"],
        file_size=int(r.get("file_size", 0)), file_mtime=float(r.get("file_mtime", 0.0)), format=r["format"],
        document_type=DocumentType(r.get("document_type", "other")),
        type_confidence=float(r.get("type_confidence", 0.0)), type_source=r.get("type_source", "inferred"),
        page_count=int(r["page_count"]), chunk_count=int(r["chunk_count"]), ocr_pages=int(r.get("ocr_pages", 0)),
        skipped_pages=int(r.get("skipped_pages", 0)), ocr_confidence=r.get("ocr_confidence"),
        ingested_at=float(r["ingested_at"]), embedded_at=r.get("embedded_at"),
        embedders=tuple(r.get("embedders", ())), warnings=tuple(r.get("warnings", ())),
        metadata=dict(r.get("metadata", {})), copied_original=_text(r.get("copied_original")),
        source_seal=_text(r.get("source_seal")), archived_path=_text(r.get("archived_path")),
    )


def _text(value: object) -> str | None:
    """A path or a seal as ingest writes it (a string); anything else a crafted record holds is read as none."""
    return value if isinstance(value, str) else None


def provenance_record(span: ChunkSpan, page: StoredPage, embedded_at: float | None,
                       printed: str | None = None) -> dict[str, Any]:
    return {
        "page": span.page, "paragraph_start": span.paragraph_start, "paragraph_end": span.paragraph_end,
        "line_start": span.line_start, "line_end": span.line_end, "char_start": span.char_start,
        "char_end": span.char_end, "extraction_method": page.method.value, "ocr_confidence": page.ocr_confidence,
        "bates_number": page.bates_number, "page_approximate": page.approximate, "embedded_at": embedded_at,
        **({"attachment": page.attachment, "attachment_page": page.attachment_page} if page.attachment else {}),
        **({"lines_estimated": True} if page.line_width else {}),
        **({"printed_lines": printed} if printed else {}),  # a transcript's own page:line (chunk.pinpoints)
    }


_PRINTED_LINES = re.compile(r"\d{1,4}:\d{1,2}(?:-(?:\d{1,4}:)?\d{1,2})?")


def _printed_lines(value: object) -> str | None:
    """A record's printed page:line span, kept only in the form ingest writes it ("17:19-18:4"): a record read
    from an imported case is data, and a citation must never show what a crafted one says."""
    return value if isinstance(value, str) and _PRINTED_LINES.fullmatch(value) else None


def assemble_chunk(chunk_raw: bytes, prov_raw: bytes, doc: Document) -> Chunk:
    c, p = loads(chunk_raw), loads(prov_raw)
    span = ChunkSpan(sequence=int(c["sequence"]), page=int(p["page"]), char_start=int(p["char_start"]),
                     char_end=int(p["char_end"]), text=c["text"], paragraph_start=int(p["paragraph_start"]),
                     paragraph_end=int(p["paragraph_end"]), line_start=int(p["line_start"]),
                     line_end=int(p["line_end"]), token_count=int(c.get("token_count", 0)))
    provenance = Provenance(
        document_id=doc.id, document_name=doc.name, document_path=doc.original_path, page=span.page,
        paragraph_start=span.paragraph_start, paragraph_end=span.paragraph_end, line_start=span.line_start,
        line_end=span.line_end, char_start=span.char_start, char_end=span.char_end,
        extraction_method=ExtractionMethod(p["extraction_method"]), ocr_confidence=p.get("ocr_confidence"),
        bates_number=p.get("bates_number"), page_approximate=bool(p.get("page_approximate", False)),
        ingested_at=doc.ingested_at, embedded_at=p.get("embedded_at"), attachment=p.get("attachment"),
        attachment_page=p.get("attachment_page"), lines_estimated=bool(p.get("lines_estimated", False)),
        printed_lines=_printed_lines(p.get("printed_lines")),
    )
    roles = c.get("roles")
    known = known_roles(roles) if isinstance(roles, list) else ()
    sure = c.get("role_confidence")
    confidence = tuple((r, float(p)) for r, p in sure.items() if r in known and isinstance(p, (int, float))) \
        if isinstance(sure, dict) else ()
    return Chunk(id=c["id"], document_id=doc.id, span=span, provenance=provenance, roles=known,
                 role_confidence=confidence, role_spans=_role_spans(c.get("role_spans"), known, len(span.text)))


def _role_spans(value: object, known: tuple[str, ...], size: int) -> tuple[tuple[str, int, int], ...]:
    """A chunk record's clause places, each checked to lie in the chunk (a record may hold anything)."""
    if not isinstance(value, dict):
        return ()
    return tuple((r, int(s[0]), int(s[1])) for r, s in value.items()
                 if r in known and isinstance(s, list) and len(s) == 2 and all(isinstance(v, int) for v in s)
                 and 0 <= s[0] < s[1] <= size)


def encode_likelihoods(likelihood: Mapping[str, float], confidence: Mapping[str, float],
                       unsearched: Collection[str] = ()) -> bytes:
    """A chunk's likelihoods record (keys.likelihoods), what search's role prior reads: clause type ->
    probability, the likely untagged types (`likelihood`) and the tagged ones (`confidence`, which wins for a
    type in both), but 0 for a tag search must not read (`unsearched`: `parties` the library lists past an
    agreement's preamble). `{}` for a chunk without any: a missing record means a chunk written before these
    records were (read from its chunk record)."""
    return dumps({**likelihood, **confidence, **dict.fromkeys(unsearched, 0.0)})


def decode_likelihoods(raw: bytes) -> dict[str, float]:
    """A likelihoods record as `encode_likelihoods` wrote it; what it holds beyond a known clause type with a
    probability in [0, 1] is left out (an imported case's records are data: a crafted one must not rank)."""
    return _probabilities(loads_or_empty(raw))


def record_likelihoods(chunk_raw: bytes) -> dict[str, float]:
    """The same from a whole chunk record, for a chunk written before the likelihoods records (2026-11-29),
    when the record held them as `role_likelihood` and `role_confidence`."""
    record = loads_or_empty(chunk_raw)
    return {**_probabilities(record.get("role_likelihood")), **_probabilities(record.get("role_confidence"))}


def _probabilities(value: object) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    return {t: float(p) for t, p in value.items()
            if t in BY_ID and isinstance(p, (int, float)) and not isinstance(p, bool) and 0.0 <= p <= 1.0}



# --- writing -----------------------------------------------------------------
