"""Structured results of the tools that change what a document records (beside `outputs.py`)."""

from __future__ import annotations

from casetrack.mcp.outputs import DocumentOut, Out


class Relinked(Out):
    document: DocumentOut
    same_content: bool  # the file holds the bytes the document was made from (SHA-256 matches)
    detail: str
