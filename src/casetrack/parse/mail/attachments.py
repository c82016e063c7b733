"""Files attached to an e-mail, read as pages of the message.

In a case file the attachment is often the point of the e-mail ("attached is the signed
settlement agreement"), so its text must be searchable and citable, not just its name.
Each attached file CaseTrack can read (PDF, DOCX, DOC, RTF, TXT, images, another .eml or .msg) is
parsed by the parser for its format and its pages follow the message's pages; the files Outlook
packs into a winmail.dat (TNEF, via tnefparse) are taken out of it and read the same way. Every such
page opens with a label line naming the attachment and its own page number, so a passage
cited as "p. 4" of the e-mail shows on its face that it is page 2 of `settlement.pdf`, and
each page keeps its own extraction method and OCR confidence.

An attachment that cannot be read never fails the message: the e-mail is ingested and a
warning says which attachment was not read and why. Images the message shows inline (a
signature logo) are part of its look, not attachments, and are not read; nor are pictures too
small to hold a page of text (logos Outlook packs as attachments).
"""

from __future__ import annotations

import hashlib
import io
import logging
import mimetypes
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from email.message import EmailMessage, Message
from pathlib import Path

import tnefparse
from PIL import Image, UnidentifiedImageError

from casetrack.domain import ATTACHMENT_LABEL, ParsedPage
from casetrack.errors import CaseTrackError
from casetrack.parse.dispatch import FORMAT_OF, parse_file
from casetrack.parse.formats import IMAGE_EXTENSIONS
from casetrack.parse.options import ParseOptions
from casetrack.parse.scratch import scratch_folder

log = logging.getLogger(__name__)

# A forward of a forward of a forward is still read (message/rfc822: its text, and the files it carries);
# deeper nesting is listed only, so a hostile message cannot recurse without end.
MAX_ATTACHED_MESSAGE_DEPTH = 3
# An .eml attached as a file to an .eml attached as a file to ...: read this many levels deep, then only list.
MAX_ATTACHMENT_DEPTH = 2
# A message carrying hundreds of files is a production set, not correspondence: read the first ones.
MAX_ATTACHMENTS_READ = 50
_UNSAFE = re.compile(r"[^\w.\- ()&,'+]")


@dataclass(frozen=True, slots=True)
class AttachedPages:
    pages: list[ParsedPage]  # numbered after the message's own pages
    placed: list[str]  # "offer.pdf: pages 2-4", per attachment read
    warnings: list[str]
    checksums: list[str] = field(default_factory=list)  # "<sha256>  offer.pdf", as sha256sum prints, per one read


def attached_file_pages(message: Message, first_page: int, options: ParseOptions) -> AttachedPages:
    """The pages of the files attached to `message` (and to messages forwarded inside it), numbered from
    `first_page`, each opening with its label line."""
    out = AttachedPages([], [], [])
    parts = list(_file_parts(message))
    if parts and options.attachment_depth >= MAX_ATTACHMENT_DEPTH:  # before any attachment is decoded
        out.warnings.append(
            f"This message is attached {options.attachment_depth} levels deep inside other e-mails; "
            "its own attachments are listed but not read."
        )
        return out
    files = _unpacked(parts, out.warnings)  # decoded one at a time, as they are read
    for index, (name, content_type, payload) in enumerate(files, start=1):
        if index > MAX_ATTACHMENTS_READ:
            out.warnings.append(
                f"Only the first {MAX_ATTACHMENTS_READ} attachments were read; save the others from the message "
                "and ingest them as documents of their own."
            )
            break
        pages, warnings = _read_attachment(name, content_type, payload, options)
        out.warnings.extend(warnings)
        if not pages:
            continue
        out.checksums.append(f"{hashlib.sha256(payload).hexdigest()}  {name}")  # as the file on its own hashes
        start = first_page + len(out.pages)
        for page in pages:
            label = ATTACHMENT_LABEL.format(index=index, name=name, page=page.number, pages=len(pages))
            text = f"{label}\n\n{page.text}" if page.text else label
            notes = tuple(f"Attachment {name}, page {page.number}: {w}" for w in page.warnings)
            out.pages.append(replace(page, number=start + page.number - 1, text=text, warnings=notes,
                                     attachment=name, attachment_page=page.number))
        end = start + len(pages) - 1
        out.placed.append(f"{name}: page {start}" if start == end else f"{name}: pages {start}-{end}")
    return out


def _file_parts(message: Message, depth: int = 0) -> Iterator[tuple[str, Message]]:
    """(display name, part) of each attached file, in the order the message lists them, then those of
    messages forwarded as attachments (message/rfc822, whose text eml.py already reads)."""
    content = signed_content(message)
    if not isinstance(content, EmailMessage):
        return
    for part in content.iter_attachments():
        if part.get_content_type() == "message/rfc822":
            continue
        if part.get_content_maintype() == "image" and part.get_content_disposition() != "attachment":
            continue  # shown inline: a logo or a pasted picture, not a document
        yield file_name(part), part
    if depth < MAX_ATTACHED_MESSAGE_DEPTH:  # the forwarded messages whose text eml.py reads
        for inner in attached_messages(message):
            yield from _file_parts(inner, depth + 1)


# A picture smaller than this on both sides holds no page of text: a logo, an icon, a spacer.
ICON_PIXELS = 200


def _icon_sized(payload: bytes) -> bool:
    try:
        with Image.open(io.BytesIO(payload)) as image:
            width, height = image.size
    except (UnidentifiedImageError, OSError, SyntaxError, Image.DecompressionBombError):
        return False  # the image parser says what is wrong with it
    return width < ICON_PIXELS and height < ICON_PIXELS


# Outlook sends a message written in its rich-text format with every attachment packed into one
# winmail.dat (TNEF); mail programs other than Outlook show only that file.
TNEF_TYPES = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})


def _unpacked(parts: list[tuple[str, Message]], warnings: list[str]) -> Iterator[tuple[str, str, bytes]]:
    """(name, content type, bytes) of each attached file, the files packed in a winmail.dat taken out of it."""
    for name, part in parts:
        payload = part.get_payload(decode=True)
        payload = payload if isinstance(payload, bytes) else b""
        if part.get_content_type() not in TNEF_TYPES and name.lower() != "winmail.dat":
            yield name, part.get_content_type(), payload
            continue
        try:
            packed = tnefparse.TNEF(payload, do_checksum=False).attachments
        except Exception:  # tnefparse raises ValueError for a bad signature, and struct/Index errors when cut short
            log.warning("%s could not be unpacked", name, exc_info=True)
            warnings.append(f"Attachment {name} (Outlook's package of the message's attachments) could not be "
                            "unpacked; open the e-mail in Outlook and save its attachments.")  # fmt: skip
            continue
        for inner in packed:
            inner_name = " ".join((inner.long_filename() or inner.name or "").split()) or f"(unnamed file in {name})"
            yield inner_name, "application/octet-stream", bytes(inner.data or b"")


def signed_content(message: Message) -> Message:
    """What a signed message signs: S/MIME and PGP wrap the message's content in multipart/signed, the
    content first and the signature second (RFC 1847). The content's body and files are the message's;
    the signature is no attachment."""
    while message.get_content_type() == "multipart/signed" and message.is_multipart():
        parts = message.get_payload()
        if not isinstance(parts, list) or not parts or not isinstance(parts[0], Message):
            break
        message = parts[0]
    return message


def attached_messages(message: Message) -> list[Message]:
    """The messages forwarded as message/rfc822 attachments of `message`, in order."""
    content = signed_content(message)
    if not isinstance(content, EmailMessage):
        return []
    return [inner for part in content.iter_attachments() if (inner := inner_message(part)) is not None]


def inner_message(part: Message) -> Message | None:
    """The message a message/rfc822 attachment carries, or None for any other part."""
    if part.get_content_type() != "message/rfc822" or not part.is_multipart():
        return None
    inner = part.get_payload(0)
    return inner if isinstance(inner, Message) else None


def file_name(part: Message) -> str:
    """An attached file's name as the message gives it, or `(unnamed application/pdf)`."""
    name = part.get_filename()
    return " ".join(str(name).split()) if name else f"(unnamed {part.get_content_type()})"


def _extension(name: str, content_type: str) -> str:
    """The extension an attached file is read as: its own when CaseTrack reads it, else its content type's."""

    own = Path(name).suffix.lower()
    return own if own in FORMAT_OF else mimetypes.guess_extension(content_type) or own


def reads_attachment(name: str, content_type: str) -> bool:
    """Whether an attached file of this name and type is read (or unpacked, a winmail.dat): eml_skim leaves out
    the bodies of the others before the message is parsed."""

    return content_type in TNEF_TYPES or name.lower() == "winmail.dat" or _extension(name, content_type) in FORMAT_OF


def _read_attachment(name: str, content_type: str, payload: bytes,
                     options: ParseOptions) -> tuple[list[ParsedPage], list[str]]:
    """The attachment's pages and warnings, or no pages and the reason it was not read."""

    own = Path(name).suffix.lower()
    extension = _extension(name, content_type)
    if extension not in FORMAT_OF:
        kind = own or (extension if content_type != "application/octet-stream" else "")  # never ".bin" for "unknown"
        return [], [f"Attachment {name} was not read: CaseTrack does not read {kind or 'this kind of'} files. "
                    "Save it from the message and convert it to PDF to make it searchable."]  # fmt: skip
    if not payload:
        return [], [f"Attachment {name} was not read: it is empty."]
    if extension in IMAGE_EXTENSIONS and _icon_sized(payload):
        return [], []  # a logo or an icon (Outlook packs signature logos as attachments): no page of text fits
    with scratch_folder(options, "attachment") as folder:
        stem = _UNSAFE.sub("_", Path(name).stem)[:80].strip(" .") or "attachment"
        path = Path(folder) / f"{stem}{extension}"
        path.write_bytes(payload)
        nested = replace(options, attachment_depth=options.attachment_depth + 1)
        try:
            parsed = parse_file(path, nested)
        except CaseTrackError as exc:
            reason = exc.message.replace(str(path), name)
            return [], [f"Attachment {name} was not read. {reason}"]
        except Exception as exc:  # a parser's unforeseen failure on one attachment must not lose the e-mail
            log.warning("Attachment %s could not be parsed", name, exc_info=True)
            return [], [f"Attachment {name} was not read: it could not be parsed ({type(exc).__name__}). "
                        "Save it from the message and ingest it on its own to see the full error."]  # fmt: skip
    warnings = [f"Attachment {name}: {w}" for w in parsed.warnings]
    return list(parsed.pages), warnings
