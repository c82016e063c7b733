"""Builds the held-out mixed set (docs/, docs/manifest.json, text/, queries.jsonl) from source/ and spec.py.

    uv run python benchmarks/heldout_mixed/make_set.py

As benchmarks/heldout_court/make_set.py, with two more ways of making a document:
* a scanned statute: page 1 of the PDF LibreOffice makes from the source text, rendered at 200 dpi, turned
  0.4 degrees, blurred and speckled (fixed seed), saved as an image-only PDF; its ground truth is that page's
  text layer;
* an e-mail: the source is the raw message, kept byte for byte as the .eml; its reference text is its From,
  To, Date and Subject lines and its body (an HTML body with its tags dropped, block tags as line breaks,
  entities decoded), which is what a reader sees.
The Word file has one paragraph per line of the source (the BIA decision has a paragraph a line).
"""

from __future__ import annotations

import email
import email.policy
import html
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import build_set, build_sourced_doc
from spec import DOCS, QUERIES, Doc

ROOT = Path(__file__).resolve().parent
SPLIT = "heldout_mixed"
LABELS = "hand-labelled for this held-out set: answer spans chosen by reading the document, query wording new"
SCAN_DPI = 200
_BLOCK_TAGS = re.compile(r"<\s*(?:br|/?p|/?div|/?tr|/?table|/?h\d)\b[^>]*>", re.IGNORECASE)
_TAGS = re.compile(r"<[^>]*>")


def email_reference(raw: str) -> str:
    """What a reader of the message sees: From, To, Date, Subject, then the body as text."""
    message = email.message_from_string(raw, policy=email.policy.default)
    head = "\n".join(f"{name}: {message[name]}" for name in ("From", "To", "Date", "Subject") if message[name])
    part = message.get_body(preferencelist=("plain", "html"))
    assert part is not None
    body = part.get_content()
    if part.get_content_subtype() == "html":
        body = html.unescape(_TAGS.sub("", _BLOCK_TAGS.sub("\n", body)))
    lines = [line.rstrip() for line in body.splitlines()]
    return head + "\n\n" + re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


def email_file(fmt: str, text: str, out: Path) -> tuple[str, dict[str, object]] | None:
    """An .eml: the raw message unchanged; its reference text is what a reader sees (`email_reference`)."""
    if fmt != "eml":
        return None
    out.write_bytes(text.encode("utf-8"))
    return email_reference(text), {
        "pages": None, "scanned": False,
        "note": "the raw message unchanged; reference text = From/To/Date/Subject and the body as text"}


def build_doc(doc: Doc) -> tuple[str, dict[str, object]]:
    return build_sourced_doc(ROOT, SPLIT, doc, (SCAN_DPI, -0.4, 1332), email_file)


def main() -> int:
    build_set(ROOT, SPLIT, DOCS, QUERIES, "m", LABELS, build_doc, ("pdf",))
    return 0


if __name__ == "__main__":
    sys.exit(main())
