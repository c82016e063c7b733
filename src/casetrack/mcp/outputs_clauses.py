"""The structured result of `list_clauses` (see `mcp/outputs.py`): a document's passages by clause type, each
with the place inside it that holds the clause."""

from __future__ import annotations

from collections.abc import Sequence

from casetrack.chunk.role_taxonomy import Role
from casetrack.domain import Chunk, Document
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

    @classmethod
    def of(cls, doc: Document, groups: Sequence[tuple[Role, Sequence[Chunk]]]) -> ClauseLibrary:
        return cls(document=DocumentOut.of(doc), clause_types=[
            ClauseGroup(clause_type=role.id, label=role.label,
                        passages=[ClausePassage.of(c, clause=ClausePlace.of(c, role.id)) for c in chunks])
            for role, chunks in groups])
