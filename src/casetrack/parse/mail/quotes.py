"""An e-mail body told apart into the message's own text and the earlier messages it quotes or forwards.

A reply or forward carries the thread below it, each earlier message opened by a header its author's
mail program wrote. The forms recognised, as real clients write them:

  Outlook      "-----Original Message-----" (and its translations), then From:/Sent:/To:/Cc:/Subject: lines;
               newer Outlook: a "From:" line directly followed by "Sent:" and "To:"/"Subject:" lines
  forwards     "---------- Forwarded message ---------" (Gmail), "Begin forwarded message:" (Apple Mail),
               "----- Forwarded by Name/Org on 08/03/2001 01:11 PM -----" (Lotus Notes)
  replies      "On Mon, Oct 29, 2001 at 8:04 AM, Jim Steffes <js@x.com> wrote:" over ">"-quoted lines
  Lotus Notes  '"Kristen Bird" <kb@x.com> on 08/02/2001 07:32:19 PM' or "Name" and "10/22/2001 10:15 AM"
               on two lines, or "From:  Mike D Smith   08/03/2001 12:46 PM", each followed by To:/cc:/Subject:
  GroupWise    '>>> "Sarah Dietrich" <sd@x.com> 08/02/01 04:47PM >>>'

Each quoted message is a `Part` from its header to the next one, with the sender, recipients, sent date
and subject its header names (as written: dates are read in graph/, which knows date formats). Text the
reply writes after a ">"-quoted block belongs to the reply again. `message_key` fingerprints a message by
its opening words, so the message on its own and every copy quoting it share one key. Pure.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_TRANSLATED_ORIGINAL = (
    "Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Messaggio originale|"
    "Oorspronkelijk bericht|Originalmeddelande|Original meddelelse|Alkuperäinen viesti|Mensagem original"
)
_ORIGINAL = re.compile(rf"[ \t>]*-{{2,}}[ \t]*(?:{_TRANSLATED_ORIGINAL})[ \t]*-{{2,}}[ \t]*$", re.I)
_GMAIL_FORWARD = re.compile(r"[ \t>]*-{2,}[ \t]*Forwarded message[ \t]*-{2,}[ \t]*$", re.I)
_APPLE_FORWARD = re.compile(r"[ \t>]*Begin forwarded message:[ \t]*$", re.I)
_NOTES_FORWARD = re.compile(r"[ \t>]*-{5,}[ \t]*Forwarded by[ \t]+(?P<who>.+?)[ \t]+on[ \t]+(?P<when>.+?)[ \t]*-{5,}")
# "On Mon, Oct 29, 2001 at 8:04 AM, Name <a@b> wrote:": the date ends at its time, else at its year.
_ON_WROTE = re.compile(r"[ \t]*On[ \t]+(?P<when>[^\n]{4,80}?\d{1,2}:\d{2}(?:[ \t]?[AP]\.?M\.?)?|[^\n]{4,80}?\b\d{4}),?"
                       r"[ \t]+(?P<who>[^\n]{1,160}?)[ \t]+wrote:[ \t]*$", re.I)
_GROUPWISE = re.compile(r'[ \t]*>>>[ \t]*(?P<who>[^\n]+?)[ \t]+(?P<when>\d{1,2}/\d{1,2}/\d{2,4}[ \t]+\d{1,2}:\d{2}'
                        r'(?::\d{2})?[ \t]*[AP]M)[ \t]*>>>', re.I)
_NOTES_TIME = r"\d{1,2}/\d{1,2}/\d{2,4}[ \t]+\d{1,2}:\d{2}(?::\d{2})?[ \t]*[AP]M"
_NOTES_ON = re.compile(rf"[ \t]*(?P<who>[^\n]{{2,120}}?)[ \t]+on[ \t]+(?P<when>{_NOTES_TIME})[ \t]*$", re.I)
_NOTES_FROM = re.compile(rf"[^\n]*?From:[ \t]+(?P<who>[^\n]+?)[ \t]{{2,}}(?P<when>{_NOTES_TIME})[ \t]*$", re.I)
_NOTES_DATE_LINE = re.compile(rf"[ \t]*(?P<when>{_NOTES_TIME})[ \t]*$", re.I)
_HEADER_LINE = re.compile(r"[ \t>]*(?P<label>From|Sent|Date|To|Cc|Bcc|Subject|Importance|Reply-To)[ \t]*:"
                          r"[ \t]*(?P<value>[^\n]*)", re.I)
_SEPARATOR = re.compile(r"[ \t]*_{10,}[ \t]*$")
_WORD = re.compile(r"[^\W_]+")
KEY_WORDS = 40  # a message is known by its first words; quoting keeps them
MIN_KEY_WORDS = 6  # "FYI." or "Thanks" is no message one could tell from another


@dataclass(frozen=True, slots=True)
class QuoteHeader:
    """Who wrote a quoted message, to whom, when and about what, as its header writes them ("" if not)."""

    sender: str = ""
    recipients: str = ""
    sent: str = ""
    subject: str = ""


@dataclass(frozen=True, slots=True)
class Part:
    """body[start:end] is the message's own text (quoted False) or one earlier message it quotes, header and
    all; its own words begin at `text_start`."""

    start: int
    end: int
    quoted: bool
    header: QuoteHeader
    text_start: int


@dataclass(frozen=True, slots=True)
class _Opening:
    start: int  # where the quoted message's header begins
    header: QuoteHeader
    text_start: int  # where its own words begin
    angle: bool = False  # its text is the ">"-quoted lines that follow
    quoted: bool = True  # False: the reply's own text resumes here (after a ">"-quoted block)


def split_message(body: str) -> list[Part]:
    """The parts of an e-mail body in order: its own text first (possibly empty), then each quoted or forwarded
    message. Every character of `body` is in exactly one part."""
    lines = _lines(body)
    openings: list[_Opening] = []
    i = 0
    while i < len(lines):
        found = _opening_at(body, lines, i)
        if found is None:
            i += 1
            continue
        openings.append(found)
        i = next((j for j, (s, _) in enumerate(lines) if s >= found.text_start), len(lines))
        if found.angle:  # the ">" lines are the quoted message; what follows is the reply's own text again
            end = _angle_block_end(body, lines, i)
            if end < len(body):
                openings.append(_Opening(end, QuoteHeader(), end, quoted=False))
            i = next((j for j, (s, _) in enumerate(lines) if s >= end), len(lines))
    parts: list[Part] = []
    current = _Opening(0, QuoteHeader(), 0, quoted=False)
    for opening in openings:
        parts.append(Part(current.start, opening.start, current.quoted, current.header, current.text_start))
        current = opening
    parts.append(Part(current.start, len(body), current.quoted, current.header, current.text_start))
    return [parts[0], *(p for p in parts[1:] if p.end > p.start)]


def opening_header(page_text: str) -> QuoteHeader:
    """The header of the message a page opens with: a quoted message's page ("-----Original Message-----",
    "On ... wrote:", a Notes header) or an attached message's ("Attached message:" and its header lines)."""
    text = page_text.removeprefix("Attached message:\n")
    lines = _lines(text)
    if text is not page_text:
        return _header_block(text, lines, 0)[0]
    found = _opening_at(text, lines, 0) if lines else None
    return found.header if found is not None else QuoteHeader()


def message_key(text: str) -> str:
    """A fingerprint of a message's own words (the first KEY_WORDS, case and quoting set aside); "" when it has
    too few words to be told from another message."""
    words = [w.lower() for w in _WORD.findall(text)][:KEY_WORDS]
    if len(words) < MIN_KEY_WORDS:
        return ""
    return hashlib.sha1(" ".join(words).encode("utf-8")).hexdigest()[:16]


def person(written: str) -> str:
    """A header's sender as a name: '"Bird, Kristen" <kb@x.com>@ENRON' -> "Bird, Kristen"; an address alone stays."""
    text = re.sub(r"@[A-Z]+$", "", written.strip()).strip()  # Notes gateways append "@ENRON" and the like
    name, _, address = text.partition("<")
    name = name.strip().strip("'\"").strip()
    return name or address.rstrip(">").strip() or text


def _lines(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for match in re.finditer(r"\n", text):
        out.append((start, match.start()))
        start = match.end()
    out.append((start, len(text)))
    return out


def _opening_at(body: str, lines: list[tuple[int, int]], i: int) -> _Opening | None:
    """The quoted message whose header begins on line i, or None."""
    start, end = lines[i]
    line = body[start:end]
    if _ORIGINAL.match(line) or _GMAIL_FORWARD.match(line) or _APPLE_FORWARD.match(line):
        header, after = _header_block(body, lines, i + 1)
        return _Opening(start, header, after)
    if m := _NOTES_FORWARD.match(line):  # the forwarded message's own header (a Notes one) usually follows
        nested = next((o for j in range(i + 1, min(i + 6, len(lines))) if (o := _notes_header(body, lines, j))), None)
        if nested is not None:
            return _Opening(start, nested.header, nested.text_start)
        return _Opening(start, QuoteHeader(sender=m["who"].strip(), sent=m["when"].strip()), end)
    if m := _GROUPWISE.match(line):
        return _Opening(start, QuoteHeader(sender=person(m["who"]), sent=m["when"]), end)
    label = _HEADER_LINE.match(line)
    if label is not None and label["label"].lower() == "from" and _outlook_block(body, lines, i):
        block_start = lines[i - 1][0] if i and _SEPARATOR.match(body[lines[i - 1][0]:lines[i - 1][1]]) else start
        header, after = _header_block(body, lines, i)
        return _Opening(block_start, header, after)
    if wrote := _on_wrote(body, lines, i):
        return wrote
    return _notes_header(body, lines, i)


def _outlook_block(body: str, lines: list[tuple[int, int]], i: int) -> bool:
    """A "From:" line opening a header block of newer Outlook (no "Original Message" line): "Sent:" or "Date:"
    among the next lines, and "To:" or "Subject:", and a blank line or separator before it."""
    labels = set()
    for start, end in lines[i + 1:i + 6]:
        m = _HEADER_LINE.match(body, start, end)
        if m is None:
            break
        labels.add(m["label"].lower())
    before = body[lines[i - 1][0]:lines[i - 1][1]].strip(" \t>") if i else ""
    return bool(labels & {"sent", "date"}) and bool(labels & {"to", "subject"}) and (not before or bool(
        _SEPARATOR.match(before)))


def _header_block(body: str, lines: list[tuple[int, int]], i: int) -> tuple[QuoteHeader, int]:
    """The From/Sent/To/Cc/Subject lines starting at line i (a wrapped To or Cc line continues on the next), and
    where the quoted message's text begins."""
    values: dict[str, str] = {}
    last = ""
    j = i
    while j < len(lines):
        start, end = lines[j]
        line = body[start:end]
        m = _HEADER_LINE.match(line)
        if m is not None:
            last = m["label"].lower()
            values.setdefault(last, m["value"].strip())
        elif line.strip(" \t>") and last in ("to", "cc", "from") and j > i:
            values[last] = " ".join((values[last], line.strip(" \t>"))).strip()
        else:
            break
        j += 1
    after = lines[j][0] if j < len(lines) else len(body)
    recipients = "; ".join(v for k in ("to", "cc") if (v := values.get(k)))
    header = QuoteHeader(person(values.get("from", "")), recipients, values.get("sent") or values.get("date", ""),
                         values.get("subject", ""))
    return header, after


def _on_wrote(body: str, lines: list[tuple[int, int]], i: int) -> _Opening | None:
    """ "On <date>, <name> wrote:" (on one line or wrapped onto two) over ">"-quoted lines."""
    for span in (1, 2):
        if i + span > len(lines):
            break
        start, end = lines[i][0], lines[i + span - 1][1]
        m = _ON_WROTE.fullmatch(body[start:end].replace("\n", " "))
        if m is not None and i + span < len(lines) and _quoted_line(body, lines, i + span):
            text_start = lines[i + span][0]
            return _Opening(start, QuoteHeader(sender=person(m["who"]), sent=m["when"].strip()), text_start,
                            angle=True)
    return None


def _quoted_line(body: str, lines: list[tuple[int, int]], j: int) -> bool:
    """Line j, or the first non-blank line after it, opens with ">"."""
    for start, end in lines[j:j + 3]:
        if body[start:end].strip():
            return body[start:end].lstrip().startswith(">")
    return False


def _angle_block_end(body: str, lines: list[tuple[int, int]], i: int) -> int:
    """Where a run of ">" lines (blank lines inside it included) that starts at line i ends."""
    end = lines[i][0] if i < len(lines) else len(body)
    for start, stop in lines[i:]:
        text = body[start:stop]
        if text.lstrip().startswith(">"):
            end = stop
        elif text.strip():
            break
    return min(end + 1, len(body))


def _notes_header(body: str, lines: list[tuple[int, int]], i: int) -> _Opening | None:
    """A Lotus Notes memo header: who and when on one or two lines, then "To:" within the next lines."""
    start, end = lines[i]
    line = body[start:end]
    who = when = ""
    header_at = i + 1
    if m := (_NOTES_ON.match(line) or _NOTES_FROM.match(line)):
        who, when = m["who"].strip(), m["when"]
    elif line.strip() and i + 1 < len(lines) and (d := _NOTES_DATE_LINE.match(body, *lines[i + 1])) and \
            not _HEADER_LINE.match(line) and len(line.strip()) <= 60:
        who, when, header_at = line.strip(), d["when"], i + 2
    if not who:
        return None
    for j in range(header_at, min(header_at + 5, len(lines))):
        m = _HEADER_LINE.match(body, *lines[j])
        if m is not None and m["label"].lower() == "to":
            header, after = _header_block(body, lines, j)
            sender = person(re.sub(r"^[^\n]*?From:[ \t]*", "", who))
            return _Opening(start, QuoteHeader(sender, header.recipients, when, header.subject), after)
        if body[lines[j][0]:lines[j][1]].strip() and m is None and j > header_at + 2:
            break
    return None
