"""Outlook .msg files read like .eml: real Outlook messages (tests/parse/data/outlook), their
headers, bodies, forwarded messages and attached files, checked against values read from the
files by other means (the raw OLE streams, PDFium on the extracted PDF)."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import olefile
import pytest

from casetrack.domain import ExtractionMethod
from casetrack.errors import DocumentUnreadable
from casetrack.parse import parse_file
from casetrack.parse.mail.msg import rtf_body
from tests.parse.test_docx import libreoffice_convert
from tests.parse.test_eml_attachments import message, own_text, write

OUTLOOK = Path(__file__).parent / "data" / "outlook"
BOUNCE = OUTLOOK / "bounce_with_forwarded_pdf.msg"  # received: Internet headers kept
DRAFT = OUTLOOK / "draft_with_attached_message.msg"  # headers only as MAPI properties
FORWARDED = "__attach_version1.0_#00000000/__substg1.0_3701000D/"  # the message stored in attachment 0
PDF_NAME = "北京 2017年12月02-03日 销售主管 确认n.pdf"


def stream(path: Path, name: str) -> bytes:
    with olefile.OleFileIO(str(path)) as ole:
        return bytes(ole.openstream(name).read())


def test_a_received_outlook_message_opens_with_the_headers_a_lawyer_cites_then_its_body() -> None:
    document = parse_file(BOUNCE)
    assert document.format == "msg"
    assert document.metadata["from"] == "Mail Delivery Subsystem <mailer-daemon@tjdpf.org.cn>"
    assert document.metadata["to"] == "yosipnps@model.com"
    assert document.metadata["date"] == "Mon, 27 Nov 2017 17:44:30 +0800"  # the sender's own time zone
    assert document.metadata["subject"] == "投递状态通知 (Failure Notice)"
    first = document.pages[0]
    assert first.text.startswith(
        "From: Mail Delivery Subsystem <mailer-daemon@tjdpf.org.cn>\nTo: yosipnps@model.com\n"
        "Date: Mon, 27 Nov 2017 17:44:30 +0800\nSubject: 投递状态通知 (Failure Notice)\n\n"
        "Hi. This is an automatically generated Delivery Status Notification at\ntjdpf.org.cn\n"
    )
    body = stream(BOUNCE, "__substg1.0_1000001F").decode("utf-16-le")
    assert " ".join(body.split()) in " ".join(document.text.split())  # the whole body, nothing lost
    assert first.approximate and first.method is ExtractionMethod.NATIVE  # e-mail pages are estimated by size


def test_the_bounced_message_inside_it_is_read_with_its_own_headers_and_body() -> None:
    document = parse_file(BOUNCE)
    assert document.metadata["attachments"] == "回复：转发：反馈·北京 2017年12月02-03日 销售 (attached message)"
    inner = document.pages[1].text  # a message it carries starts a page of its own (issue 26)
    assert inner.startswith(
        "Attached message:\nFrom: Meredith chen <yosipnps@model.com>\nTo: hp_lsz@tjdpf.org.cn\n"
        "Date: Mon, 27 Nov 2017 17:44:11 +0800\nSubject: 回复：转发：反馈·北京 2017年12月02-03日 销售\n\n"
        "Meredith\n\nFYI..."
    )


def test_the_pdf_the_bounced_message_carries_becomes_pages_with_its_own_text(tmp_path: Path) -> None:
    pdf = tmp_path / "attached.pdf"
    pdf.write_bytes(stream(BOUNCE, FORWARDED + "__attach_version1.0_#00000000/__substg1.0_37010102"))
    alone = parse_file(pdf)
    document = parse_file(BOUNCE)
    attached = [p for p in document.pages if p.attachment is not None]
    assert len(attached) == len(alone.pages) == 4
    assert document.metadata["attachment_pages"] == f"{PDF_NAME}: pages 3-6"  # after the bounce and the bounced
    for page, original in zip(attached, alone.pages, strict=True):
        assert page.attachment == PDF_NAME and page.attachment_page == original.number
        assert page.text.startswith(f"[Attachment 1: {PDF_NAME}, page {original.number} of 4]\n\n")
        assert own_text(page.text) == original.text
        assert page.method is ExtractionMethod.NATIVE and not page.approximate
    assert "销售主管 2 天强化训练营" in attached[0].text
    assert document.warnings == ()


def test_a_message_without_internet_headers_takes_them_from_its_outlook_properties() -> None:
    document = parse_file(DRAFT)
    # When Outlook submitted it, read independently of the property table: PidTagConversationIndex
    # opens with the high six bytes of the same FILETIME.
    index = stream(DRAFT, "__substg1.0_00710102")
    filetime = int.from_bytes(index[:6] + b"\0\0", "big")
    submitted = datetime(1601, 1, 1, tzinfo=UTC) + timedelta(microseconds=filetime // 10)
    assert submitted.strftime("%d %b %Y %H:%M") == "15 Nov 2016 23:29"
    assert document.metadata["date"] == "Tue, 15 Nov 2016 23:29:05 +0000"
    assert document.metadata["to"] == "outer@foo.bar"
    assert document.metadata["subject"] == "outer subject"
    assert "from" not in document.metadata  # nothing invented: this message names no sender
    assert document.metadata["attachments"] == "test (attached message)"
    assert document.text == (
        "To: outer@foo.bar\nDate: Tue, 15 Nov 2016 23:29:05 +0000\nSubject: outer subject\n\nOuter body\f"
        "Attached message:\nTo: test@foobar.com\nDate: Tue, 15 Nov 2016 23:28:26 +0000\nSubject: test\n\nbody"
    )


@pytest.mark.parametrize(
    ("path", "storage"),
    [(BOUNCE, ""), (BOUNCE, FORWARDED), (DRAFT, ""), (DRAFT, FORWARDED)],
)
def test_a_body_kept_only_as_compressed_rtf_reads_as_the_plain_body(path: Path, storage: str) -> None:
    # Some messages carry no plain-text body; the same message's compressed RTF must give its words.
    plain = stream(path, storage + "__substg1.0_1000001F").decode("utf-16-le")
    rtf = rtf_body(stream(path, storage + "__substg1.0_10090102"))
    assert rtf.split() == plain.split()
    assert rtf_body(b"\x00" * 16) == ""  # a damaged RTF stream gives no text, not an exception


def test_an_outlook_message_attached_to_an_eml_is_read_as_its_pages(tmp_path: Path) -> None:
    m = message("The bounce notice is attached.\n")
    m.add_attachment(BOUNCE.read_bytes(), maintype="application", subtype="vnd.ms-outlook", filename="bounce.msg")
    document = parse_file(write(tmp_path, m))
    attached = [p for p in document.pages if p.attachment == "bounce.msg"]
    assert len(attached) == 1 + 1 + 4  # the bounce's own page, the message it bounced, then the PDF that carries
    assert own_text(attached[0].text).startswith("From: Mail Delivery Subsystem <mailer-daemon@tjdpf.org.cn>")
    assert document.warnings == ()


def test_a_truncated_outlook_message_fails_with_a_fix(tmp_path: Path) -> None:
    cut = tmp_path / "cut.msg"
    cut.write_bytes(BOUNCE.read_bytes()[:60_000])
    with pytest.raises(DocumentUnreadable, match=r"Outlook message is damaged.*save it again"):
        parse_file(cut)


def test_a_pdf_named_msg_says_what_it_really_is(tmp_path: Path) -> None:
    fake = tmp_path / "mail.msg"
    fake.write_bytes(b"%PDF-1.4\n" + b"0" * 100)
    with pytest.raises(DocumentUnreadable, match=r"its name says \.msg but its content looks like a PDF document"):
        parse_file(fake)


@pytest.mark.skipif(not (shutil.which("soffice") or shutil.which("libreoffice")), reason="LibreOffice is not installed")
def test_a_word_doc_named_msg_is_refused_with_its_real_kind(tmp_path: Path) -> None:
    (tmp_path / "memo.txt").write_text("A memo, not a message.\n")
    renamed = libreoffice_convert(tmp_path / "memo.txt", "doc", tmp_path).rename(tmp_path / "memo.msg")
    with pytest.raises(DocumentUnreadable, match=r"not an Outlook message.*real extension"):
        parse_file(renamed)


def test_an_empty_eml_message_object_still_parses_through_the_shared_path(tmp_path: Path) -> None:
    # The .msg reader hands eml.py an EmailMessage; one with no headers and no body must say so, not fail.
    document = parse_file(write(tmp_path, EmailMessage(), "empty.eml"))
    assert document.warnings == ("The message has no recognisable headers or body text.",)
