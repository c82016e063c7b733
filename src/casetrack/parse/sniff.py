"""What a file really is, judged from its first bytes, so a mislabelled file fails with
a message that says what it looks like instead of a parser's stack trace."""

from __future__ import annotations

from pathlib import Path

SNIFF_BYTES = 2048

# (magic prefix, kind, how to describe it to a user). Order matters only for shared prefixes.
_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"%PDF-", "pdf", "a PDF document"),
    (b"PK\x03\x04", "zip", "a ZIP archive (DOCX, XLSX and other Office files are ZIP archives)"),
    (b"PK\x05\x06", "zip", "an empty ZIP archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole", "a legacy Office file (DOC/XLS/PPT) or an Outlook message (MSG)"),
    (b"{\\rtf", "rtf", "an RTF document"),
    (b"\x89PNG\r\n\x1a\n", "png", "a PNG image"),
    (b"\xff\xd8\xff", "jpeg", "a JPEG image"),
    (b"II*\x00", "tiff", "a TIFF image"),
    (b"MM\x00*", "tiff", "a TIFF image"),
    (b"GIF87a", "gif", "a GIF image"),
    (b"GIF89a", "gif", "a GIF image"),
    (b"\x1f\x8b", "gzip", "a gzip-compressed file"),
    (b"7z\xbc\xaf\x27\x1c", "7z", "a 7-Zip archive"),
    (b"Rar!", "rar", "a RAR archive"),
)
_TEXT_DESCRIPTION = "plain text"
_BINARY_DESCRIPTION = "binary data of an unknown kind"

def sniff(head: bytes) -> tuple[str, str]:
    """(kind, description) of content starting with `head`: a magic-number kind, "text", or "binary"."""
    for magic, kind, description in _MAGIC:
        if head.startswith(magic):
            return kind, description
    # Some PDF writers put junk before the header; readers accept it within the first kilobyte.
    if b"%PDF-" in head[:1024]:
        return "pdf", "a PDF document"
    return ("text", _TEXT_DESCRIPTION) if _looks_like_text(head) else ("binary", _BINARY_DESCRIPTION)


def _looks_like_text(head: bytes) -> bool:
    if head.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return True  # a Unicode byte-order mark (UTF-16 text is full of NULs, so decide before counting them)
    if b"\x00" in head:
        return bomless_utf16(head) is not None
    controls = sum(1 for byte in head if byte < 9 or (13 < byte < 32 and byte != 27))
    return controls <= len(head) // 100


def read_head(path: Path) -> bytes:
    with path.open("rb") as handle:
        return handle.read(SNIFF_BYTES)


def bomless_utf16(data: bytes) -> str | None:
    """"utf-16-le" or "utf-16-be" for UTF-16 text written without a byte-order mark (some Windows
    exports), judged from its first bytes, else None. Latin text in UTF-16 has a NUL in every
    other byte, always on the same side of each pair; binary data has NULs on both sides. Text in
    other scripts has no such NULs, but then it has no NULs at all and is not mistaken for binary."""
    sample = data[: SNIFF_BYTES - SNIFF_BYTES % 2]
    sample = sample[: len(sample) - len(sample) % 2]
    pairs = len(sample) // 2
    if pairs < 4:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    for nuls, other, encoding in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if nuls >= pairs * 0.6 and other <= pairs * 0.02:
            try:
                text = sample.decode(encoding)
            except UnicodeDecodeError:
                return None
            controls = sum(1 for c in text if c < " " and c not in "\t\n\r\f")
            return encoding if controls <= len(text) // 100 else None
    return None
