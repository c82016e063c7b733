"""Footnotes, endnotes and comments of a DOCX, which live in their own parts (footnotes.xml,
endnotes.xml, comments.xml).

Briefs and opinions cite their authorities in footnotes, so dropping them loses exactly the
text a lawyer searches for. Word numbers notes in the order they are cited, footnotes 1, 2, 3
and endnotes i, ii, iii by default; the parser puts each footnote right after the paragraph
citing it (the same page as on paper) and the endnotes at the end of the document. A draft's
comments ("Note to draft: client to confirm the cap") are what a reviewer needs to find: each
follows the paragraph it is attached to, labelled with its author, "[Comment 2 by Jane Harper]".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import docx
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.oxml.ns import qn
from docx.oxml.parser import parse_xml
from lxml import etree

from casetrack.parse.word.numbering import format_number

FOOTNOTE = "footnote"
ENDNOTE = "endnote"
COMMENT = "comment"
_PARTS = {
    FOOTNOTE: RELATIONSHIP_TYPE.FOOTNOTES, ENDNOTE: RELATIONSHIP_TYPE.ENDNOTES, COMMENT: RELATIONSHIP_TYPE.COMMENTS,
}
_NUMBER_FORMATS = {FOOTNOTE: "decimal", ENDNOTE: "lowerRoman", COMMENT: "decimal"}  # Word's defaults
REFERENCE_TAGS = {
    qn("w:footnoteReference"): FOOTNOTE, qn("w:endnoteReference"): ENDNOTE, qn("w:commentReference"): COMMENT,
}


@dataclass(frozen=True, slots=True)
class NoteReference:
    """A footnote or endnote cited at this point of the text."""

    kind: str  # FOOTNOTE or ENDNOTE
    note_id: str


@dataclass(slots=True)
class Notes:
    """The note bodies by kind and id, and the running note numbers. Stateful: call `label`
    for every reference in document order."""

    bodies: dict[str, dict[str, etree._Element]]
    endnotes: list[str] = field(default_factory=list)  # labelled endnote texts, in citation order
    _counts: dict[str, int] = field(default_factory=dict)

    def body(self, reference: NoteReference) -> etree._Element | None:
        return self.bodies.get(reference.kind, {}).get(reference.note_id)

    def label(self, reference: NoteReference) -> str:
        """The mark Word shows for the next cited note of this kind, e.g. "[2]" or "[iv]"; for a comment,
        its number and author, "[Comment 2 by Jane Harper]"."""
        count = self._counts.get(reference.kind, 0) + 1
        self._counts[reference.kind] = count
        number = format_number(count, _NUMBER_FORMATS[reference.kind])
        if reference.kind != COMMENT:
            return f"[{number}]"
        body = self.body(reference)
        author = _author(body) if body is not None else ""
        return f"[Comment {number} by {author}]" if author else f"[Comment {number}]"

    def comment_authors(self) -> list[str]:
        """Who wrote the document's comments, in order of first comment."""
        authors = (_author(comment) for comment in self.bodies.get(COMMENT, {}).values())
        return list(dict.fromkeys(a for a in authors if a))


def _author(comment: etree._Element) -> str:
    return " ".join((comment.get(qn("w:author")) or "").split())


def read_notes(document: docx.document.Document) -> Notes:
    """Load the footnote and endnote parts. Raises lxml's XMLSyntaxError for malformed XML."""
    bodies: dict[str, dict[str, etree._Element]] = {}
    for relationship in document.part.rels.values():
        kind = next((name for name, reltype in _PARTS.items() if relationship.reltype == reltype), None)
        if kind is None or relationship.is_external:
            continue
        part = relationship.target_part
        root = getattr(part, "element", None)
        if root is None:
            root = parse_xml(part.blob)  # python-docx's parser: no entity expansion, no network
        bodies[kind] = {note.get(qn("w:id"), ""): note for note in root.iterfind(qn(f"w:{kind}"))}
    return Notes(bodies)
