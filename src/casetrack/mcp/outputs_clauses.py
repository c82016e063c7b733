"""The structured result of `list_clauses` (see `mcp/outputs.py`): a document's passages by clause type, each
with the place inside it that holds the clause."""

from __future__ import annotations

from casetrack.mcp.outputs import ChunkOut, ClausePlace, DocumentOut, Out


class ClausePassage(ChunkOut):
    clause: ClausePlace | None = None  # the lines of the passage that hold this clause type


class ClauseGroup(Out):
    clause_type: str
    label: str
    passages: list[ClausePassage]


class ClauseLibrary(Out):
    document: DocumentOut
    clause_types: list[ClauseGroup]
