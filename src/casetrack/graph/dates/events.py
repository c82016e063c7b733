"""What happened on a date: the event a legal text's words around it name (filed, signed, effective, hearing,
deadline, decided), a cited decision's own date, or nothing said (other). Pure: `dates` finds the dates and
asks `event_of` for each."""

from __future__ import annotations

import re
from enum import StrEnum

from casetrack.graph.scan import CASE_FOLD_EXTRAS


class EventType(StrEnum):
    FILED = "filed"
    SIGNED = "signed"
    EFFECTIVE = "effective"
    HEARING = "hearing"
    DEADLINE = "deadline"
    DECIDED = "decided"
    SENT = "sent"  # an e-mail's or memo's "Date:"/"Sent:" header, a quoted reply's "On ..., X wrote:"
    CITED = "cited"  # the date of a decision the document cites, "(8th Cir. Jan. 10, 2023)": not on the timeline
    OTHER = "other"


# Words near a date that say what happened on it. Nearest match wins; ties go to priority.
EVENT_RULES: tuple[tuple[re.Pattern[str], EventType, int], ...] = tuple(
    (re.compile(p, re.I), e, prio)
    for p, e, prio in (
        (
            # "plaintiff sued", "moved to intervene", "their Fourth Amended Complaint on July 8, 2021"
            r"\b(?:date\s+)?filed\b|\bfiling\b|\bdocketed\b|\bsubmitted\b|\bsued\b|\bmoved\s+(?:to|for)\b"
            r"|\b(?:complaint|petition|answer|motion)\s+on\b",
            EventType.FILED,
            50,
        ),
        (
            # "dated" signs this document ("This Agreement, dated this 19th day", "dated as of", a "Dated:" line,
            # "EXHIBIT 10.43 Dated 29/3/18"), not one it refers to ("the Council Directive dated 14 May 1991").
            r"(?m)\bdated\s+(?:this|as\s+of)\b|^[ \t]*dated\b|\bthis\b[^.;\n]{0,60}\bdated\b"
            r"|(?-i:(?<![A-Za-z] )\bDated\b)"
            r"|\bsigned\b|\bexecuted\b|\bentered\s+into\b|\bmade\s+(?:and\s+entered\s+into\s+)?(?:as\s+of|on|this)\b"
            r"|\bis\s+made\b|\bas\s+of\b",
            EventType.SIGNED,
            60,
        ),
        (
            # a statute's history note "eff. 1/1/2024"; "in effect since", "took effect"
            # "effective as of August 1" ends where "as of" (signed) does, and outranks it
            r"\beffective(?:\s+(?:as\s+of|on|from))?\b|\beff\.|\bin\s+effect\b|\btook\s+effect\b|\bcommenc\w*"
            r"|\bbegin(?:ning|s)?\b|\bstart\s+date\b",
            EventType.EFFECTIVE,
            70,
        ),
        (r"\bhearing\b|\bargu(?:ed|ment)\b|\bArg\.|\btrial\b|\bconference\b|\bheard\b|\bSub\.", EventType.HEARING, 40),
        (
            r"\bdue\b|\bon\s+or\s+before\b|\bno\s+later\s+than\b|\bdeadline\b|\bnot\s+later\s+than\b|\bexpir\w*|\bby\s+no\b"
            r"|\buntil\b|\bending\s+on\b|\bthrough\s+and\s+including\b"  # the last day of a period
            r"|\bby\s+(?=(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d)",  # "by February 14"
            EventType.DEADLINE,
            80,
        ),
        (
            r"\bdecided\b|\bentered\b(?!\s+into)|\bordered\b|\bjudgment\b|\bissued\b|\bopin-?\s*ion\b|\bdecision\b"
            # a court's ruling ("the District Court denied", "the court granted the motion"), its order by name
            r"|\b(?:court|judge|panel)(?:\s+of\s+appeals)?\s+(?:\w+\s+)?(?:granted|denied|dismissed|vacated|affirmed"
            r"|reversed|remanded|ruled|stayed)\b|\bcourt['’]s\b|(?-i:\b(?:Minute\s+)?Order\s+(?:\(|[A-Z]\w+))",
            EventType.DECIDED,
            30,
        ),
    )
)
_EVENT_REACH = 90  # characters either side of the date searched for event words, within its sentence
# Per rule, lower-case words one of which each of its alternatives holds ("argu" in "argued" holds "arg", "as of"
# holds "as"): a rule none of whose words is in the lower-cased reach has no match there and is not searched.
_EVENT_WORDS: tuple[tuple[str, ...], ...] = (
    ("filed", "filing", "docketed", "submitted", "sued", "moved", "complaint", "petition", "answer", "motion"),
    ("dated", "signed", "executed", "entered", "made", "as"),
    ("eff", "took", "commenc", "begin", "start"),
    ("hearing", "arg", "trial", "conference", "heard", "sub"),
    ("due", "before", "later", "deadline", "expir", "by", "until", "ending", "including"),
    ("decided", "entered", "order", "judgment", "issued", "opin", "decision", "court", "judge", "panel"),
)


_SIGNATURE_BLOCK = re.compile(r"authorized\s+signature|\bBy:|\bTitle:|type\s+or\s+print|IN\s+WITNESS", re.IGNORECASE)
_OWN_LINE_OR_DATE_LABEL = re.compile(r"(?:^|\n)[ \t]*(?:Date:?[ \t]*)?$")


# A "Date:" line under a judge's signature or in a court document's header ("Court: ...") dates the decision.
_DATE_LINE = re.compile(r"(?:^|\n)[ \t]*(?:Date|DATE|Dated|DATED)[ \t]*:?[ \t]*$")
_COURT_SIGNATURE = re.compile(
    r"\b(?:District|Circuit|Magistrate|Bankruptcy|Trial)\s+Judge\b|\bSO\s+ORDERED\b|(?m:^[ \t]*Court:)", re.IGNORECASE
)
_EFF = re.compile(r"\beff\.[ \t]*$")  # a history note's "eff. 1/1/2024": the sentence splitter cuts at "eff."


# Correspondence: a header's "Date:"/"Sent:" label (with From:/To:/Subject: around it) and "On Mon, Mar 3, 2025 at
# 9:00 AM, Bob wrote:". Not a letter's date line above "Dear ...": an attorney general's opinion is written as a
# letter too, and its date is when the opinion issued.
_WEEKDAY = r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?,?[ \t]*)?"
_MAIL_DATE_LABEL = re.compile(rf"(?:^|\n)[ \t>]*(?:Date|Sent)[ \t]*:[ \t]*{_WEEKDAY}$", re.IGNORECASE)
_MAIL_HEADER = re.compile(r"(?:^|\n)[ \t>]*(?:From|To|Cc|Subject|Re)[ \t]*:", re.IGNORECASE)
_REPLY_OPENING = re.compile(rf"(?:^|\n)[ \t>]*On[ \t]+{_WEEKDAY}$")
_WROTE = re.compile(r"[^\n]{0,120}\bwrote:")


def _sent(text: str, start: int, end: int) -> bool:
    before = max(0, start - 40)
    if _MAIL_DATE_LABEL.search(text, before, start):
        return _MAIL_HEADER.search(text, max(0, start - 300), min(len(text), end + 300)) is not None
    return _REPLY_OPENING.search(text, before, start) is not None and _WROTE.match(text, end) is not None


def event_of(text: str, start: int, end: int, s: int, e: int) -> EventType:
    if in_court_parenthetical(text, start, end):
        return EventType.CITED
    if _DATE_LINE.search(text, max(0, start - 30), start) and _COURT_SIGNATURE.search(text, max(0, start - 200), start):
        return EventType.DECIDED
    if _EFF.search(text, max(0, start - 8), start):
        return EventType.EFFECTIVE
    # A date alone on its line (or after "Date:") in a signature block is when the document was signed.
    if _OWN_LINE_OR_DATE_LABEL.search(text, max(0, start - 30), start) and _SIGNATURE_BLOCK.search(
        text, max(0, start - 400), start
    ):
        return EventType.SIGNED
    if _sent(text, start, end):
        return EventType.SENT
    lo, hi = max(s, start - _EVENT_REACH), min(e, end + _EVENT_REACH)
    line_start = text.rfind("\n", 0, start) + 1
    lo = min(lo, line_start) if start - line_start < 40 else lo  # "Date Filed: 01/19/2023" labels
    best: tuple[int, int, EventType] | None = None
    reach = text[lo:hi]
    low = reach.lower()
    every_rule = any(c in reach for c in CASE_FOLD_EXTRAS)  # IGNORECASE matches these where `low` shows no word
    for (pattern, event, prio), words in zip(EVENT_RULES, _EVENT_WORDS, strict=True):
        if not every_rule and not any(w in low for w in words):
            continue
        for m in pattern.finditer(text, lo, hi):
            if m.end() <= start:
                distance = start - m.end()
            elif m.start() >= end:
                distance = m.start() - end + 10  # words after the date weigh a little less
            else:
                continue
            cand = (distance, -prio, event)
            if best is None or cand < best:
                best = cand
    return best[2] if best else EventType.OTHER


# The words of a court parenthetical before a decision's date: "(8th Cir. Jan. 10, 2023)", "(S.D.N.Y.
# Mar. 3, 2021)", "(Alaska Oct. 29, 2010)". A case's own dated notes open with a word of the event instead.
_OWN_EVENT_WORDS = frozenset({"filed", "signed", "dated", "decided", "entered", "argued", "submitted", "effective",
                              "received", "served", "amended", "issued", "exhibit", "see", "id", "ecf", "dkt", "doc"})


def in_court_parenthetical(text: str, start: int, end: int) -> bool:
    """Whether the date at text[start:end] closes a citation's court parenthetical: the date a cited decision
    was handed down, not an event of the document's own matter."""
    if not text[end:end + 2].lstrip().startswith(")"):
        return False
    opening = text.rfind("(", max(0, start - 40), start)
    if opening < 0 or ")" in text[opening:start]:
        return False
    words = text[opening + 1:start].split()
    if words in (["as", "visited"], ["last", "visited"], ["visited"]):
        return True  # "(as visited June 21, 2013)": when a cited web page was read
    # A bare date, "(July 1, 1996)", may date this case's own order ("Order Awarding Fees (July 1, 1996)",
    # "Memorandum Opinion at 4-5 (May 3, 1996)") as well as a cited source: it is not taken for a citation.
    return (1 <= len(words) <= 5 and all(w[0].isupper() or w[0].isdigit() for w in words)
            and not any("," in w or w.strip(".").lower() in _OWN_EVENT_WORDS for w in words))
