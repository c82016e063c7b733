"""E-mail variants a paralegal meets: empty plain-text alternatives, mislabelled charsets,
messages forwarded as attachments. Real .eml bytes through the real parser."""

from __future__ import annotations

from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

from casetrack.parse import parse_file


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def body_of(path: Path) -> str:
    return parse_file(path).pages[0].text.split("\n\n", 1)[1]


def test_an_empty_plain_text_alternative_falls_back_to_the_html_body(tmp_path: Path) -> None:
    message = MIMEMultipart("alternative")
    message["From"] = "clerk@court.example"
    message["Subject"] = "Hearing moved"
    message.attach(MIMEText("\r\n", "plain", "utf-8"))  # what some mailers send beside the real HTML body
    message.attach(MIMEText("<p>The hearing is moved to <b>9 May</b>.</p>", "html", "utf-8"))
    assert body_of(write(tmp_path / "moved.eml", message.as_bytes())) == "The hearing is moved to 9 May."


def test_a_body_in_windows_1252_labelled_utf_8_is_decoded_with_a_warning(tmp_path: Path) -> None:
    raw = (
        b"From: tenant@example.com\r\nSubject: Repairs\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        b"The \x93Landlord\x94 must repair the caf\xe9 roof \x96 see \xa7 4.\r\n"
    )
    document = parse_file(write(tmp_path / "repairs.eml", raw))
    body = document.pages[0].text.split("\n\n", 1)[1]
    assert body == "The \u201cLandlord\u201d must repair the caf\u00e9 roof \u2013 see \u00a7 4."
    assert any("utf-8" in warning and "cp1252" in warning for warning in document.warnings)


def test_a_utf_8_body_labelled_iso_8859_1_is_read_as_utf_8(tmp_path: Path) -> None:
    raw = (
        b"From: tenant@example.com\r\nSubject: R\xc3\xa9sum\xc3\xa9\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
    ) + "R\u00e9sum\u00e9 \u2014 the \u201cfinal\u201d offer.\r\n".encode()
    document = parse_file(write(tmp_path / "offer.eml", raw))
    assert document.pages[0].text.split("\n\n", 1)[1] == "R\u00e9sum\u00e9 \u2014 the \u201cfinal\u201d offer."
    assert document.warnings == ("The message body is labelled iso-8859-1 but is not; it was read as utf-8.",)


def test_a_message_forwarded_as_an_attachment_is_read_and_named(tmp_path: Path) -> None:
    original = EmailMessage()
    original["From"] = "seller@example.com"
    original["Date"] = "Mon, 03 Mar 2025 09:00:00 +0000"
    original["Subject"] = "Price for the Elm Street lot"
    original.set_content("Our final price is $410,000, valid until Friday.")
    forward = EmailMessage()
    forward["From"] = "client@example.com"
    forward["Subject"] = "Fwd: Price for the Elm Street lot"
    forward.set_content("See the seller's offer below.")
    forward.add_attachment(original)
    document = parse_file(write(tmp_path / "forward.eml", forward.as_bytes()))
    assert body_of(tmp_path / "forward.eml") == "See the seller's offer below."
    assert document.pages[1].text == (  # the message it forwards starts a page of its own (issue 26)
        "Attached message:\nFrom: seller@example.com\nDate: Mon, 03 Mar 2025 09:00:00 +0000\n"
        "Subject: Price for the Elm Street lot\n\nOur final price is $410,000, valid until Friday."
    )
    assert document.metadata["attachments"] == "Price for the Elm Street lot (attached message)"
