"""A document's context-graph extract as ingest stores it and the case graph reads it back: one typed record per
mention (the extraction's dataclasses with their enums as values and the id of the chunk holding the mention),
one definition for the writer (service/ingest/graph_extract.py), the store (store/documents.py) and the readers
(service/graph/case_graph.py, the chunks' roles and reference terms at ingest).

Each record is a NamedTuple, so its stored form is its row of values: `extract_json` writes every section as
a list of rows, ~2x smaller than records keyed by name, and `extract_of` makes each row a record again with
one C call. A NamedTuple rather than a frozen dataclass: a 1,000-document case reads ~170,000 of these at its
first graph call, and a frozen dataclass's __init__ costs several times a tuple's. Stores written before
issue 38 hold each mention as a JSON object keyed by field name; they read through `_legacy_rows`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from casetrack.graph.citations.authorities import AuthorityMention
from casetrack.graph.dates.mentions import DateMention
from casetrack.graph.entities import EntityMention, Party
from casetrack.graph.issues import IssueMention

FORMAT = 2  # the rows form; a stored extract without "format" is the keyed form written before issue 38


class AuthorityRecord(NamedTuple):
    key: str  # canonical citation: "988 F.3d 8", "42 U.S.C. § 1983"
    display: str  # the name it is shown by: "Alasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021)"
    kind: str  # an AuthorityKind's value
    page: int
    char_start: int  # page_text[char_start:char_end] == text
    char_end: int
    text: str
    form: str  # "full" | "short" | "supra" | "id" | "reference"
    treatment: str  # a Treatment's value
    pin_cite: str | None = None
    chunk_id: str | None = None  # the chunk holding the mention (None: no chunk on its page)

    @classmethod
    def of(cls, m: AuthorityMention) -> AuthorityRecord:
        return cls(m.key, m.display, m.kind.value, m.page, m.char_start, m.char_end, m.text, m.form,
                   m.treatment.value, m.pin_cite)


class EntityRecord(NamedTuple):
    key: str  # merge key: "organization:smith corp", "person:john smith", "date:2022-01-15"
    name: str  # display name of the merged entity
    kind: str  # an EntityKind's value
    role: str | None  # "plaintiff", "judge", ...; a date entity's event
    page: int
    char_start: int
    char_end: int
    text: str
    chunk_id: str | None = None

    @classmethod
    def of(cls, m: EntityMention) -> EntityRecord:
        return cls(m.key, m.name, m.kind.value, m.role, m.page, m.char_start, m.char_end, m.text)


class PartyRecord(NamedTuple):
    key: str
    name: str
    kind: str  # "person" or "organization"
    role: str  # "plaintiff", "licensor", ... or "party" when the document gives none
    aliases: tuple[str, ...]  # defined terms naming it: ("Company",)
    page: int  # where it is first named
    char_start: int
    char_end: int
    chunk_id: str | None = None

    @classmethod
    def of(cls, m: Party) -> PartyRecord:
        return cls(m.key, m.name, m.kind.value, m.role, m.aliases, m.page, m.char_start, m.char_end)


class DateRecord(NamedTuple):
    iso: str  # "2022-01-15", or "2022-01" when the text gives no day
    text: str
    event: str  # an EventType's value
    sentence: str  # the sentence around the date: the event's description
    page: int
    char_start: int
    char_end: int
    chunk_id: str | None = None

    @classmethod
    def of(cls, m: DateMention) -> DateRecord:
        return cls(m.iso, m.text, m.event.value, m.sentence, m.page, m.char_start, m.char_end)


class IssueRecord(NamedTuple):
    label: str  # "Indemnification", "Breach of Contract"
    source: str  # "heading" | "count" | "cause_of_action"
    page: int
    char_start: int
    char_end: int
    text: str
    chunk_id: str | None = None

    @classmethod
    def of(cls, m: IssueMention) -> IssueRecord:
        return cls(m.label, m.source, m.page, m.char_start, m.char_end, m.text)


class RoleRecord(NamedTuple):
    """Where a legal role is worded (chunk.roles.role_hits), for its chunk's roles; not part of the graph."""

    role: str  # a role id of chunk.role_taxonomy
    page: int
    char_start: int
    chunk_id: str | None = None


@dataclass(frozen=True, slots=True)
class ExtractRecord:
    """One document's extract as stored: each section's mentions in the order extraction found them."""

    authorities: tuple[AuthorityRecord, ...] = ()
    entities: tuple[EntityRecord, ...] = ()  # includes statutes, case citations and dates as entities
    parties: tuple[PartyRecord, ...] = ()
    dates: tuple[DateRecord, ...] = ()
    issues: tuple[IssueRecord, ...] = ()
    roles: tuple[RoleRecord, ...] = ()
    error: str | None = None  # why extraction failed (the document is stored without a graph)


SECTIONS: dict[str, type[NamedTuple]] = {  # a section's name in ExtractRecord and in the stored JSON -> its record
    "authorities": AuthorityRecord, "entities": EntityRecord, "parties": PartyRecord, "dates": DateRecord,
    "issues": IssueRecord, "roles": RoleRecord,
}

R = TypeVar("R", AuthorityRecord, EntityRecord, PartyRecord, DateRecord, IssueRecord, RoleRecord)


def located(records: Iterable[R], chunk_at: Callable[[int, int], str | None]) -> tuple[R, ...]:
    """`records` each with the id of the chunk holding it: `chunk_at(page, char_start)` (every record's last field).
    Made by `tuple.__new__`, as `extract_of` makes them: `_replace` costs ~4x more, on ~10,000 mentions a document."""
    make: Callable[..., R] = tuple.__new__
    out = []
    for r in records:
        head: tuple[object, ...] = r[:-1]
        out.append(make(type(r), (*head, chunk_at(r.page, r.char_start))))
    return tuple(out)


def extract_json(extract: ExtractRecord) -> dict[str, object]:
    """The stored form: each section a list of rows (a record's values in field order)."""
    out: dict[str, object] = {"format": FORMAT}
    for section in SECTIONS:
        out[section] = [tuple(r) for r in getattr(extract, section)]
    if extract.error is not None:
        out["error"] = extract.error
    return out


def extract_of(stored: Mapping[str, object]) -> ExtractRecord:
    """An extract from its stored form, either the rows `extract_json` writes or the keyed form of older stores.
    A row of another length than its record (a store written by a later version) is cut or padded."""
    rows = _rows if stored.get("format") == FORMAT else _legacy_rows
    sections = {section: rows(cls, stored.get(section) or ()) for section, cls in SECTIONS.items()}
    error = stored.get("error")
    return ExtractRecord(**sections, error=None if error is None else str(error))  # type: ignore[arg-type]


def _rows(cls: type[NamedTuple], rows: object) -> tuple[NamedTuple, ...]:
    size = len(cls._fields)
    make = tuple.__new__
    if not isinstance(rows, list | tuple):
        return ()
    out = [make(cls, row) for row in rows if isinstance(row, list | tuple) and len(row) == size]
    if len(out) != len(rows):  # a row of another length: fitted field by field
        out = [_fitted(cls, row) for row in rows if isinstance(row, list | tuple)]
    return _with_tuples(cls, out)


def _fitted(cls: type[NamedTuple], row: Sequence[object]) -> NamedTuple:
    defaults = [cls._field_defaults.get(f, _MISSING.get(f)) for f in cls._fields]
    return cls._make((*row[: len(defaults)], *defaults[len(row):]))


# What a field missing from an older record reads as: what the readers before issue 38 took for it.
_MISSING: dict[str, object] = {"page": 1, "char_start": 0, "char_end": 0, "text": "", "event": "other",
                               "aliases": (), "role": None, "kind": "", "key": "", "name": "", "display": "",
                               "form": "", "treatment": "", "iso": "", "label": "", "source": ""}


def _legacy_rows(cls: type[NamedTuple], records: object) -> tuple[NamedTuple, ...]:
    """Records keyed by field name (stores written before issue 38). A date without a sentence is described by
    its text, as the case graph did then."""
    if not isinstance(records, list):
        return ()
    out = []
    for r in records:
        if not isinstance(r, dict):
            continue
        if cls is DateRecord and "sentence" not in r:
            r = {**r, "sentence": r.get("text", "")}
        out.append(cls._make(r.get(f, cls._field_defaults.get(f, _MISSING.get(f))) for f in cls._fields))
    return _with_tuples(cls, out)


def _with_tuples(cls: type[NamedTuple], records: list[NamedTuple]) -> tuple[NamedTuple, ...]:
    """A party's aliases are a JSON list: a tuple again, as the record says."""
    if cls is PartyRecord:
        return tuple(r._replace(aliases=tuple(r.aliases)) for r in records)  # type: ignore[attr-defined]
    return tuple(records)
