"""TXT, RTF and EML, and the shared page-text normalisation."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod
from casetrack.parse import parse_file
from casetrack.parse.normalize import normalize_page_text, split_approximate_pages


def test_normalisation_cleans_characters_but_never_moves_words() -> None:
    raw = "Line one   \r\nLine\ttwo\x00\r\n\r\n\r\n\r\nNext\u00a0paragraph\x07 ends\u2028Soft\ufffebreak  \n\n"
    assert normalize_page_text(raw) == "Line one\nLine two\n\nNext paragraph  ends\nSoft-break"


def test_approximate_pages_prefer_paragraph_breaks() -> None:
    paragraphs = [("word " * 150).strip() for _ in range(10)]  # ~750 characters each
    pages = split_approximate_pages("\n\n".join(paragraphs), page_chars=2000)
    assert all(len(page) <= 2000 for page in pages)
    assert all(page.count("\n\n") + 1 in (1, 2) for page in pages)  # whole paragraphs only
    assert "\n\n".join(pages) == "\n\n".join(paragraphs)


def test_hard_wrapped_text_gets_estimated_pages_that_end_at_a_sentence() -> None:
    # An EDGAR-style filing: one long paragraph hard-wrapped at 70 characters, so a line break
    # falls every line and cutting at the last one would split a sentence between two pages.
    sentence = "The Distributor shall use its best efforts to promote the Products in the Territory. "
    words = (sentence * 60).split()
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) >= 70:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    pages = split_approximate_pages("\n".join([*lines, line]), page_chars=2000)
    assert len(pages) > 2
    assert all(page.endswith("Territory.") for page in pages)
    assert all(page.startswith("The Distributor") for page in pages)


@pytest.mark.parametrize("opening", ["7. Notices.", "4. REPRESENTATIONS AND WARRANTIES a."])
def test_an_estimated_page_never_ends_on_a_clause_title_or_list_label(opening: str) -> None:
    clause = "Each party shall give the other written notice of any claim within thirty days of learning of it. "
    # The title's clause runs past the 2,000th character, so the last stop before it is the title's own.
    text = clause * 19 + "Notice may be given by e-mail to the addresses above. " + f"{opening} " + clause * 10
    [first, second, *_] = split_approximate_pages(text, page_chars=2000)
    assert first.endswith("Notice may be given by e-mail to the addresses above.")
    assert second.startswith(opening)


@pytest.mark.parametrize("titles", [["3. Governing Law."], ["ARTICLE V", "GOVERNING LAW"]], ids=["title", "two"])
def test_an_estimated_page_never_ends_on_a_title_paragraph(titles: list[str]) -> None:
    # Each on its own line between blank lines, as DOCX headings and TXT contracts have them: a page
    # ending on the title would leave its clause to open the next page, and no passage crosses a page.
    body = ("The Company shall deliver the monthly report to the Agent by the fifth business day. " * 14).strip()
    clause = "This Agreement is governed by the laws of the State of Delaware, without regard to conflict rules."
    text = "\n\n".join([body, "-3-", *titles, clause * 20])
    [first, second, *_] = split_approximate_pages(text, page_chars=2000)
    assert first.endswith("-3-")  # a printed page number is no title: it stays where it was
    assert second.startswith("\n\n".join([*titles, clause]))


def test_txt_form_feeds_are_real_pages(tmp_path: Path) -> None:
    (tmp_path / "transcript.txt").write_bytes(b"Page one line\r\nsecond line\r\n\x0cPage two\r\n\x0c")
    document = parse_file(tmp_path / "transcript.txt")
    assert [page.text for page in document.pages] == ["Page one line\nsecond line", "Page two"]
    assert not any(page.approximate for page in document.pages)
    assert document.metadata["encoding"] == "utf-8"


def test_txt_without_form_feeds_has_estimated_pages(tmp_path: Path) -> None:
    text = "\n\n".join(f"{number}. The tenant shall keep the premises in good repair." for number in range(200))
    (tmp_path / "lease.txt").write_text(text, encoding="utf-8")
    document = parse_file(tmp_path / "lease.txt")
    assert len(document.pages) > 2 and all(page.approximate for page in document.pages)
    assert "\n\n".join(page.text for page in document.pages) == text


def test_txt_with_a_utf16_bom_decodes(tmp_path: Path) -> None:
    (tmp_path / "u16.txt").write_bytes("\u00a7 12 \u2014 \u201cNotice\u201d".encode("utf-16"))
    document = parse_file(tmp_path / "u16.txt")
    assert document.pages[0].text == "\u00a7 12 \u2014 \u201cNotice\u201d"
    assert document.metadata["encoding"] == "utf-16"


def test_rtf_paragraphs_escapes_and_page_breaks(tmp_path: Path) -> None:
    rtf = (
        r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times New Roman;}}"
        r"\pard The Lessee\rquote s \'93option\'94 to renew.\par Second paragraph.\par\page "
        r"Page two text.\par}"
    )
    (tmp_path / "lease.rtf").write_text(rtf, encoding="ascii")
    document = parse_file(tmp_path / "lease.rtf")
    assert [page.text for page in document.pages] == [
        "The Lessee\u2019s \u201coption\u201d to renew.\n\nSecond paragraph.",
        "Page two text.",
    ]
    assert document.format == "rtf" and not any(page.approximate for page in document.pages)


def build_email(*, html_only: bool = False) -> bytes:
    message = EmailMessage()
    message["From"] = "Jane Counsel <jane@lawfirm.example>"
    message["To"] = "client@example.com"
    message["Cc"] = "paralegal@lawfirm.example"
    message["Date"] = "Tue, 04 Mar 2025 10:15:00 -0500"
    message["Subject"] = "Re: Settlement offer"
    if html_only:
        message.set_content(
            "<html><head><style>p {color: red}</style></head><body><p>The offer is <b>$40,000</b>.</p>"
            "<p>Please respond by Friday.<br>Regards,<br>Jane</p></body></html>",
            subtype="html",
        )
    else:
        message.set_content("The offer is $40,000.\n\nPlease respond by Friday.\n")
        message.add_alternative("<p>HTML copy</p>", subtype="html")
    message.add_attachment(b"%PDF-1.4 stub", maintype="application", subtype="pdf", filename="offer.pdf")
    return message.as_bytes()


def test_eml_headers_body_and_attachments(tmp_path: Path) -> None:
    (tmp_path / "offer.eml").write_bytes(build_email())
    document = parse_file(tmp_path / "offer.eml")
    assert document.pages[0].text == (
        "From: Jane Counsel <jane@lawfirm.example>\nTo: client@example.com\nCc: paralegal@lawfirm.example\n"
        "Date: Tue, 04 Mar 2025 10:15:00 -0500\nSubject: Re: Settlement offer\n\n"
        "The offer is $40,000.\n\nPlease respond by Friday."
    )
    assert document.metadata["subject"] == "Re: Settlement offer"
    assert document.metadata["from"] == "Jane Counsel <jane@lawfirm.example>"
    assert document.metadata["attachments"] == "offer.pdf"
    assert document.format == "eml" and document.pages[0].method is ExtractionMethod.NATIVE


def test_a_sent_copys_bcc_recipients_are_cited_after_cc(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"] = "Jane Counsel <jane@lawfirm.example>"
    message["To"] = "opposing@otherfirm.example"
    message["Bcc"] = "Robert Client <bob@acme.example>"
    message["Subject"] = "Settlement offer"
    message.set_content("Our offer stands.\n")
    (tmp_path / "sent.eml").write_bytes(message.as_bytes())
    document = parse_file(tmp_path / "sent.eml")
    assert document.pages[0].text.startswith(
        "From: Jane Counsel <jane@lawfirm.example>\nTo: opposing@otherfirm.example\n"
        "Bcc: Robert Client <bob@acme.example>\nSubject: Settlement offer\n\n"
    )
    assert document.metadata["bcc"] == "Robert Client <bob@acme.example>"  # who was copied in secret


def test_eml_html_body_is_reduced_to_text(tmp_path: Path) -> None:
    (tmp_path / "html.eml").write_bytes(build_email(html_only=True))
    body = parse_file(tmp_path / "html.eml").pages[0].text.split("\n\n", 1)[1]
    assert body == "The offer is $40,000.\n\nPlease respond by Friday.\nRegards,\nJane"
