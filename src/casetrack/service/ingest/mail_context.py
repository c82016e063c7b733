"""What every passage of an e-mail carries into the index: who wrote its message to whom, when, about what.

A question about correspondence names people and dates ("what did Britt Davis tell Marianne Salinas",
"when did X reply to Y"), but only a message's first passage holds its header lines, and a quoted message's
header is in the passage where the quotation opens. So each passage of an e-mail is indexed (BM25 and
embedded, as a chunk header: service.ingest.entries) with the sender, recipients, sent date and subject of
the message it belongs to (the e-mail itself, or the earlier message it quotes), and with the calendar date
of each relative date it writes ("tomorrow", "by Friday"), read against that message's sent date
(graph.mail_dates). The passage's text and citation are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from casetrack.domain import ChunkSpan, Document, MailPart, ParsedPage, StoredPage
from casetrack.graph.mail.dates import mail_date_mentions, relative_dates, sent_date
from casetrack.graph.records import DateRecord, ExtractRecord, located
from casetrack.parse.formats import MAIL_FORMATS
from casetrack.parse.mail.quotes import opening_header
from casetrack.search.correspondents import recipient_terms, sender_terms
from casetrack.service.ingest.graph_extract import ChunkLocator

MAX_RECIPIENTS_CHARS = 160  # a list of twenty addressees is context, not content
MAX_LINE_CHARS = 420


def message_of(parts: Sequence[MailPart], page: int) -> MailPart | None:
    """The message whose pages hold `page` (None: a page of an attached file, or no e-mail)."""
    return next((p for p in parts if p.first_page <= page <= p.last_page), None)


def with_mail_dates(extract: ExtractRecord, pages: Sequence[ParsedPage], parts: Sequence[MailPart],
                    chunks: Sequence[tuple[str, ChunkSpan]]) -> ExtractRecord:
    """The graph extract with the e-mail's relative dates ("by mid-day tomorrow") dated for the timeline."""
    if not parts or extract.error is not None:
        return extract
    found = located(map(DateRecord.of, mail_date_mentions(pages, parts)), ChunkLocator(chunks))
    return replace(extract, dates=(*extract.dates, *found)) if found else extract


def stored_parts(doc: Document, pages: Sequence[StoredPage]) -> list[MailPart]:
    """The messages of a stored e-mail, as its parse gave them (for re-embedding without reparsing): its own
    from the headers recorded at ingest, each quoted one from the header opening its first page."""
    if doc.format not in MAIL_FORMATS:
        return []
    meta: Mapping[str, str] = doc.metadata
    own_pages = [p.number for p in pages if p.attachment is None]
    quoted = []
    for entry in filter(None, (e.strip() for e in meta.get("quoted_messages", "").split(";"))):
        span, _, key = entry.partition(" ")
        first, _, last = span.partition("-")
        text = next((p.text for p in pages if p.number == int(first)), "")
        h = opening_header(text)
        quoted.append(MailPart(int(first), int(last or first), True, h.sender, h.recipients, h.sent, h.subject,
                               "" if key == "-" else key))
    own_last = (quoted[0].first_page - 1) if quoted else max(own_pages, default=1)
    recipients = "; ".join(v for k in ("to", "cc") if (v := meta.get(k)))
    own = MailPart(1, max(own_last, 1), False, meta.get("from", ""), recipients, meta.get("date", ""),
                   meta.get("subject", ""), meta.get("message_key", ""))
    return [own, *quoted]


def with_correspondents(terms: Sequence[dict[str, int]], parts: Sequence[MailPart],
                        spans: Sequence[ChunkSpan]) -> Sequence[dict[str, int]]:
    """Each chunk's BM25 term counts with its message's sender as `from:` terms and recipients as `to:` terms
    (search.correspondents), so a question naming who wrote to whom ranks that direction first. The counts
    are changed where they are (`terms`, returned), as `entries.with_extra_terms` does."""
    for counts, span in zip(terms, spans, strict=True):
        part = message_of(parts, span.page)
        if part is not None:
            for term in (*sender_terms(part.sender), *recipient_terms(part.recipients)):
                counts[term] = counts.get(term, 0) + 1
    return terms


def with_mail(headers: Sequence[str], parts: Sequence[MailPart], spans: Sequence[ChunkSpan]) -> list[str]:
    """Each chunk header followed, on a line of its own, by its message's line (see `mail_headers`)."""
    return [f"{h}\n{m}" if m else h for h, m in zip(headers, mail_headers(parts, spans), strict=True)]


def mail_headers(parts: Sequence[MailPart], spans: Sequence[ChunkSpan]) -> list[str]:
    """Per chunk, the line naming its message's sender, recipients, date and subject and the dates its relative
    date phrases name ("" for a chunk outside any message)."""
    out = []
    for span in spans:
        part = message_of(parts, span.page)
        out.append(_line(part, span.text) if part is not None else "")
    return out


def _line(part: MailPart, text: str) -> str:
    recipients = part.recipients if len(part.recipients) <= MAX_RECIPIENTS_CHARS else \
        part.recipients[:MAX_RECIPIENTS_CHARS].rsplit(" ", 1)[0] + " ..."
    fields = [f"{label}: {value}" for label, value in (("From", part.sender), ("To", recipients),
                                                       ("Sent", part.sent), ("Subject", part.subject)) if value]
    sent = sent_date(part.sent)
    if sent is not None:
        named = {r.phrase.lower(): r.written for r in relative_dates(text, sent)}
        fields += [f"{phrase}: {written}" for phrase, written in named.items()]
    return " | ".join(fields)[:MAX_LINE_CHARS]
