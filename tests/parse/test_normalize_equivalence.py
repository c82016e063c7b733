"""`normalize_page_text` skips its character passes when a page needs none; the result must
be exactly what running every pass gives. The original, unconditional version is kept here
as the reference."""

from __future__ import annotations

import random
import re
import sys

from casetrack.parse import normalize
from casetrack.parse.layout import join_columns
from casetrack.parse.normalize import normalize_page_text
from casetrack.parse.pdf import document as pdf
from casetrack.parse.pdf import lines as pdf_lines

from .evaldev import DOCS

CHARACTER_PASSES = [normalize._LINE_BREAKS, normalize._DELETED, normalize._CONTROLS, normalize._SPACES]


def reference(text: str) -> str:
    text = re.sub(r"\r\n|\r|\u2028|\u2029|\x0b|\x0c|\x85", "\n", text)
    text = re.sub(r"[\x00\ufeff\uffff]", "", text)
    text = text.replace("\ufffe", "-")
    text = re.sub(r"[\x01-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\t]", " ", text)
    text = re.sub(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]", " ", text)
    text = re.sub(r"[ ]+$", "", text, flags=re.MULTILINE)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n")


def test_every_character_a_pass_changes_is_one_isprintable_rejects() -> None:
    changed = [
        chr(code)
        for code in range(sys.maxunicode + 1)
        if chr(code) == "\ufffe" or any(p.fullmatch(chr(code)) for p in CHARACTER_PASSES)
    ]
    assert len(changed) > 60
    assert not [c for c in changed if c.isprintable()]
    assert not "\n".isprintable()


_PIECES = ["word", "a", " ", "  ", "\n", "\n\n", "\n\n\n\n", " \n", "\r\n", "\r", "\t", "\x00", "\x0b", "\x0c",
           "\x85", "\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff", "\x01", "\x1f", "\x7f", "\x9f", "\u00a0",
           "\u2003", "\u3000", "\u00ad", "\u200b", "é", "§", "“", "\U0001f600", "\ue000"]


def test_matches_the_unconditional_passes_on_random_text() -> None:
    rng = random.Random(20261121)
    for _ in range(3000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 40)))
        assert normalize_page_text(text) == reference(text), repr(text)


def test_matches_the_unconditional_passes_on_the_raw_text_of_every_eval_dev_pdf_page() -> None:
    for path in sorted(DOCS.glob("*.pdf")):
        with pdf.PDFIUM_LOCK:
            document = pdf.pdfium.PdfDocument(path)
            try:
                for index in range(len(document)):
                    textpage = document[index].get_textpage()
                    text = join_columns(pdf_lines.positioned_lines(textpage))
                    assert normalize_page_text(text) == reference(text), f"{path.name} page {index + 1}"
            finally:
                document.close()
