"""Text a reader sees on a PDF page but that lives in annotations drawn on top of it: a filled-in form
(summons, civil cover sheet, proof of service, a client's intake form), typewriter text added in a PDF
editor, a "FILED" stamp. PDFium's text layer leaves all of them out; CaseTrack reads them where they are
printed. Real PDFs built here with pypdf, each annotation with its own appearance stream, as a PDF editor
saves it."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from casetrack.domain import ExtractionMethod
from casetrack.parse import parse_file

Annotation = tuple[str, tuple[float, float, float, float], str]  # subtype, rect, text shown


def _name(value: str) -> NameObject:
    return NameObject(value)


def annotated_pdf(path: Path, lines: Sequence[tuple[float, float, str]], annotations: Sequence[Annotation]) -> Path:
    writer = PdfWriter()
    page = writer.add_blank_page(612, 792)
    font = writer._add_object(DictionaryObject({
        _name("/Type"): _name("/Font"), _name("/Subtype"): _name("/Type1"), _name("/BaseFont"): _name("/Helvetica"),
    }))
    fonts = DictionaryObject({_name("/Helv"): font})
    content = DecodedStreamObject()
    content.set_data("".join(f"BT /Helv 12 Tf {x} {y} Td ({text}) Tj ET\n" for x, y, text in lines).encode())
    page[_name("/Contents")] = writer._add_object(content)
    page[_name("/Resources")] = DictionaryObject({_name("/Font"): fonts})
    annots, fields = ArrayObject(), ArrayObject()
    for n, (subtype, (x0, y0, x1, y1), text) in enumerate(annotations):
        appearance = DecodedStreamObject()
        appearance.set_data(f"BT /Helv 12 Tf 2 5 Td ({text}) Tj ET".encode() if text else b"")
        appearance.update({
            _name("/Type"): _name("/XObject"), _name("/Subtype"): _name("/Form"),
            _name("/BBox"): ArrayObject([FloatObject(0), FloatObject(0), FloatObject(x1 - x0), FloatObject(y1 - y0)]),
            _name("/Resources"): DictionaryObject({_name("/Font"): fonts}),
        })
        annotation = DictionaryObject({
            _name("/Type"): _name("/Annot"), _name("/Subtype"): _name(subtype), _name("/F"): NumberObject(4),
            _name("/Rect"): ArrayObject([FloatObject(v) for v in (x0, y0, x1, y1)]),
            _name("/AP"): DictionaryObject({_name("/N"): writer._add_object(appearance)}),
        })
        if subtype == "/Widget":
            annotation.update({_name("/FT"): _name("/Tx"), _name("/T"): TextStringObject(f"field{n}"),
                               _name("/V"): TextStringObject(text), _name("/DA"): TextStringObject("/Helv 12 Tf 0 g")})
        elif subtype == "/FreeText":
            annotation.update({_name("/Contents"): TextStringObject(text),
                               _name("/DA"): TextStringObject("/Helv 12 Tf 0 g")})
        elif subtype == "/Link":
            annotation.pop(_name("/AP"))
        reference = writer._add_object(annotation)
        annots.append(reference)
        if subtype == "/Widget":
            fields.append(reference)
    page[_name("/Annots")] = annots
    if fields:
        writer._root_object[_name("/AcroForm")] = DictionaryObject({
            _name("/Fields"): fields, _name("/DR"): DictionaryObject({_name("/Font"): fonts}),
        })
    buffer = io.BytesIO()
    writer.write(buffer)
    path.write_bytes(buffer.getvalue())
    return path


SUMMONS = [(72, 740, "SUMMONS (CITACION JUDICIAL)"), (72, 700, "NOTICE TO DEFENDANT:"),
           (72, 670, "YOU ARE BEING SUED BY PLAINTIFF:"), (72, 640, "CASE NUMBER:"),
           (72, 600, "The name and address of the court is: Superior Court of California")]  # fmt: skip


def test_a_filled_in_form_reads_each_answer_after_its_label(tmp_path: Path) -> None:
    answers: list[Annotation] = [
        ("/Widget", (260, 695, 560, 713), "ACME WIDGETS, INC., a Delaware corporation"),
        ("/Widget", (300, 665, 560, 683), "JANE DOE"),
        ("/Widget", (180, 635, 400, 653), "CGC-26-612345"),
        ("/Widget", (180, 560, 400, 578), ""),  # a field left empty
    ]
    page = parse_file(annotated_pdf(tmp_path / "summons.pdf", SUMMONS, answers)).pages[0]
    assert page.method is ExtractionMethod.NATIVE
    assert page.text.split("\n") == [
        "SUMMONS (CITACION JUDICIAL)",
        "NOTICE TO DEFENDANT: ACME WIDGETS, INC., a Delaware corporation",
        "YOU ARE BEING SUED BY PLAINTIFF: JANE DOE",
        "CASE NUMBER: CGC-26-612345",
        "The name and address of the court is: Superior Court of California",
    ]


def test_typewriter_text_and_a_stamp_are_read_where_they_are_printed(tmp_path: Path) -> None:
    letter = [(72, 700, "Dear Counsel:"), (72, 680, "Enclosed please find the deposition transcript."),
              (72, 640, "Sincerely,")]  # fmt: skip
    added: list[Annotation] = [
        ("/Stamp", (400, 750, 560, 770), "FILED NOV 03 2026"),
        ("/FreeText", (72, 655, 500, 673), "Received 11/5 - calendar the reply deadline"),
    ]
    text = parse_file(annotated_pdf(tmp_path / "letter.pdf", letter, added)).pages[0].text
    assert text.index("FILED NOV 03 2026") < text.index("Dear Counsel:")
    assert text.index("transcript.") < text.index("Received 11/5 - calendar the reply deadline") < text.index(
        "Sincerely,"
    )


def test_a_page_with_only_links_reads_as_it_did(tmp_path: Path) -> None:
    lines = [(72, 700, "See Smith v. Jones, 123 F.3d 456 (9th Cir. 1999)."), (72, 680, "Id. at 460.")]
    linked = annotated_pdf(tmp_path / "brief.pdf", lines, [("/Link", (72, 695, 400, 713), "")])
    plain = annotated_pdf(tmp_path / "plain.pdf", lines, [])
    assert parse_file(linked).pages[0].text == parse_file(plain).pages[0].text
