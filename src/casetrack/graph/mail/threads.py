"""E-mail threads: which message answers or forwards which, in the order they were sent.

A message names the one it answers by In-Reply-To and References (RFC 5322 §3.6.4) when its mail program
wrote them; many exports lose them (and the Enron-era clients never wrote them), so a message is also tied
to the earlier message it quotes (parse.mail_quotes: the fingerprint of the message under its own text is
that message's own fingerprint), and, failing both, to the latest earlier message with the same subject
once "RE:"/"FW:" prefixes are set aside. A thread is every message so tied together, ordered by sent time
(a message without a readable date goes after its parent). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import parsedate_to_datetime

# Reply and forward prefixes mail clients put before a subject, in the languages Outlook writes them:
# "RE:", "Fwd:", "AW:" and "WG:" (German), "SV:" (Nordic), "TR:" (French), "RV:" (Spanish), "Re[2]:".
REPLY_PREFIXES = re.compile(r"^(?:\s*(?:re|fw|fwd|aw|wg|sv|vs|tr|rv|antw)\s*(?:\[\d+\])?\s*:\s*)+", re.I)
MIN_SUBJECT_CHARS = 4  # "Hi", "?" and no subject tie nothing together


@dataclass(frozen=True, slots=True)
class MailRecord:
    """What a stored e-mail says about its place in a thread (its metadata, recorded at ingest)."""

    doc_id: str
    name: str
    message_id: str = ""
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    subject: str = ""
    sent: datetime | None = None
    key: str = ""  # its own message's fingerprint
    quoted: tuple[str, ...] = ()  # fingerprints of the messages it quotes, nearest first


@dataclass(frozen=True, slots=True)
class Thread:
    subject: str  # the first message's, without reply prefixes
    messages: tuple[str, ...]  # document ids, in the order sent
    parents: dict[str, str]  # document id -> the id of the message it answers or forwards

    def position(self, doc_id: str) -> int:
        """1-based place of a message in the thread."""
        return self.messages.index(doc_id) + 1


def base_subject(subject: str) -> str:
    """The subject without "RE:"/"FW:" prefixes, whitespace collapsed; "" when too short to tie messages."""
    base = " ".join(REPLY_PREFIXES.sub("", subject or "").split())
    return base if len(base) >= MIN_SUBJECT_CHARS else ""


def sent_time(date_header: str) -> datetime | None:
    """A Date header as a zoned datetime (None when unreadable or without a zone: it cannot be ordered)."""
    try:
        sent = parsedate_to_datetime(date_header)
    except (TypeError, ValueError, IndexError):
        return None
    return sent if sent.tzinfo is not None else None


def message_ids(value: str) -> tuple[str, ...]:
    """The <...> message ids of an In-Reply-To or References header, in order."""
    return tuple(re.findall(r"<[^<>\s]+>", value or ""))


def threads(records: Iterable[MailRecord]) -> list[Thread]:
    """Every thread of the records (a message alone is a thread of one), each in sending order."""
    mails = list(records)
    parents = _parents(mails)
    groups: dict[str, list[MailRecord]] = {}
    for mail in mails:
        groups.setdefault(_root(mail.doc_id, parents), []).append(mail)
    out = []
    for members in groups.values():
        ordered = _in_order(members, parents)
        subject = next((s for m in ordered if (s := base_subject(m.subject))), ordered[0].subject)
        ids = tuple(m.doc_id for m in ordered)
        out.append(Thread(subject, ids, {c: p for c, p in parents.items() if c in ids}))
    return sorted(out, key=lambda t: t.messages[0])


def _parents(mails: Sequence[MailRecord]) -> dict[str, str]:
    by_id = {m.message_id: m.doc_id for m in mails if m.message_id}
    by_key: dict[str, str] = {}
    for mail in sorted(mails, key=_when):
        if mail.key:
            by_key.setdefault(mail.key, mail.doc_id)
    parents: dict[str, str] = {}
    for mail in mails:
        named = [by_id[i] for i in (*message_ids(mail.in_reply_to), *reversed(mail.references)) if i in by_id]
        quoted = [by_key[k] for k in mail.quoted if k in by_key]
        parent = next((p for p in (*named, *quoted) if p != mail.doc_id), None) or _by_subject(mail, mails)
        if parent is not None and _root(parent, parents) != mail.doc_id:  # never a cycle
            parents[mail.doc_id] = parent
    return parents


def _by_subject(mail: MailRecord, mails: Sequence[MailRecord]) -> str | None:
    """The latest message sent before this one with the same subject once prefixes are set aside."""
    subject = base_subject(mail.subject).casefold()
    if not subject or mail.sent is None:
        return None
    earlier = [m for m in mails if m.sent is not None and m.sent < mail.sent and m.doc_id != mail.doc_id
               and base_subject(m.subject).casefold() == subject]
    return max(earlier, key=lambda m: m.sent or datetime.min).doc_id if earlier else None


def _root(doc_id: str, parents: dict[str, str]) -> str:
    seen = {doc_id}
    while doc_id in parents and parents[doc_id] not in seen:
        doc_id = parents[doc_id]
        seen.add(doc_id)
    return doc_id


def _when(mail: MailRecord) -> tuple[int, float, str]:
    return (0, mail.sent.timestamp(), mail.name) if mail.sent is not None else (1, 0.0, mail.name)


def _in_order(members: list[MailRecord], parents: dict[str, str]) -> list[MailRecord]:
    """By sent time; a message without a date right after its parent (or last)."""
    dated = sorted((m for m in members if m.sent is not None), key=_when)
    out = list(dated)
    for mail in sorted((m for m in members if m.sent is None), key=lambda m: m.name):
        parent = parents.get(mail.doc_id)
        at = next((i + 1 for i, m in enumerate(out) if m.doc_id == parent), len(out))
        out.insert(at, mail)
    return out
