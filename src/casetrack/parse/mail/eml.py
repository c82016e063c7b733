"""E-mail (.eml, and Outlook's .msg through msg.py): the headers a lawyer cites, then the body,
then messages forwarded as attachments (their headers and body); the files attached to it
follow as pages of their own (eml_attachments.py)."""

from __future__ import annotations

import email
import email.errors
import email.policy
import re
from dataclasses import replace
from email.message import EmailMessage, Message
from html.parser import HTMLParser
from pathlib import Path

from casetrack.domain import MailPart, ParsedDocument
from casetrack.parse.formats import EML
from casetrack.parse.mail.attachments import (
    MAX_ATTACHED_MESSAGE_DEPTH,
    attached_file_pages,
    attached_messages,
    file_name,
    inner_message,
    reads_attachment,
    signed_content,
)
from casetrack.parse.mail.quotes import message_key, split_message
from casetrack.parse.mail.skim import skimmed
from casetrack.parse.normalize import native_pages, split_approximate_pages
from casetrack.parse.options import ParseOptions
from casetrack.parse.text_file import decode_text, decodes

# Headers that tie a message into its thread (RFC 5322 §3.6.4), as metadata keys.
THREAD_HEADERS = (("Message-ID", "message_id"), ("In-Reply-To", "in_reply_to"), ("References", "references"))
# (header, metadata key) in the order they head page 1.
# Bcc is in a sender's own copy only (a sent item, an export of the Sent folder): who was copied in secret.
CITED_HEADERS = (
    ("From", "from"), ("To", "to"), ("Cc", "cc"), ("Bcc", "bcc"), ("Date", "date"), ("Subject", "subject"),
)


def parse_eml(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse an .eml message (see `message_document`)."""
    with path.open("rb") as handle:  # an unread attachment's body is never held (eml_skim)
        message = email.message_from_bytes(skimmed(handle, reads_attachment), policy=email.policy.default)
    return message_document(message, options, EML.id)


def message_document(message: Message, options: ParseOptions, file_format: str) -> ParsedDocument:
    """An e-mail as pages: page 1 starts with From/To/Cc/Date/Subject lines, then the body (text/plain
    preferred, else HTML reduced to text); each earlier message the body quotes or forwards, and each message
    attached to it, starts a page of its own (parse.mail_quotes), so that no passage mixes what this message
    says with what it quotes; pages are otherwise estimated by size. The pages of the files attached to it
    follow. `file_format` is the file's ("eml", or "msg" for an Outlook message converted by msg.py)."""
    metadata = {key: value for header, key in CITED_HEADERS if (value := header_text(message, header))}
    for header, key in THREAD_HEADERS:  # one message's copies (sender's, each recipient's) share its Message-ID
        if value := header_text(message, header):
            metadata[key] = value
    attachments = _attachment_names(message)
    if attachments:
        metadata["attachments"] = "; ".join(attachments)
    warnings: list[str] = []
    if signature := _signature(message):
        metadata["signed"] = signature
    if sealed := _sealed(message):
        warnings.append(f"The message's content is sealed by {sealed} (encrypted, or signed in opaque form): its body "
                        "and attachments cannot be read here. Open it in the mail program that holds the key, save "
                        "or print a readable copy, and ingest that.")
    parts = _message_parts(message, warnings, depth=0)
    if not any(text.strip() for text, _ in parts):
        warnings.append("The message has no recognisable headers or body text.")
    texts: list[str] = []
    messages: list[MailPart] = []
    for text, part in parts:
        if texts and not text.strip():
            continue
        first = len(texts) + 1
        texts.extend(split_approximate_pages(text))
        messages.append(replace(part, first_page=first, last_page=len(texts)))
    metadata |= _message_keys(messages)
    pages = native_pages(texts, approximate=True)
    attached = attached_file_pages(message, len(pages) + 1, options)
    if attached.placed:
        metadata["attachment_pages"] = "; ".join(attached.placed)
    if attached.checksums:
        metadata["attachment_sha256"] = "\n".join(attached.checksums)
    warnings.extend(attached.warnings)
    return ParsedDocument(format=file_format, pages=(*pages, *attached.pages), metadata=metadata,
                          warnings=tuple(warnings), messages=tuple(messages))


def _message_parts(message: Message, warnings: list[str], depth: int) -> list[tuple[str, MailPart]]:
    """The texts of this message (header lines and its own words), of each message its body quotes, and of the
    messages attached to it (opened by "Attached message:"), each with who wrote it to whom and when."""
    header_lines = [f"{header}: {value}" for header, _ in CITED_HEADERS if (value := header_text(message, header))]
    body = _body_text(message, warnings)
    recipients = "; ".join(v for h in ("To", "Cc") if (v := header_text(message, h)))
    out: list[tuple[str, MailPart]] = []
    for n, part in enumerate(split_message(body)):
        text = body[part.start:part.end].strip()
        key = message_key(body[part.text_start:part.end])
        if n == 0:
            own = MailPart(0, 0, depth > 0, header_text(message, "From"), recipients, header_text(message, "Date"),
                           header_text(message, "Subject"), key)
            out.append(("\n\n".join(block for block in ("\n".join(header_lines), text) if block), own))
        elif part.quoted:
            h = part.header
            out.append((text, MailPart(0, 0, True, h.sender, h.recipients, h.sent, h.subject, key)))
        else:  # the reply's own words again, after a ">"-quoted block
            out.append((text, replace(out[0][1], key="")))
    if depth < MAX_ATTACHED_MESSAGE_DEPTH:
        for attached in attached_messages(message):
            inner = _message_parts(attached, warnings, depth + 1)
            if inner:
                first_text, first_part = inner[0]
                inner[0] = ("Attached message:\n" + first_text, first_part)
                out.extend(inner)
    return out


def _message_keys(messages: list[MailPart]) -> dict[str, str]:
    """The metadata threads and search read: this message's own key, and the pages and key of each message it
    quotes or carries ("2-3 9f2c...; 4 51d0..."), in the order they stand."""
    out: dict[str, str] = {}
    if messages and not messages[0].quoted and messages[0].key:
        out["message_key"] = messages[0].key
    quoted = [f"{_pages(m)} {m.key or '-'}" for m in messages if m.quoted]
    if quoted:
        out["quoted_messages"] = "; ".join(quoted)
    return out


def _pages(part: MailPart) -> str:
    return str(part.first_page) if part.first_page == part.last_page else f"{part.first_page}-{part.last_page}"


def header_text(message: Message, name: str) -> str:
    """A header's value on one line, or "" when absent or not parseable by the default policy."""
    try:
        value = message.get(name)
    except (ValueError, IndexError, email.errors.MessageError):  # a header the default policy cannot parse
        return ""
    return " ".join(str(value).split()) if value is not None else ""


# multipart/signed's protocol parameter names the kind of signature (RFC 1847).
_SIGNATURES = {"application/pkcs7-signature": "S/MIME", "application/x-pkcs7-signature": "S/MIME",
               "application/pgp-signature": "PGP"}  # fmt: skip


def _signature(message: Message) -> str:
    """ "S/MIME digital signature (not verified)" for a signed message, else ""."""
    if message.get_content_type() != "multipart/signed":
        return ""
    kind = _SIGNATURES.get(str(message.get_param("protocol", "")).lower())
    return f"{kind + ' ' if kind else ''}digital signature (not verified)"


def _sealed(message: Message) -> str:
    """ "S/MIME" or "PGP" when the message's content is sealed inside a cryptographic envelope, else ""."""
    kind = signed_content(message).get_content_type()
    if kind in ("application/pkcs7-mime", "application/x-pkcs7-mime"):
        return "S/MIME"
    return "PGP" if kind == "multipart/encrypted" else ""


def _attachment_names(message: Message) -> list[str]:
    content = signed_content(message)
    if not isinstance(content, EmailMessage):
        return []
    names = []
    for part in content.iter_attachments():
        if not part.get_filename() and part.get_content_type() == "message/rfc822":
            inner = inner_message(part)
            subject = header_text(inner, "Subject") if inner is not None else ""
            names.append(f"{subject or '(no subject)'} (attached message)")
        else:
            names.append(file_name(part))
    return names


def _body_text(message: Message, warnings: list[str]) -> str:
    """The plain-text body, or the HTML body reduced to text when there is no plain one or it
    is blank (some mailers send an empty text/plain beside the real HTML)."""
    signed = signed_content(message)
    if not isinstance(signed, EmailMessage):
        return ""
    for subtype in ("plain", "html"):
        part = signed.get_body(preferencelist=(subtype,))
        if part is None:
            continue
        content = _decoded_body(part, warnings)
        text = html_to_text(content) if subtype == "html" else content.strip()
        if text:
            return text
    return ""


def _decoded_body(part: Message, warnings: list[str]) -> str:
    """A text part's content, trusting its charset label only when the bytes agree with it:
    old mail clients label Windows-1252 text as UTF-8, and UTF-8 text as ISO-8859-1."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    label = part.get_content_charset()
    if payload.isascii():
        return payload.decode("ascii")
    try:
        labelled = payload.decode(label or "ascii", errors="replace")
    except LookupError:  # a charset name Python does not know
        labelled = None
    if labelled is not None and label not in ("utf-8", "utf8") and decodes(payload, "utf-8"):
        labelled = None  # non-ASCII bytes that happen to form valid UTF-8 are almost surely UTF-8
    elif labelled is not None and labelled.count("\ufffd") * 2 <= sum(not char.isascii() for char in labelled):
        return labelled  # the label fits (a stray bad byte in real UTF-8 stays one replacement character)
    text, encoding = decode_text(payload)
    if label:
        warnings.append(f"The message body is labelled {label} but is not; it was read as {encoding}.")
    return text


_BLOCK_TAGS = frozenset(
    {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "blockquote", "pre", "section", "article"}
)
_LINE_TAGS = frozenset({"br", "li", "tr", "dt", "dd"})
_HIDDEN_TAGS = frozenset({"script", "style", "head", "title"})


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN_TAGS:
            self.hidden_depth += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")
        elif tag in _LINE_TAGS:
            self.parts.append("\n")
        elif tag == "td" or tag == "th":
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN_TAGS:
            self.hidden_depth = max(self.hidden_depth - 1, 0)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden_depth:
            self.parts.append(re.sub(r"[ \t\r\n\f]+", " ", data))  # HTML whitespace is not layout


def html_to_text(html: str) -> str:
    """Visible text of an HTML body: block elements become paragraphs, <br>/<li>/<tr> lines."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    text = "".join(extractor.parts)
    text = re.sub(r" *\n *", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
