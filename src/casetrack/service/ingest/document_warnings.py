"""The warnings stored with a document, which every answer about it repeats: nothing searchable in
it, its pages that could not be read, and its text being in the case twice (the same e-mail twice,
an attachment also stored alone)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from casetrack.domain import Document, ExtractionMethod, ParsedDocument


def document_warnings(parsed: ParsedDocument, stored: Sequence[Document], sha256: str) -> tuple[str, ...]:
    warnings = tuple(parsed.warnings) + tuple(w for p in parsed.pages for w in p.warnings)
    if copies := copies_of_message(stored, parsed.metadata.get("message_id")):
        warnings += (f"This e-mail is already in the case as {', '.join(copies)} (the same Message-ID: another "
                     "copy of the message, such as the sender's and a recipient's). Both are kept.",)
    return warnings + tuple(attached_elsewhere(stored, sha256, parsed.metadata.get("attachment_sha256", "")))


def unsearchable(parsed: ParsedDocument, spans: Sequence[object]) -> tuple[str, ...]:
    """The warning for a document that gave no chunk at all: stored, listed, and never found by a
    search. The user must learn that, why, and what would make it searchable."""
    if spans:
        return ()
    pages = len(parsed.pages)
    methods = {page.method for page in parsed.pages}
    if ExtractionMethod.SKIPPED in methods:
        why = ("its pages are scanned images and OCR could not read them (the next warning says why). Fix that "
               "(for example, install Tesseract), then reindex the document")
    elif ExtractionMethod.OCR in methods:
        why = ("its pages are images, and OCR found no words on them: they are blank, or the writing is too "
               "faint, small or handwritten to read. If it has text, re-scan it at 300 dpi and ingest it again")
    else:
        why = ("its pages are blank, or its text is drawn as pictures or shapes with no text layer. If you can "
               "see text in it, print it to PDF or scan it, and ingest that")
    return (f"Nothing in this document is searchable: no text was found on any of its {pages} "
            f"page{'s' if pages != 1 else ''}; {why}. It is kept in the case, but no search will find it.",)


def copies_of_message(documents: Iterable[Document], message_id: str | None) -> list[str]:
    """Names of the stored e-mails that are the same message: copies differ in bytes (each mailbox adds its own
    headers, .eml or .msg), so the file hash cannot tell, but they share the Message-ID their sender gave them."""
    return [d.name for d in documents if message_id and d.metadata.get("message_id") == message_id]


_TWICE = "its passages are in the case twice, and search gives each once, citing both."


def attached_elsewhere(documents: Sequence[Document], file_hash: str, attachment_checksums: str) -> Iterator[str]:
    """Where this file's text is in the case twice: its attachments stored as documents of their own, or
    this file stored as an attachment of an e-mail. Both are kept; the user learns why passages repeat."""
    by_hash = {d.file_hash: d for d in documents}
    for checksum, name in _checksums(attachment_checksums):
        if (alone := by_hash.get(checksum)) is not None:
            yield f"Attachment {name} is also in this case as {alone.name} (the same file): {_TWICE}"
    for mail in documents:
        attached = _checksums(mail.metadata.get("attachment_sha256", ""))
        names = [name for checksum, name in attached if checksum == file_hash]
        if names:
            yield f"This file is also in this case as attachment {names[0]} of {mail.name}: {_TWICE}"


def _checksums(lines: str) -> Iterator[tuple[str, str]]:
    """(sha256, file name) of each line of an e-mail's `attachment_sha256`, written as sha256sum prints them."""
    for line in lines.splitlines():
        checksum, _, name = line.partition("  ")
        yield checksum, name
