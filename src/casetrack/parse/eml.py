"""E-mail (.eml): the headers a lawyer cites, then the body; attachments are listed, not parsed."""

from __future__ import annotations

import email
import email.errors
import email.policy
import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser
from pathlib import Path

from casetrack.domain import ParsedDocument
from casetrack.parse.normalize import native_pages, split_approximate_pages
from casetrack.parse.options import ParseOptions

# (header, metadata key) in the order they head page 1.
CITED_HEADERS = (("From", "from"), ("To", "to"), ("Cc", "cc"), ("Date", "date"), ("Subject", "subject"))


def parse_eml(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse an .eml message: page 1 starts with From/To/Cc/Date/Subject lines, then the body
    (text/plain preferred, else HTML reduced to text). Pages are estimated by size."""
    with path.open("rb") as handle:
        message = email.message_from_binary_file(handle, policy=email.policy.default)
    metadata: dict[str, str] = {}
    header_lines = []
    for header, key in CITED_HEADERS:
        value = _header(message, header)
        if value:
            metadata[key] = value
            header_lines.append(f"{header}: {value}")
    attachments = _attachment_names(message)
    if attachments:
        metadata["attachments"] = "; ".join(attachments)
    body = _body_text(message)
    text = "\n".join(header_lines) + ("\n\n" + body if body else "")
    warnings = () if header_lines or body else ("The message has no recognisable headers or body text.",)
    pages = native_pages(split_approximate_pages(text), approximate=True)
    return ParsedDocument(format="eml", pages=pages, metadata=metadata, warnings=warnings)


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
    except (ValueError, IndexError, email.errors.MessageError):  # a header the default policy cannot parse
        return ""
    return " ".join(str(value).split()) if value is not None else ""


def _attachment_names(message: Message) -> list[str]:
    if not isinstance(message, EmailMessage):
        return []
    names = []
    for part in message.iter_attachments():
        names.append(part.get_filename() or f"(unnamed {part.get_content_type()})")
    return names


def _body_text(message: Message) -> str:
    if not isinstance(message, EmailMessage):
        return ""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, UnicodeDecodeError):  # an unknown or lying charset label
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return ""
    return html_to_text(content) if part.get_content_type() == "text/html" else content


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
