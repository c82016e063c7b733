"""Encoding of stored records. JSON, because a user (or a support engineer) can read a
dumped store, and because adding a field never breaks an older record: decoders fill
defaults for what is missing. Vectors are raw float32 bytes (see the embeddings code)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import orjson

from casetrack.domain import Case, CaseStats, CaseStatus, CaseType, without_bidi


def dumps(value: dict[str, Any]) -> bytes:
    """Compact UTF-8 JSON. orjson writes the same bytes as `json.dumps(separators=(",", ":"),
    ensure_ascii=False)` about 8x faster (an ingest writes ~7 records per page), except that NaN
    and infinities become null. What orjson refuses (integers beyond 64 bits, numpy scalars,
    lone surrogates) goes to the standard library, which encodes it or raises as before."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def loads(raw: bytes) -> dict[str, Any]:
    """A JSON object record. orjson reads ~3x faster (opening a big case decodes every chunk's
    BM25 entry); records json.dumps wrote with NaN or Infinity, which orjson refuses, still read."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        value = json.loads(raw)
    if not isinstance(value, dict):
        raise ValueError("record is not a JSON object")
    return value


def loads_or_empty(raw: bytes) -> dict[str, Any]:
    """`loads`, or {} for bytes that are no JSON object (an imported or damaged record is data, not an error)."""
    try:
        return loads(raw)
    except ValueError:  # orjson's and json's decode errors (and bad UTF-8) are ValueErrors, as is a non-object
        return {}


def encode_case(case: Case) -> bytes:
    record = asdict(case)
    record["case_type"] = case.case_type.value
    record["status"] = case.status.value
    return dumps(record)


def decode_case(raw: bytes) -> Case:
    record = loads(raw)
    stats = record.get("stats") or {}
    return Case(
        id=str(record["id"]),
        name=without_bidi(str(record["name"])),  # a case named before names were cleaned of them
        case_number=record.get("case_number"),
        case_type=CaseType(record.get("case_type", "other")),
        status=CaseStatus(record.get("status", "active")),
        created_at=float(record["created_at"]),
        updated_at=float(record.get("updated_at", record["created_at"])),
        stats=CaseStats(**{k: int(v) for k, v in stats.items() if k in CaseStats.__dataclass_fields__}),
    )


def encode_u32(value: int) -> bytes:
    return value.to_bytes(4, "little")


def decode_u32(raw: bytes | None) -> int | None:
    return None if raw is None else int.from_bytes(raw[:4], "little")


def encode_u64(value: int) -> bytes:
    return value.to_bytes(8, "little")


def decode_u64(raw: bytes | None) -> int | None:
    return None if raw is None else int.from_bytes(raw[:8], "little")
