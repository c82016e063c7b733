"""Stored records are encoded by orjson for speed; they must read back exactly as the
standard library's JSON encoding of the same record would (the format before orjson)."""

from __future__ import annotations

import json
import random
from enum import IntEnum, StrEnum

import numpy as np
import pytest

from casetrack.store.records import dumps, loads


def reference(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


class Kind(StrEnum):
    NATIVE = "native"


class Level(IntEnum):
    TOP = 1


RECORDS = [
    {"id": "c0ffee", "document_id": "d", "sequence": 3, "text": "§ 8.1 “Agreement” — é\n\tx", "token_count": 512},
    {"page": 1, "char_start": 0, "char_end": 10, "ocr_confidence": None, "page_approximate": False,
     "embedded_at": 1763712000.123456, "extraction_method": Kind.NATIVE},
    {"§": 2, "12(b)(6)": 1, "$1500000": 1, "u.s.c.": 4},
    {"controls": "\x00\x01\x1f\x7f\x85\u2028\u2029\ufeff\U0001f600 \"quoted\" back\\slash /"},
    {"nested": {"entries": [{"level": Level.TOP, "title": "TERM", "number": None}], "tuple": (1, 2.5, "x")}},
    {1: "int key", 2.5: "float key", False: "bool key", None: "null key"},
    {"floats": [0.0, -0.0, 0.1, 1.0, 1e16, 1.5e300, 123456789.5, 2.5e-5]},
    {"big": 2**70, "numpy": np.float64(1.5)},  # beyond orjson: the standard library encodes them
]


@pytest.mark.parametrize("record", RECORDS)
def test_a_record_reads_back_as_the_standard_library_encoding_would(record: dict) -> None:
    assert loads(dumps(record)) == json.loads(reference(record))


def test_bytes_match_the_standard_library_but_for_exponent_spelling() -> None:
    for record in RECORDS[:6]:
        assert dumps(record) == reference(record)
    rng = random.Random(3)
    for _ in range(2000):
        value = rng.random() * 10 ** rng.randint(-12, 12)
        assert json.loads(dumps({"x": value})) == {"x": value}  # 1e-06 may be written 1e-6


def test_what_neither_encoder_accepts_still_raises() -> None:
    with pytest.raises(TypeError):
        dumps({"vector": np.zeros(2, dtype=np.float32)})
    with pytest.raises(UnicodeEncodeError):
        dumps({"lone surrogate": "\ud800"})


def test_records_written_before_orjson_read_back_including_nan_and_infinity() -> None:
    # json.dumps wrote NaN and Infinity as bare literals, which orjson refuses to read.
    old = json.dumps({"ocr_confidence": float("nan"), "score": float("inf"), "text": "é"}).encode()
    record = loads(old)
    assert np.isnan(record["ocr_confidence"]) and record["score"] == float("inf") and record["text"] == "é"
    for value in RECORDS:
        assert loads(reference(value)) == json.loads(reference(value))
    with pytest.raises(ValueError):
        loads(b"[1, 2]")
