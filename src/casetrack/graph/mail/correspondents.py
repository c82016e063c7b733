"""The people an e-mail passes between: the names on its From, To and Cc lines.

Every e-mail page opens with the message's header block, and forwards and replies quote theirs
("From: Anna Smith\\nSent: ...\\nTo: ..."): who wrote and who received each message, which is what
a paralegal asks of correspondence ("every message Anna Smith was copied on"). A line counts only
when it opens with its label inside a header block (another header label on the line before or
after it), so a brief's "To: the Court" standing alone is no recipient. Names are taken as the
message gives them, "Smith, Anna" read as Anna Smith; a bare address names no one and is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.utils import getaddresses

from casetrack.graph.names import looks_like_person
from casetrack.graph.scan import index_keywords, keyword_hits

_LABELS = {"from": "sender", "to": "recipient", "cc": "recipient", "bcc": "recipient"}
CORRESPONDENT_ROLES = frozenset(_LABELS.values())
_KEYWORDS = tuple(f"{label}:" for label in _LABELS)
index_keywords(_KEYWORDS)
_ADDRESS_LINE = re.compile(r"[ \t>]*(?P<label>From|To|Cc|Bcc|FROM|TO|CC|BCC)[ \t]*:[ \t]*(?P<value>[^\n]*)")
# Another header of the same block, on the line before or after.
_HEADER_LABEL = re.compile(r"[ \t>]*(?:From|To|Cc|Bcc|Sent|Date|Subject|Re)[ \t]*:", re.IGNORECASE)
# Words that make a display name a group or a mailbox, not a person: "All Staff", "Litigation Team",
# "Mail Delivery Subsystem", "Court Chambers" ("Clerk of Court" has a small word, no name has).
_NOT_A_PERSON = frozenset({
    "all", "staff", "team", "group", "members", "member", "everyone", "file", "files", "department", "dept",
    "office", "attorneys", "partners", "associates", "distribution", "list", "support", "service", "services",
    "system", "subsystem", "delivery", "noreply", "no-reply", "admin", "administrator", "postmaster", "mailer",
    "daemon", "notification", "notifications", "alerts", "clerk", "court", "chambers", "board", "committee",
    "docketing", "ecf", "cm/ecf",
})  # fmt: skip
# "Smith, Anna" or "Smith, Anna M.": one surname word before the comma. "Robert Client, Anna Smith" is two people.
_LAST_FIRST = re.compile(r"(?P<last>[^\s,]+),[ \t]*(?P<first>[^\s,]+(?:[ \t]+[^\s,]+)?)")


def correspondents(text: str, low: str) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, name, "sender" or "recipient") of each person named on a header block's address lines."""
    for start, _ in keyword_hits(low, _KEYWORDS):
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip(" \t>"):
            continue  # the label does not open its line
        line = _ADDRESS_LINE.match(text, line_start)
        if line is None or line.start("label") != start or not _in_header_block(text, line_start, line.end()):
            continue
        role = _LABELS[line["label"].lower()]
        yield from _named(text, line.start("value"), line.end("value"), role)


def _in_header_block(text: str, line_start: int, line_end: int) -> bool:
    if line_start > 0:
        before = text.rfind("\n", 0, line_start - 1) + 1
        if _HEADER_LABEL.match(text, before, line_start):
            return True
    return line_end < len(text) and _HEADER_LABEL.match(text, line_end + 1) is not None


def _named(text: str, lo: int, hi: int, role: str) -> Iterator[tuple[int, int, str, str]]:
    """The people of one address line's value text[lo:hi], each located where its name is written."""
    cursor = lo
    for display in _display_names(text[lo:hi]):
        at = text.find(display, cursor, hi)
        if at < 0:
            continue  # written with quoting or encoding the parsed name no longer shows
        cursor = at + len(display)
        name = _first_last(display)
        # Typed by their owners, display names are often lower case ("meredith chen"): judged title-cased.
        if looks_like_person(name.title()) and not any(w.lower() in _NOT_A_PERSON for w in name.split()):
            yield at, at + len(display), name, role


def _display_names(value: str) -> list[str]:
    """The display names of an address line. Outlook separates recipients with semicolons and leaves a
    comma inside a name ("Smith, Anna; Client, Robert"), and shows one name alone ("Smith, Anna");
    Internet headers separate them with commas and quote a name holding one (`"Smith, Anna" <anna@x.com>,
    Robert Client <bob@x.com>`). A part without a display name is its address, or a name written bare."""
    if ";" in value or ("@" not in value and "<" not in value):
        parts = value.split(";") if ";" in value or _LAST_FIRST.fullmatch(value.strip()) else value.split(",")
        names = [part.split("<", 1)[0].strip().strip("\"'") for part in parts]
    else:
        names = [name or address for name, address in getaddresses([value])]
    return [n for n in (" ".join(name.split()) for name in names) if n and "@" not in n]


def _first_last(display: str) -> str:
    """ "Smith, Anna" -> "Anna Smith"; any other name as written."""
    reordered = _LAST_FIRST.fullmatch(display)
    return f"{reordered['first']} {reordered['last']}" if reordered else display
