"""Legal-aware splitting of parsed pages into chunks with exact character spans,
plus the page-level facts ingestion records alongside them: Bates numbers,
document type and the heading structure. Pure functions, no I/O."""

from casetrack.chunk.bates import find_bates_number
from casetrack.chunk.doctype import infer_document_type
from casetrack.chunk.legal import chunk_pages
from casetrack.chunk.sizes import DEFAULT_SIZES, SIZES, ChunkSizes, count_tokens, sizes_for
from casetrack.chunk.structure import StructureEntry, extract_structure

__all__ = [
    "DEFAULT_SIZES",
    "SIZES",
    "ChunkSizes",
    "StructureEntry",
    "chunk_pages",
    "count_tokens",
    "extract_structure",
    "find_bates_number",
    "infer_document_type",
    "sizes_for",
]
