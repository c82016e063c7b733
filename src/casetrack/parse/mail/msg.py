"""Outlook e-mail (.msg): what Outlook saves when a message is dragged into a case folder.

A .msg is an OLE compound file of MAPI properties ([MS-OXMSG]): one stream per string or
binary property, a fixed-size table for numbers and times, and a sub-storage per recipient
and per attachment (an attached message is a whole message stored inside its attachment).
olefile reads the container; this module turns the properties into the EmailMessage an .eml
would give, so both kinds of e-mail read alike through eml.py: the headers a lawyer cites, the
body, forwarded messages, and each attached file as pages of its own.

The headers come from the message's own Internet headers when Outlook kept them (received mail:
they are what an .eml export of it shows, the sender's time zone included), else from the MAPI
properties (sent items and drafts have no Internet headers). The body is the plain-text one,
else the HTML one, else the compressed RTF one (`compressed_rtf`, then striprtf).
"""

from __future__ import annotations

import codecs
import email.policy
import email.utils
import mimetypes
import struct
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.parser import HeaderParser
from functools import cached_property
from pathlib import Path

import olefile
from compressed_rtf import decompress
from striprtf.striprtf import rtf_to_text

from casetrack.domain import ParsedDocument
from casetrack.errors import DocumentUnreadable
from casetrack.parse.formats import MSG
from casetrack.parse.mail.attachments import MAX_ATTACHED_MESSAGE_DEPTH
from casetrack.parse.mail.eml import header_text, message_document
from casetrack.parse.options import ParseOptions
from casetrack.parse.rtf import rtf_encoding

# MAPI property ids ([MS-OXPROPS]) this reader uses.
SUBJECT = 0x0037
CLIENT_SUBMIT_TIME = 0x0039
TRANSPORT_HEADERS = 0x007D
SENDER_NAME = 0x0C1A
SENDER_ADDRESS_TYPE = 0x0C1E
SENDER_ADDRESS = 0x0C1F
RECIPIENT_TYPE = 0x0C15
MESSAGE_DELIVERY_TIME = 0x0E06
BODY = 0x1000
INTERNET_MESSAGE_ID = 0x1035
INTERNET_REFERENCES = 0x1039
IN_REPLY_TO_ID = 0x1042
RTF_COMPRESSED = 0x1009
HTML = 0x1013
DISPLAY_NAME = 0x3001
ADDRESS_TYPE = 0x3002
EMAIL_ADDRESS = 0x3003
ATTACH_DATA = 0x3701
ATTACH_FILENAME = 0x3704
ATTACH_METHOD = 0x3705
ATTACH_LONG_FILENAME = 0x3707
ATTACH_MIME_TAG = 0x370E
ATTACH_CONTENT_ID = 0x3712
SMTP_ADDRESS = 0x39FE
INTERNET_CODEPAGE = 0x3FDE
MESSAGE_CODEPAGE = 0x3FFD
SENDER_SMTP_ADDRESS = 0x5D01
ATTACHMENT_HIDDEN = 0x7FFE

# Property types: how a value is stored.
PT_LONG, PT_BOOLEAN, PT_SYSTIME = 0x0003, 0x000B, 0x0040
PT_STRING8, PT_UNICODE, PT_BINARY, PT_OBJECT = 0x001E, 0x001F, 0x0102, 0x000D

ATTACH_EMBEDDED_MSG, ATTACH_OLE = 5, 6
RECIPIENT_HEADERS = {1: "To", 2: "Cc", 3: "Bcc"}  # PidTagRecipientType, low bits
# The fixed-size property table opens with a header: 32 bytes in the message itself, 24 in an attached
# message, 8 in a recipient or attachment; then one 16-byte entry per property (tag, flags, value).
_TOP_HEADER, _EMBEDDED_HEADER, _CHILD_HEADER = 32, 24, 8
_PROPERTIES = "__properties_version1.0"
_RECIPIENT_PREFIX = "__recip_version1.0_#"
_ATTACHMENT_PREFIX = "__attach_version1.0_#"
_FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)
_UNREADABLE_FIX = "Open it in Outlook and save it again (File > Save As, Outlook Message Format - Unicode)."


def parse_msg(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse an Outlook .msg. Raises DocumentUnreadable for a damaged file, or an Office file that is no message."""
    try:
        # DEFECT_INCORRECT: a truncated file raises instead of reading as a message with parts missing.
        ole = olefile.OleFileIO(str(path), raise_defects=olefile.DEFECT_INCORRECT)
    except (OSError, ValueError, struct.error) as exc:
        raise DocumentUnreadable(str(path), "the Outlook message is damaged or incomplete", _UNREADABLE_FIX) from exc
    try:
        if not ole.exists(_PROPERTIES):
            raise DocumentUnreadable(
                str(path),
                "it is a Microsoft Office file (such as a Word .doc) but not an Outlook message",
                "Rename it with its real extension (for example .doc) and ingest it again.",
            )
        warnings: list[str] = []
        try:
            entries = ["/".join(entry) for entry in ole.listdir(streams=True, storages=True)]
            message = _Storage(ole, entries, "", _TOP_HEADER).message(warnings, depth=0)
        except (OSError, ValueError, struct.error, UnicodeDecodeError) as exc:
            raise DocumentUnreadable(str(path), "the Outlook message is damaged", _UNREADABLE_FIX) from exc
    finally:
        ole.close()
    document = message_document(message, options, MSG.id)
    return replace(document, warnings=(*warnings, *document.warnings))


class _Storage:
    """One message, recipient or attachment inside the compound file: its property streams and table."""

    def __init__(self, ole: olefile.OleFileIO, entries: list[str], prefix: str, header_size: int) -> None:
        self.ole = ole
        self.entries = entries  # every stream and storage path of the file, listed once
        self.prefix = prefix  # "" for the message itself, else "__attach_version1.0_#00000000/" and the like
        self.header_size = header_size

    @cached_property
    def _table(self) -> bytes:
        """The fixed-size property table, read once: every number, flag and time is looked up in it."""
        return self._stream(_PROPERTIES) or b""

    def _stream(self, name: str) -> bytes | None:
        path = self.prefix + name
        return self.ole.openstream(path).read() if self.ole.exists(path) else None

    def string(self, prop: int, codec: str = "cp1252") -> str:
        """A string property ("" when absent), read from its Unicode stream, else its 8-bit one."""
        raw = self._stream(f"__substg1.0_{prop:04X}{PT_UNICODE:04X}")
        if raw is not None:
            return raw.decode("utf-16-le", errors="replace").rstrip("\x00")
        raw = self._stream(f"__substg1.0_{prop:04X}{PT_STRING8:04X}")
        return raw.decode(codec, errors="replace").rstrip("\x00") if raw is not None else ""

    def binary(self, prop: int) -> bytes | None:
        return self._stream(f"__substg1.0_{prop:04X}{PT_BINARY:04X}")

    def fixed(self, prop: int, prop_type: int) -> bytes | None:
        """The 8-byte value of a fixed-size property from the property table, or None."""
        table = self._table
        for offset in range(self.header_size, len(table) - 15, 16):
            tag = int.from_bytes(table[offset : offset + 4], "little")
            if tag == (prop << 16) | prop_type:
                return table[offset + 8 : offset + 16]
        return None

    def number(self, prop: int) -> int | None:
        value = self.fixed(prop, PT_LONG)
        return int.from_bytes(value[:4], "little") if value is not None else None

    def flag(self, prop: int) -> bool:
        value = self.fixed(prop, PT_BOOLEAN)
        return value is not None and value[0] != 0

    def time(self, prop: int) -> datetime | None:
        value = self.fixed(prop, PT_SYSTIME)
        ticks = int.from_bytes(value, "little") if value is not None else 0
        return _FILETIME_EPOCH + timedelta(microseconds=ticks // 10) if ticks else None

    def children(self, kind: str) -> list[_Storage]:
        """The recipient or attachment sub-storages directly under this one, in their stored order."""
        start = f"{self.prefix}{kind}"
        names = set()
        for entry in self.entries:
            if entry.startswith(start):  # the sub-storage itself, or a stream or storage inside it
                end = entry.find("/", len(start))
                names.add(entry if end < 0 else entry[:end])
        return [_Storage(self.ole, self.entries, f"{name}/", _CHILD_HEADER) for name in sorted(names)]

    def codec(self) -> str:
        """The code page of this message's 8-bit strings (old Outlook files), as a Python codec."""
        for prop in (INTERNET_CODEPAGE, MESSAGE_CODEPAGE):
            page = self.number(prop)
            if page:
                try:
                    return codecs.lookup(f"cp{page}").name
                except LookupError:
                    continue
        return "cp1252"

    def message(self, warnings: list[str], depth: int) -> EmailMessage:
        """This storage's message as an EmailMessage: cited headers, body, attachments."""
        codec = self.codec()
        message = EmailMessage(policy=email.policy.default)
        internet = HeaderParser(policy=email.policy.default).parsestr(self.string(TRANSPORT_HEADERS, codec))
        mapi = self._mapi_headers(codec)
        for header in ("From", "To", "Cc", "Bcc", "Date"):
            value = header_text(internet, header) or mapi.get(header, "")
            if value:
                message[header] = value
        message_id = header_text(internet, "Message-ID") or " ".join(self.string(INTERNET_MESSAGE_ID, codec).split())
        if message_id:
            message["Message-ID"] = message_id
        for header, prop in (("In-Reply-To", IN_REPLY_TO_ID), ("References", INTERNET_REFERENCES)):  # its thread
            if value := header_text(internet, header) or " ".join(self.string(prop, codec).split()):
                message[header] = value
        subject = " ".join(self.string(SUBJECT, codec).split())  # a header value holds no line breaks
        if subject:
            message["Subject"] = subject
        html = self._html(codec)
        body = self.string(BODY, codec).strip()
        if body:
            message.set_content(body)
        elif html.strip():
            message.set_content(html, subtype="html")
        elif (rtf := self.binary(RTF_COMPRESSED)) is not None and (text := rtf_body(rtf)):
            message.set_content(text)
        for attachment in self.children(_ATTACHMENT_PREFIX):
            attachment.attach_to(message, html, codec, warnings, depth)
        return message

    def _mapi_headers(self, codec: str) -> dict[str, str]:
        """From/To/Cc/Bcc/Date from the MAPI properties, for messages without Internet headers (a sent item's
        recipients include those copied in secret)."""
        headers: dict[str, str] = {}
        sender_address = self.string(SENDER_SMTP_ADDRESS, codec)
        if not sender_address and self.string(SENDER_ADDRESS_TYPE, codec).upper() == "SMTP":
            sender_address = self.string(SENDER_ADDRESS, codec)
        sender = _mailbox(self.string(SENDER_NAME, codec), sender_address)
        if sender:
            headers["From"] = sender
        grouped: dict[str, list[str]] = {}
        for recipient in self.children(_RECIPIENT_PREFIX):
            header = RECIPIENT_HEADERS.get((recipient.number(RECIPIENT_TYPE) or 1) & 0xF, "To")
            address = recipient.string(SMTP_ADDRESS, codec)
            if not address and recipient.string(ADDRESS_TYPE, codec).upper() == "SMTP":
                address = recipient.string(EMAIL_ADDRESS, codec)
            if mailbox := _mailbox(recipient.string(DISPLAY_NAME, codec), address):
                grouped.setdefault(header, []).append(mailbox)
        headers.update({header: ", ".join(boxes) for header, boxes in grouped.items()})
        sent = self.time(CLIENT_SUBMIT_TIME) or self.time(MESSAGE_DELIVERY_TIME)
        if sent is not None:
            headers["Date"] = email.utils.format_datetime(sent)
        return headers

    def _html(self, codec: str) -> str:
        raw = self.binary(HTML)
        if raw is None:
            return self.string(HTML, codec)
        return raw.decode(codec, errors="replace")

    def attach_to(self, message: EmailMessage, html: str, codec: str, warnings: list[str], depth: int) -> None:
        """Add this attachment to `message` as the MIME part an .eml would carry."""
        name = " ".join(
            (self.string(ATTACH_LONG_FILENAME, codec) or self.string(ATTACH_FILENAME, codec)
             or self.string(DISPLAY_NAME, codec)).split()
        )  # fmt: skip
        method = self.number(ATTACH_METHOD)
        stored_message = f"{self.prefix}__substg1.0_{ATTACH_DATA:04X}{PT_OBJECT:04X}"
        if method == ATTACH_EMBEDDED_MSG and self.ole.exists(stored_message):
            if depth < MAX_ATTACHED_MESSAGE_DEPTH:  # eml.py reads no deeper; a hostile nesting stops here
                inner = _Storage(self.ole, self.entries, f"{stored_message}/", _EMBEDDED_HEADER)
                message.add_attachment(inner.message(warnings, depth + 1))
            return
        data = self.binary(ATTACH_DATA)
        if data is None:
            what = "an embedded object" if method == ATTACH_OLE else "a link, not a copy of the file"
            warnings.append(f"Attachment {name or '(unnamed)'} was not read: Outlook stored it as {what}. "
                            "Save it from the message and ingest it as a document of its own.")  # fmt: skip
            return
        mime = self.string(ATTACH_MIME_TAG, codec).split(";")[0].strip().lower() or mimetypes.guess_type(name)[0] or ""
        maintype, _, subtype = mime.partition("/")
        if not (maintype and subtype):
            maintype, subtype = "application", "octet-stream"
        content_id = self.string(ATTACH_CONTENT_ID, codec).strip("<>")
        inline = self.flag(ATTACHMENT_HIDDEN) or bool(content_id and f"cid:{content_id}" in html)
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name or None,
                               disposition="inline" if inline else "attachment")


def rtf_body(compressed: bytes) -> str:
    """The text of a compressed RTF body (Outlook's only body for some messages), or "" when it is unreadable."""
    try:
        rtf = decompress(compressed)
        text = rtf_to_text(rtf.decode("latin-1"), encoding=rtf_encoding(rtf), errors="replace")
    except Exception:  # compressed_rtf raises bare Exceptions for a bad header or CRC; striprtf ValueErrors
        return ""
    # Outlook writes an HTML <wbr> as an optional hyphen (U+00AD), which no reader sees.
    return "\n".join(line.rstrip() for line in text.replace("\xad", "").splitlines()).strip()


def _mailbox(name: str, address: str) -> str:
    """'Name <address>', the address alone, or the name alone quoted so a comma in it does not split it."""
    name, address = " ".join(name.split()), address.strip()
    if address and "@" in address:
        return email.utils.formataddr((name, address)) if name and name != address else address
    return f'"{name.replace(chr(34), "")}"' if name else ""
