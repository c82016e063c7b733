"""A transcript as lawyers cite it (issue 37): its rows by printed page and line, what it is (whose deposition, a
hearing, a trial, on what day), its short citation ("Smith Dep. 4:16-18 (Mar. 3, 2021)", "Hr'g Tr. 12:4") and the
rows of a passage that hold the words a question asks about.

The rows are those chunk.pinpoints reads (a page's numbered lines under its printed page number, a condensed
sheet's pages each under its own number, panel by panel as the PDF parser reads them); a row's text runs on over
the unnumbered lines below it (a wrapped line of a filed copy) up to the next row of the same page, never past the
page's last row (the reporting firm's footer, the court's stamp). A document is a transcript when it has such rows
and speaks in turns ("Q.", "A.", "THE COURT:", "MS. JONES:"): pleading paper has numbered rows but no turns, an
opinion quoting testimony has turns but no rows. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.chunk.layout import MIN_PRINTED_LINES, PRINTED_NUMBER
from casetrack.chunk.pinpoints import PIN, PageText, document_rows, query_pin_terms

MIN_ROWS = 20  # fewer numbered rows than this are no transcript to cite by page and line
MIN_TURNS = 3  # ... nor are rows without at least this many "Q."/"A." or speaker turns
FACT_PAGES = 3  # the title page and appearances: where the witness and the date are printed
FIRST_PAGES = 5  # a transcript prints numbered rows within its first pages (after a cover, a title page)

# "Q. Did you ...", "A Yes.", "Q: ..." (some reporters print the colon), at a row's start
TURN_QA = re.compile(r"[ \t]*([QA])(?:[.:]|(?=[ \t])(?![ \t]+[A-Z](?:[ \t]|$)))[ \t]*")  # not "A P P E A R"
# "MS. JONES:", "MR. VAN DER BERG:", "THE COURT:", "THE WITNESS:", "JUROR NO. 3:"
SPEAKER = re.compile(r"[ \t]*((?:MR|MS|MRS|MISS|DR)\.?[ \t]+[A-Z][A-Za-z'\-]*(?:[ \t]+[A-Z][A-Za-z'\-]*){0,2}"
                     r"|THE[ \t]+[A-Z]+(?:[ \t]+[A-Z]+)?)[ \t]*:[ \t]*")
# "BY MS. JONES:" above the questions she asks
EXAMINER = re.compile(r"[ \t]*BY[ \t]+((?:MR|MS|MRS|MISS|DR)\.?[ \t]+[A-Z][A-Za-z'\-]*(?:[ \t]+[A-Z][A-Za-z'\-]*){0,2})"
                      r"[ \t]*:")
_DEPOSITION_OF = re.compile(r"\b(?:deposition|testimony|examination)\s+of\s+((?:[A-Z][A-Za-z.'\-]*\s+){0,3}"
                            r"[A-Z][A-Za-z'\-]+)", re.IGNORECASE)
_VOLUME = re.compile(r"\b(?:VOLUME|Volume|Vol\.)\s+([IVX]{1,5}|\d{1,2})\b")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_ABBREVIATED = ("Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec.")
_DATE = re.compile(r"\b(" + "|".join(_MONTHS) + r")\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b")
_KINDS = (("trial", re.compile(r"\b(?:jury|bench)\s+trial\b|\btrial\s+(?:transcript|proceedings|day)\b|"
                               r"\btranscript\s+of\s+(?:the\s+)?(?:jury\s+)?trial\b", re.IGNORECASE)),
          ("hearing", re.compile(r"\b(?:hearing|conference|oral argument|proceedings)\b", re.IGNORECASE)))
# Words a question is made of that say nothing about what it asks ("what did he say about the March invoice?")
_STOP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "for", "from", "had", "has", "have",
    "he", "her", "him", "his", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "she",
    "so", "that", "the", "their", "them", "then", "there", "they", "this", "to", "was", "we", "were", "what",
    "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your", "about", "said", "say",
    "says", "tell", "told",
})
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Line:
    """A transcript row: where it is in the file (`file_page`, characters `start`-`end` of that page's text, the
    row number included) and as the transcript prints it (`page`:`line`), with its words (`text`, no number)."""

    file_page: int
    start: int
    end: int
    page: int
    line: int
    text: str

    @property
    def pin(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass(frozen=True, slots=True)
class TranscriptFacts:
    """What a transcript is, from its first pages: `kind` deposition, hearing, trial or transcript; the witness
    deposed (as printed, and the surname a citation uses); the day it was taken or held ("Mar. 3, 2021")."""

    kind: str
    witness: str | None = None
    date: str | None = None
    volume: str | None = None  # "II" of "VOLUME II"

    @property
    def naming_words(self) -> str:
        """The words a brief may name the transcript by ("Smith Dep.", "Hr'g Tr.", "Trial Tr. vol. II")."""
        return " ".join(w for w in ("transcript", self.kind, self.witness, self.volume and f"volume {self.volume}")
                        if w)

    @property
    def short_name(self) -> str:
        """"Smith Dep.", "Hr'g Tr.", "Trial Tr.", "Tr.": how a brief names the transcript before its pin."""
        if self.kind == "deposition":
            return f"{self.surname} Dep." if self.surname else "Dep."
        return {"hearing": "Hr'g Tr.", "trial": "Trial Tr."}.get(self.kind, "Tr.")

    @property
    def surname(self) -> str | None:
        return self.witness.split()[-1] if self.witness else None

    def cite(self, pin: str) -> str:
        """"Smith Dep. 4:16-18 (Mar. 3, 2021)", "Hr'g Tr. 12:4": `pin` after the transcript's name, its date
        where known."""
        return f"{self.short_name} {pin}" + (f" ({self.date})" if self.date else "")


def transcript_rows(pages: Sequence[PageText]) -> list[Line]:
    """Every transcript row of a document in order, each with the unnumbered lines below it up to the next row of
    its page (see the module's docstring)."""
    texts = {page.number: page.text for page in pages}
    found = list(document_rows(pages))
    out: list[Line] = []
    for i, (file_page, offset, printed, line) in enumerate(found):
        text = texts[file_page]
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
        following = found[i + 1] if i + 1 < len(found) else None
        if following is not None and following[0] == file_page and following[2] == printed \
                and following[3] == line + 1:
            end = following[1] - 1  # up to the next row of this page: the lines it wraps to are its own
            while end > offset and text[end - 1] in " \t\n":
                end -= 1
        number = PRINTED_NUMBER.match(text, offset, end)
        words = text[number.end() if number else offset:end]
        out.append(Line(file_page, offset, end, printed, line, " ".join(words.split())))
    return out


def read_transcript(pages: Sequence[PageText]) -> list[Line] | None:
    """A document's transcript rows (`transcript_rows`) when it is a transcript (`is_transcript`), else None. Most
    documents print no numbered rows: their first pages say so, and the rest are not read."""
    ordered = sorted(pages, key=lambda page: page.number)
    if len(transcript_rows(ordered[:FIRST_PAGES])) < MIN_PRINTED_LINES:
        return None
    lines = transcript_rows(ordered)
    return lines if is_transcript(lines) else None


def is_transcript(lines: Sequence[Line]) -> bool:
    """Whether numbered rows are a transcript's: enough of them, speaking in turns."""
    return len(lines) >= MIN_ROWS and turn_count(lines) >= MIN_TURNS


def turn_count(lines: Sequence[Line]) -> int:
    """How many rows open a turn: a "Q.", an "A.", a speaker's name."""
    return sum(1 for row in lines if (TURN_QA.match(row.text) and len(row.text) > 2) or SPEAKER.match(row.text))


def transcript_facts(pages: Sequence[PageText]) -> TranscriptFacts:
    """The kind, witness and date printed on a transcript's first pages (none guessed: what is not printed there
    stays None)."""
    first = " ".join(" ".join(page.text.split()) for page in sorted(pages, key=lambda p: p.number)[:FACT_PAGES])
    witness = _witness(first)
    kind = "deposition" if witness or re.search(r"\bdeposition\b", first, re.IGNORECASE) else next(
        (kind for kind, cue in _KINDS if cue.search(first[:2000])), "transcript")
    date = _DATE.search(first)
    when = f"{_ABBREVIATED[_MONTHS.index(date.group(1))]} {int(date.group(2))}, {date.group(3)}" if date else None
    volume = _VOLUME.search(first[:3000])
    return TranscriptFacts(kind, witness, when, volume.group(1).upper() if volume else None)


def _witness(text: str) -> str | None:
    for match in _DEPOSITION_OF.finditer(text):
        words = []
        for word in match.group(1).split():
            if not word[0].isupper() or word.rstrip(",").lower() in {"the", "taken", "pursuant"}:
                break
            words.append(word.rstrip(","))
        if words and not words[0].lower().startswith(("plaintiff", "defendant", "witness")):
            return " ".join(w.capitalize() if w.isupper() else w for w in words)
    return None


def pin_span(first: Line, last: Line) -> str:
    """"4:16", "4:16-18", "4:21-5:3": a run of rows as a transcript is cited."""
    if (first.page, first.line) == (last.page, last.line):
        return first.pin
    if first.page == last.page:
        return f"{first.pin}-{last.line}"
    return f"{first.pin}-{last.pin}"


def query_words(query: str) -> set[str]:
    """The words of a question that say what it asks about (see `pinpoint`)."""
    return {_stem(w) for w in _WORD.findall(query.lower()) if w not in _STOP and (len(w) > 2 or w.isdigit())}


def pinpoint(lines: Sequence[Line], query: str, most: int = 3) -> tuple[Line, Line] | None:
    """The run of at most `most` consecutive rows of a passage that holds the most of the question's words (the
    shortest such run, the first of equals); a row the question cites by page and line ("Dep. 4:16") wins. None
    when no row holds any of them."""
    cited = {t[len(PIN):] for t in query_pin_terms(query)}
    for row in lines:
        if row.pin in cited:
            return row, row
    wanted = query_words(query)
    if not wanted:
        return None
    held = [{_stem(w) for w in _WORD.findall(row.text.lower())} & wanted for row in lines]
    best: tuple[int, int, int] | None = None  # (covered, -size, -first index)
    for i in range(len(lines)):
        covered: set[str] = set()
        for size in range(1, min(most, len(lines) - i) + 1):
            j = i + size - 1
            covered |= held[j]
            key = (len(covered), -size, -i)
            if held[i] and held[j] and (best is None or key > best):
                best = key
    if best is None:
        return None
    start = -best[2]
    return lines[start], lines[through_answer(lines, start, start - best[1] - 1)]


def through_answer(lines: Sequence[Line], start: int, end: int, most: int = 6) -> int:
    """The last row of a run `start`-`end` that asks a question, taken on through the answer that follows (at most
    `most` rows more): "what did he say about X?" finds X in the question, and the answer is what is cited."""
    asks = [i for i in range(start, end + 1) if (turn := TURN_QA.match(lines[i].text)) and turn.group(1) == "Q"]
    if not asks:
        return end
    answered = any(TURN_QA.match(lines[i].text) and lines[i].text.startswith("A") for i in range(asks[-1], end + 1))
    i = end
    while i + 1 < len(lines) and i + 1 - end <= most and lines[i + 1].page == lines[end].page:
        following = lines[i + 1].text
        speaker = SPEAKER.match(following)
        turn = TURN_QA.match(following) or (speaker if speaker and speaker.group(1) == "THE WITNESS" else None)
        objection = speaker is not None and turn is None and following[speaker.end():].lower().startswith("object")
        if (speaker and not turn and not objection) or following.startswith("(") or not following or \
                EXAMINER.match(following) or following.isupper() or \
                (turn and (answered or turn.group(1) == "Q")):
            break
        answered = answered or bool(turn)
        i += 1
    return i if answered else end


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
