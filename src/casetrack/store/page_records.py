"""A page's records in the `pages` family: its text (the exact text chunk offsets index into) and, for a page
read by OCR, Tesseract's words on it (domain.PageWords), a record of their own: search and verification read
page texts often, the words only a drawing of the page needs. Both are written with their document, in its
batch, and deleted with it.

The words' record is binary: a header, each word's box as four unsigned 16-bit numbers, then the words as
UTF-8, one a line. A page of 400 words is ~5 KB before RocksDB's own compression, against ~20 KB as JSON. A
record that does not read back whole (an imported archive's, a crafted one) reads as none: the page is then
drawn as before the words were kept, its scan read again."""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from dataclasses import fields

from casetrack.domain import ExtractionMethod, PageWords, StoredPage
from casetrack.store import keys
from casetrack.store.records import dumps, loads
from casetrack.store.rocks import Batch, RocksStore

_PAGE_FIELDS = tuple(f.name for f in fields(StoredPage))
_WORDS_VERSION = 1
_WORDS_HEADER = struct.Struct("<BHHfHI")  # version, width, height, skew, turn, number of words
_BOX = 8  # bytes: left, top, width, height
_TURNS = (0, 90, 180, 270)


def encode_page(page: StoredPage) -> bytes:
    # Field by field: every field is a plain value, and `asdict` deep-copies each one (~20 µs a page).
    record = {name: getattr(page, name) for name in _PAGE_FIELDS}
    record["method"] = page.method.value
    if page.attachment is None:  # only an e-mail's attached pages carry these: other records stay as they were
        del record["attachment"], record["attachment_page"]
    if page.line_width is None:  # only pages of formats without lines of their own (Word, RTF) carry it
        del record["line_width"]
    return dumps(record)


def decode_page(raw: bytes) -> StoredPage:
    r = loads(raw)
    return StoredPage(number=int(r["number"]), text=r["text"], method=ExtractionMethod(r["method"]),
                      ocr_confidence=r.get("ocr_confidence"), approximate=bool(r.get("approximate", False)),
                      bates_number=r.get("bates_number"), attachment=r.get("attachment"),
                      attachment_page=r.get("attachment_page"), line_width=r.get("line_width"))


def encode_words(words: PageWords) -> bytes:
    count = len(words.boxes) // _BOX
    return _WORDS_HEADER.pack(_WORDS_VERSION, words.width, words.height, words.skew, words.turn, count) + \
        words.boxes + words.words.encode()


def decode_words(raw: bytes) -> PageWords | None:
    """The words a record holds, or None when it is not one `encode_words` wrote."""
    if len(raw) < _WORDS_HEADER.size:
        return None
    version, width, height, skew, turn, count = _WORDS_HEADER.unpack_from(raw)
    end = _WORDS_HEADER.size + count * _BOX
    if version != _WORDS_VERSION or turn not in _TURNS or not math.isfinite(skew) or abs(skew) > 90 \
            or len(raw) < end or not (width and height):
        return None
    try:
        text = raw[end:].decode()
    except UnicodeDecodeError:
        return None
    if (text.count("\n") + 1 if text else 0) != count:
        return None
    return PageWords(width=width, height=height, skew=skew, turn=turn, words=text,
                     boxes=raw[_WORDS_HEADER.size:end])


def put_words(batch: Batch, doc_id: str, by_page: Mapping[int, PageWords]) -> None:
    for number, words in by_page.items():
        batch.put(keys.PAGES, keys.page_words(doc_id, number), encode_words(words))


def delete_words(store: RocksStore, batch: Batch, doc_id: str) -> None:
    for key, _ in store.scan(keys.PAGES, keys.page_words_prefix(doc_id)):
        batch.delete(keys.PAGES, key)


def words(store: RocksStore, doc_id: str, number: int) -> PageWords | None:
    raw = store.get(keys.PAGES, keys.page_words(doc_id, number))
    return None if raw is None else decode_words(raw)
