"""A case's e-mails as messages: where each quoted message was written first, and each message's thread.

Built from the metadata recorded at ingest (parse.eml: `message_key`, `quoted_messages`, Message-ID,
In-Reply-To, References, subject, date), kept per case until its generation moves. Search uses it twice:

* a passage found in a quotation is cited where it was written first. The quoted message's own e-mail, when
  the case holds it, gives the passage (its chunk whose words best cover the quotation's); else the earliest
  e-mail quoting it. The quotation becomes a copy of that passage (`also_in`), as an attached file's pages
  are copies of the file on its own, so five replies quoting one message do not crowd it out.
* each result from an e-mail says where it stands in its thread (graph.threads).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from casetrack.domain import Chunk, Document
from casetrack.graph.mail.threads import MailRecord, Thread, message_ids, sent_time, threads
from casetrack.parse.formats import MAIL_FORMATS
from casetrack.store import documents as docstore
from casetrack.store.rocks import RocksStore

MIN_COVER = 0.5  # a quotation is a copy of the passage holding at least half of its words
_WORD = re.compile(r"[^\W_]{3,}")


@dataclass(frozen=True, slots=True)
class Pages:
    doc_id: str
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class ThreadPlace:
    subject: str
    position: int  # 1-based
    messages: int
    first_document: str  # the id of the thread's first message


@dataclass(slots=True)
class MailIndex:
    generation: int
    records: dict[str, MailRecord] = field(default_factory=dict)
    written: dict[str, Pages] = field(default_factory=dict)  # message key -> where it was written (or first quoted)
    quoted: dict[str, list[tuple[Pages, str]]] = field(default_factory=dict)  # doc id -> quoted pages and keys
    thread_of: dict[str, Thread] = field(default_factory=dict)

    def place(self, doc_id: str) -> ThreadPlace | None:
        """Where an e-mail stands in its thread; None for a message alone or a document that is no e-mail."""
        thread = self.thread_of.get(doc_id)
        if thread is None or len(thread.messages) < 2:
            return None
        return ThreadPlace(thread.subject, thread.position(doc_id), len(thread.messages), thread.messages[0])

    def origin(self, chunk: Chunk) -> Pages | None:
        """Where the message a quoted passage quotes was written first, unless that is this very passage."""
        for pages, key in self.quoted.get(chunk.document_id, ()):
            if pages.first <= chunk.span.page <= pages.last:
                written = self.written.get(key)
                if written is None or (written.doc_id, written.first) == (chunk.document_id, pages.first):
                    return None
                return written
        return None


@dataclass(frozen=True, slots=True)
class EmailThread:
    """An e-mail's thread: its messages in the order sent, and which one each answers or forwards."""

    document: Document  # the e-mail asked about
    subject: str
    messages: tuple[Document, ...]
    replies_to: dict[str, str]  # document id -> id of the message it answers, forwards or quotes


def thread_of(index: MailIndex, doc: Document, documents: Iterable[Document]) -> EmailThread:
    """The thread holding an e-mail (a thread of one when nothing ties it to another message)."""
    thread = index.thread_of.get(doc.id)
    by_id = {d.id: d for d in documents}
    if thread is None:
        return EmailThread(doc, doc.metadata.get("subject", ""), (doc,), {})
    return EmailThread(doc, thread.subject, tuple(by_id[i] for i in thread.messages if i in by_id),
                       dict(thread.parents))


def mail_index(documents: Iterable[Document], generation: int) -> MailIndex:
    """The case's e-mails as records, where each message was written first, and their threads."""
    index = MailIndex(generation)
    mails = [d for d in documents if d.format in MAIL_FORMATS]
    order = sorted(mails, key=lambda d: (sent_time(d.metadata.get("date", "")) is None,
                                         _timestamp(d), d.name))
    for doc in order:  # own messages first: they are where their words were written
        meta = doc.metadata
        quoted = _quoted(doc)
        index.quoted[doc.id] = quoted
        own_last = quoted[0][0].first - 1 if quoted else doc.page_count
        if key := meta.get("message_key", ""):
            index.written.setdefault(key, Pages(doc.id, 1, max(own_last, 1)))
        index.records[doc.id] = MailRecord(
            doc.id, doc.name, meta.get("message_id", ""), meta.get("in_reply_to", ""),
            message_ids(meta.get("references", "")), meta.get("subject", ""), sent_time(meta.get("date", "")),
            key, tuple(k for _, k in quoted if k))
    for doc in order:  # then the earliest quotation of a message the case does not hold on its own
        for pages, key in index.quoted[doc.id]:
            if key:
                index.written.setdefault(key, pages)
    for thread in threads(index.records.values()):
        for doc_id in thread.messages:
            index.thread_of[doc_id] = thread
    return index


def _timestamp(doc: Document) -> float:
    sent = sent_time(doc.metadata.get("date", ""))
    return sent.timestamp() if sent is not None else 0.0


def _quoted(doc: Document) -> list[tuple[Pages, str]]:
    """The pages and fingerprint of each message an e-mail quotes ("2-3 9f2c...; 4 -")."""
    out = []
    for entry in filter(None, (e.strip() for e in doc.metadata.get("quoted_messages", "").split(";"))):
        span, _, key = entry.partition(" ")
        first, _, last = span.partition("-")
        if first.isdigit() and (not last or last.isdigit()):
            out.append((Pages(doc.id, int(first), int(last or first)), "" if key == "-" else key))
    return out


# A reply's quotation marks ("> Victor, >") are its mail client's, not words of what it quotes.
_QUOTE_MARKS = re.compile(r"(?:(?<=\s)|^)(?:>[ \t]*)+")


def unquoted(text: str) -> str:
    """`text` without the `>` marks a reply puts before each line it quotes."""
    return " ".join(_QUOTE_MARKS.sub(" ", text).split()) if ">" in text else text


def quotations_of_held_messages(docs: Iterable[Document]) -> dict[str, list[tuple[int, int]]]:
    """Per e-mail, the pages where it quotes a message the case holds itself (by the fingerprint every copy
    shares): what those pages say is the earlier message's, already read where it was written."""
    docs = list(docs)
    held = {key for d in docs if (key := d.metadata.get("message_key"))}
    out: dict[str, list[tuple[int, int]]] = {}
    for doc in docs:
        for pages, key in _quoted(doc):
            if key and key in held:
                out.setdefault(doc.id, []).append((pages.first, pages.last))
    return out


def best_cover(quotation: Chunk, candidates: Sequence[Chunk]) -> Chunk | None:
    """The candidate passage holding most of the quotation's words, when it holds at least MIN_COVER of them."""
    words = set(_WORD.findall(quotation.text.lower()))
    if not words:
        return None
    scored = [(len(words & set(_WORD.findall(c.text.lower()))) / len(words), -c.span.sequence, c) for c in candidates]
    best = max(scored, key=lambda s: (s[0], s[1]), default=None)
    return best[2] if best is not None and best[0] >= MIN_COVER else None


def written_passage(db: RocksStore, quotation: Chunk, where: Pages, doc: Document) -> Chunk | None:
    """The passage of `doc` (the e-mail where a quoted message was written) that the quotation copies."""
    chunks = [c for c in docstore.document_chunks(db, doc) if where.first <= c.span.page <= where.last]
    return best_cover(quotation, chunks)
