"""Ingestion records: `record_of` equals the generic per-field conversion whatever a field holds."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum, StrEnum

from casetrack.graph import EntityKind, EntityMention, Party
from casetrack.service.ingest.graph_extract import _json, record_of


class Shape(Enum):
    ROUND = (1, 2)  # a non-plain value: `_json` returns an Enum's value as it is


@dataclass(frozen=True, slots=True)
class Odd:
    name: str
    shape: Shape
    extra: object


def generic(item: object) -> dict[str, object]:
    return {f.name: _json(getattr(item, f.name)) for f in fields(item)}  # type: ignore[arg-type]


def typed(value: object) -> object:
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return type(value), value


def test_records_equal_the_generic_conversion_with_types() -> None:
    role = StrEnum("Role", {"JUDGE": "judge"}).JUDGE  # a str subclass in a str field stays what `_json` makes it
    items: list[object] = [
        EntityMention("person:a b", "A B", EntityKind.PERSON, None, 1, 0, 3, "A B"),
        EntityMention("person:a b", "A B", EntityKind.PERSON, role, 1, 0, 3, "A B"),  # type: ignore[arg-type]
        EntityMention("x", "x", "not an enum", "r", 2, 1, 2, "x"),  # type: ignore[arg-type]
        Party("organization:c", "C", EntityKind.ORGANIZATION, "party", ("Company",), 1, 0, 1),
        Odd("n", Shape.ROUND, [("a", Shape.ROUND), True, 1.5]),
        Odd("n", Shape.ROUND, None),
    ]
    for item in items:
        assert typed(record_of(item)) == typed(generic(item)), item
