"""Files attached to an e-mail are read as pages of the message: real .eml bytes carrying real
eval-dev files (a native PDF, a scanned PNG, a DOCX) through the real parsers."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod
from casetrack.parse import parse_file
from casetrack.parse.mail.attachments import MAX_ATTACHMENT_DEPTH, MAX_ATTACHMENTS_READ
from tests.parse.evaldev import EVAL_DEV

DOCS = EVAL_DEV / "docs"
LETTER = DOCS / "ca8_rule_28j_letter_us_v_xiang_2023.pdf"
SCAN = DOCS / "scan_cuad_ominto_reseller_agreement_p1.png"
NDA = DOCS / "common_paper_mutual_nda_v1.docx"
DOCX_TYPE = ("application", "vnd.openxmlformats-officedocument.wordprocessingml.document")


def message(body: str = "Attached are the letter and the signed page.\n\nJane\n") -> EmailMessage:
    m = EmailMessage()
    m["From"] = "Jane Counsel <jane@firm.example>"
    m["To"] = "client@example.com"
    m["Date"] = "Tue, 04 Mar 2025 10:15:00 -0500"
    m["Subject"] = "Letter and signed page"
    m.set_content(body)
    return m


def write(tmp_path: Path, m: EmailMessage, name: str = "mail.eml") -> Path:
    path = tmp_path / name
    path.write_bytes(m.as_bytes())
    return path


def own_text(page_text: str) -> str:
    """A page's text after its label line."""
    label, _, rest = page_text.partition("\n\n")
    assert label.startswith("[Attachment "), label
    return rest


def test_an_attached_pdf_becomes_pages_of_the_message_with_its_own_text_and_page_numbers(tmp_path: Path) -> None:
    m = message()
    m.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="28j letter.pdf")
    document = parse_file(write(tmp_path, m))
    alone = parse_file(LETTER)

    message_pages = [p for p in document.pages if p.attachment is None]
    attached = [p for p in document.pages if p.attachment is not None]
    assert [p.number for p in document.pages] == list(range(1, len(document.pages) + 1))
    assert len(attached) == len(alone.pages) == 2
    for page, original in zip(attached, alone.pages, strict=True):
        assert page.attachment == "28j letter.pdf" and page.attachment_page == original.number
        assert page.text.startswith(f"[Attachment 1: 28j letter.pdf, page {original.number} of 2]\n\n")
        assert own_text(page.text) == original.text  # the attachment's text as its own parser reads it
        assert page.method is ExtractionMethod.NATIVE and not page.approximate  # real pages, not estimates
    assert all(p.approximate for p in message_pages)  # the message's own pages are estimated by length
    first = len(message_pages) + 1
    assert document.metadata["attachments"] == "28j letter.pdf"
    assert document.metadata["attachment_pages"] == f"28j letter.pdf: pages {first}-{first + 1}"
    assert "Via ECF" not in document.own_text and "Via ECF" in document.text


def test_a_scanned_attachment_is_read_by_ocr_with_its_confidence(tmp_path: Path) -> None:
    m = message()
    m.add_attachment(SCAN.read_bytes(), maintype="image", subtype="png", filename="signed page.png")
    m.add_attachment(NDA.read_bytes(), maintype=DOCX_TYPE[0], subtype=DOCX_TYPE[1], filename="NDA.docx")
    document = parse_file(write(tmp_path, m))

    [scan] = [p for p in document.pages if p.attachment == "signed page.png"]
    if scan.method is ExtractionMethod.SKIPPED:
        pytest.skip("Tesseract is not installed here")
    assert scan.method is ExtractionMethod.OCR and scan.ocr_confidence is not None and scan.ocr_confidence > 60
    assert "RESELLER AGREEMENT" in scan.text
    nda = [p for p in document.pages if p.attachment == "NDA.docx"]
    alone = parse_file(NDA).pages
    assert [p.approximate for p in nda] == [p.approximate for p in alone]  # estimated where the DOCX's own are
    assert [own_text(p.text) for p in nda] == [p.text for p in alone]
    assert nda[0].text.startswith("[Attachment 2: NDA.docx, page 1 of ")
    assert "Mutual" in "\n".join(own_text(p.text) for p in nda)


def test_attachments_that_cannot_be_read_are_named_in_warnings_and_the_message_is_kept(tmp_path: Path) -> None:
    m = message("The offer and the budget are attached.\n")
    m.add_attachment(b"%PDF-1.4 truncated", maintype="application", subtype="pdf", filename="offer.pdf")
    m.add_attachment(b"PK\x03\x04 not really", maintype="application",
                     subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename="budget.xlsx")
    m.add_attachment(b"", maintype="application", subtype="pdf", filename="empty.pdf")
    document = parse_file(write(tmp_path, m))

    assert [p.attachment for p in document.pages] == [None]
    assert "The offer and the budget are attached." in document.pages[0].text
    [offer, budget, empty] = document.warnings
    assert offer.startswith("Attachment offer.pdf was not read. Could not read offer.pdf: ")
    assert "/tmp" not in offer and "casetrack-attachment" not in offer  # the attachment's name, not a scratch path
    assert budget.startswith("Attachment budget.xlsx was not read: CaseTrack does not read .xlsx files.")
    assert empty == "Attachment empty.pdf was not read: it is empty."
    assert document.metadata["attachments"] == "offer.pdf; budget.xlsx; empty.pdf"
    assert "attachment_pages" not in document.metadata


def test_an_attachment_without_a_file_name_is_read_by_its_content_type(tmp_path: Path) -> None:
    m = message()
    m.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf")
    document = parse_file(write(tmp_path, m))
    assert document.metadata["attachments"] == "(unnamed application/pdf)"
    assert [p.attachment_page for p in document.pages if p.attachment == "(unnamed application/pdf)"] == [1, 2]


def test_an_inline_logo_is_not_read_but_an_attached_image_is(tmp_path: Path) -> None:
    m = message()
    m.add_attachment(SCAN.read_bytes(), maintype="image", subtype="png", filename="image001.png", disposition="inline")
    document = parse_file(write(tmp_path, m))
    assert [p.attachment for p in document.pages] == [None]
    assert not document.warnings


def test_a_pdf_inside_a_forwarded_message_is_read_too(tmp_path: Path) -> None:
    original = message("Here is the letter.\n")
    original.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="letter.pdf")
    forward = message("Forwarding the thread below.\n")
    forward.add_attachment(original)  # message/rfc822
    document = parse_file(write(tmp_path, forward))
    assert "Attached message:" in document.own_text and "Here is the letter." in document.own_text
    assert [p.attachment_page for p in document.pages if p.attachment == "letter.pdf"] == [1, 2]


def test_e_mails_attached_as_files_are_read_to_a_bounded_depth(tmp_path: Path) -> None:
    innermost = message("The innermost message.\n")
    innermost.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="letter.pdf")
    current = innermost
    for level in range(MAX_ATTACHMENT_DEPTH + 1):
        outer = message(f"Wrapper {level}.\n")
        outer.add_attachment(current.as_bytes(), maintype="application", subtype="octet-stream",
                             filename=f"level{level}.eml")
        current = outer
    document = parse_file(write(tmp_path, current))
    text = document.text
    assert f"Wrapper {MAX_ATTACHMENT_DEPTH}." in text and f"Wrapper {MAX_ATTACHMENT_DEPTH - 1}." in text
    assert "The innermost message." not in text and "Via ECF" not in text
    assert any("levels deep inside other e-mails" in w for w in document.warnings)


def signed(content: EmailMessage, protocol: str = "application/pkcs7-signature") -> bytes:
    """`content` signed as S/MIME mailers send it (RFC 8551): multipart/signed, the content, then the signature."""
    headers = "".join(f"{k}: {v}\n" for k, v in message().items() if k in ("From", "To", "Date", "Subject"))
    signature = "MIAGCSqGSIb3DQEHAqCAMIACAQExDzANBglghkgBZQMEAgEFADCABgkqhkiG9w0BBwEAAKCAMIIF"
    raw = (f'{headers}MIME-Version: 1.0\nContent-Type: multipart/signed; protocol="{protocol}"; micalg=sha-256; '
           f'boundary="SIG"\n\nThis is a signed message.\n\n--SIG\n{content.as_string()}\n--SIG\n'
           f'Content-Type: {protocol}; name="smime.p7s"\nContent-Transfer-Encoding: base64\n'
           f'Content-Disposition: attachment; filename="smime.p7s"\n\n{signature}\n--SIG--\n')
    return raw.replace("\n", "\r\n").encode()


def test_a_signed_messages_body_and_files_are_read_and_its_signature_is_no_attachment(tmp_path: Path) -> None:
    content = EmailMessage()
    content.set_content("Notice of filing: the Rule 28(j) letter is attached.\n")
    content.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="28j letter.pdf")
    (tmp_path / "signed.eml").write_bytes(signed(content))
    document = parse_file(tmp_path / "signed.eml")
    assert document.pages[0].text.endswith("Subject: Letter and signed page\n\n"
                                           "Notice of filing: the Rule 28(j) letter is attached.")
    assert document.metadata["attachments"] == "28j letter.pdf"  # not the signature
    assert document.metadata["attachment_pages"] == "28j letter.pdf: pages 2-3"
    assert document.metadata["signed"] == "S/MIME digital signature (not verified)"
    assert document.warnings == ()


def test_an_encrypted_message_keeps_its_headers_and_says_why_its_body_is_missing(tmp_path: Path) -> None:
    m = message()
    m.clear_content()
    m.set_content(b"0\x80\x06\t*\x86H\x86\xf7\r\x01\x07\x03", maintype="application", subtype="pkcs7-mime",
                  params={"smime-type": "enveloped-data", "name": "smime.p7m"}, filename="smime.p7m")
    document = parse_file(write(tmp_path, m, "sealed.eml"))
    assert document.metadata["subject"] == "Letter and signed page"
    assert document.pages[0].text.startswith("From: Jane Counsel <jane@firm.example>")
    [warning] = document.warnings  # one: the envelope is not also reported as an unread attachment
    assert warning.startswith("The message's content is sealed by S/MIME (encrypted, or signed in opaque form): "
                              "its body and attachments cannot be read here.")


WINMAIL = Path(__file__).parent / "data" / "tnef" / "umlaut.tnef"


def test_the_files_outlook_packed_into_a_winmail_dat_are_read_as_attachments(tmp_path: Path) -> None:
    m = message("Anbei die Unterlagen.\n")
    m.add_attachment(WINMAIL.read_bytes(), maintype="application", subtype="ms-tnef", filename="winmail.dat")
    document = parse_file(write(tmp_path, m))
    [text_file] = [p for p in document.pages if p.attachment == "UmlautAnhang-äüö.txt"]
    assert text_file.text == "[Attachment 3: UmlautAnhang-äüö.txt, page 1 of 1]\n\nTEST äöü +-*/~"  # Latin-1, decoded
    assert document.metadata["attachment_pages"] == "UmlautAnhang-äüö.txt: page 2"
    checksums = document.metadata["attachment_sha256"].splitlines()
    assert [line.split("  ", 1)[1] for line in checksums] == ["UmlautAnhang-äüö.txt"]
    # unpacked, not reported as unread; its two logos (100x66 and 38x25 pixels) are no pages of text
    assert document.warnings == ()
    assert [p.attachment for p in document.pages] == [None, "UmlautAnhang-äüö.txt"]


def test_a_damaged_winmail_dat_is_named_and_the_message_kept(tmp_path: Path) -> None:
    m = message()
    m.add_attachment(b"<html>not a TNEF stream</html>", maintype="application", subtype="ms-tnef",
                     filename="winmail.dat")  # what a mail gateway that rewrote the attachment leaves
    document = parse_file(write(tmp_path, m))
    assert document.pages[0].text.endswith("Attached are the letter and the signed page.\n\nJane")
    assert document.warnings == ("Attachment winmail.dat (Outlook's package of the message's attachments) could not "
                                 "be unpacked; open the e-mail in Outlook and save its attachments.",)


def test_a_message_carrying_a_production_set_reads_its_first_fifty_files(tmp_path: Path) -> None:
    m = message("The production, as promised.\n")
    for n in range(1, MAX_ATTACHMENTS_READ + 2):
        m.add_attachment(f"Document {n} of the production.\n".encode(), maintype="text", subtype="plain",
                         filename=f"PROD{n:04d}.txt")
    document = parse_file(write(tmp_path, m))
    read = [p.attachment for p in document.pages if p.attachment]
    assert read == [f"PROD{n:04d}.txt" for n in range(1, MAX_ATTACHMENTS_READ + 1)]  # the 51st is not read
    assert document.warnings == (f"Only the first {MAX_ATTACHMENTS_READ} attachments were read; save the others "
                                 "from the message and ingest them as documents of their own.",)
