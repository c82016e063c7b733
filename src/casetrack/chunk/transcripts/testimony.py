"""Testimony as a paralegal digests it (issue 37): a transcript's rows (chunk.transcript) read into turns (a "Q.",
an "A.", a lawyer's or the court's words, an objection, a reporter's parenthetical), questions paired with the
answers that follow them across line and page breaks, who asked (from "BY MS. JONES:" and the examination
headings: direct, cross, redirect), the exhibits marked (from the index's "Exhibit 3 ..... 16" and the
"(Exhibit 3 marked for identification.)" lines), and the objections. Everything is read from the rows, each with
its page:line; nothing is guessed. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from casetrack.chunk.transcripts.transcript import EXAMINER, SPEAKER, TURN_QA, Line, pin_span

QUESTION, ANSWER, COLLOQUY, OBJECTION, NOTE = "question", "answer", "colloquy", "objection", "note"
# "DIRECT EXAMINATION", "CROSS-EXAMINATION", "E X A M I N A T I O N", "FURTHER REDIRECT EXAMINATION"
_HEADING = re.compile(r"((?:(?:FURTHER|DIRECT|CROSS|REDIRECT|RECROSS|RE-DIRECT|RE-CROSS)[\s-]*){0,2})"
                      r"EXAMINATION(?:\s+(?:BY|OF)\b.*)?")
_OBJECTS = re.compile(r"(?:objection|i\s+object|we\s+object|object\s+to)\b", re.IGNORECASE)
_NUMBER = r"(?:[A-Z]{1,3}-?)?\d{1,4}[A-Z]?"
_EXHIBITS = re.compile(rf"\bExhibits?\s+(?:Nos?\.\s*)?({_NUMBER}(?:\s*(?:,|and|&)\s*{_NUMBER})*)", re.IGNORECASE)
_LEADER = re.compile(r"\s*(?:\.\s?){3,}\s*")  # the dot leader between an index entry and its page


@dataclass(frozen=True, slots=True)
class Turn:
    """One speaker's words: `kind` question, answer, colloquy, objection or note (a reporter's parenthetical)."""

    kind: str
    speaker: str | None
    lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        return " ".join(line.text for line in self.lines if line.text)

    @property
    def pin(self) -> str:
        return pin_span(self.lines[0], self.lines[-1])


@dataclass(frozen=True, slots=True)
class Examination:
    """An examination: its heading ("Direct examination"), who asked, and where it runs."""

    heading: str
    examiner: str | None
    first: Line
    last: Line

    @property
    def pin(self) -> str:
        return pin_span(self.first, self.last)


@dataclass(frozen=True, slots=True)
class Exchange:
    """A question and the answer that follows it (None: the next question came first), with the objections
    between them, who asked and in which examination."""

    question: Turn
    answer: Turn | None
    examiner: str | None
    examination: str | None
    objections: tuple[Turn, ...] = ()

    @property
    def pin(self) -> str:
        return pin_span(self.question.lines[0], (self.answer or self.question).lines[-1])

    @property
    def first_page(self) -> int:
        return self.question.lines[0].page


@dataclass(slots=True)
class Exhibit:
    """An exhibit of a transcript: `index_page` where its index says it was marked, `marked` the parenthetical
    that marks it."""

    number: str
    description: str | None = None
    index_page: int | None = None
    index_line: Line | None = None
    marked: list[Line] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Testimony:
    turns: tuple[Turn, ...]
    exchanges: tuple[Exchange, ...]
    examinations: tuple[Examination, ...]

    @property
    def objections(self) -> list[Turn]:
        return [t for t in self.turns if t.kind == OBJECTION]


def heading_of(text: str) -> str | None:
    """An examination heading as a reader writes it ("Cross-examination"), None for other text."""
    if not text or not text.isupper():
        return None
    joined = re.sub(r"(?<=\b[A-Z]) (?=[A-Z]\b)", "", text.strip())  # "E X A M I N A T I O N"
    match = _HEADING.fullmatch(joined)
    if match is None:
        return None
    head = " ".join(match.group(1).replace("-", " ").split()).lower()
    return (f"{head} examination" if head and head != "cross" else "cross-examination" if head else
            "examination").capitalize()


def speaker_name(raw: str) -> str:
    """"MS. JONES" -> "Ms. Jones", "THE COURT" -> "The Court" (a mixed-case name as printed: "McCAWLEY")."""
    return " ".join(w.capitalize() if w.isupper() else w for w in raw.split())


def turns_of(lines: Sequence[Line]) -> tuple[list[Turn], list[tuple[Line, str | None, str | None]]]:
    """The turns of a transcript's rows, and the places where an examination starts or changes hands: (row,
    heading, examiner) for each heading ("DIRECT EXAMINATION") and each "BY MS. JONES:"."""
    turns: list[Turn] = []
    marks: list[tuple[Line, str | None, str | None]] = []
    furniture = running_heads(lines)
    current: list[Line] = []
    kind, speaker = "", None
    in_note = False

    def close() -> None:
        nonlocal current
        if current:
            turns.append(Turn(kind, speaker, tuple(current)))
        current = []

    for line in lines:
        text = line.text
        if (line.line, text) in furniture:
            continue
        if in_note:
            current.append(line)
            in_note = not text.endswith(")")
            if not in_note:
                close()
            continue
        heading = heading_of(text)
        by = EXAMINER.match(text)
        qa, said = TURN_QA.match(text), SPEAKER.match(text)
        if heading or by:
            close()
            marks.append((line, heading, speaker_name(by.group(1)) if by else None))
            continue
        if text.startswith("("):
            close()
            kind, speaker, current, in_note = NOTE, None, [line], not text.endswith(")")
            if not in_note:
                close()
        elif qa and len(text) > 2:
            close()
            kind, speaker, current = (QUESTION if qa.group(1) == "Q" else ANSWER), None, [line]
        elif said:
            close()
            speaker = speaker_name(said.group(1))
            words = text[said.end():]
            kind = ANSWER if speaker == "The Witness" else OBJECTION if _OBJECTS.match(words) else COLLOQUY
            current = [line]
        elif current and text:
            current.append(line)
    close()
    return turns, marks


def running_heads(lines: Sequence[Line], least: int = 3) -> set[tuple[int, str]]:
    """(row, text) printed on the same row of at least `least` pages: a running head ("G Maxwell - Confidential"
    on row 1 of every page), no one's words."""
    counts = Counter((line.line, line.text) for line in lines if line.text)
    return {key for key, count in counts.items() if count >= least}


def testimony(lines: Sequence[Line]) -> Testimony:
    """A transcript's turns, its questions paired with their answers, and its examinations."""
    turns, marks = turns_of(lines)
    examinations = _examinations(marks, lines)
    exchanges: list[Exchange] = []
    pending: Turn | None = None
    objections: list[Turn] = []
    for turn in turns:
        if turn.kind == QUESTION:
            if pending is not None:
                exchanges.append(_exchange(pending, None, objections, marks))
            pending, objections = turn, []
        elif turn.kind == OBJECTION and pending is not None:
            objections.append(turn)
        elif turn.kind == ANSWER and pending is not None:
            exchanges.append(_exchange(pending, turn, objections, marks))
            pending, objections = None, []
    if pending is not None:
        exchanges.append(_exchange(pending, None, objections, marks))
    return Testimony(tuple(turns), tuple(exchanges), tuple(examinations))


def _examinations(marks: list[tuple[Line, str | None, str | None]], lines: Sequence[Line]) -> list[Examination]:
    out: list[Examination] = []
    heading, examiner, first = None, None, None
    for line, new_heading, by in marks:
        if new_heading is not None or (by is not None and examiner is not None and by != examiner):
            if first is not None:
                out.append(Examination(heading or "Examination", examiner, first, _before(lines, line)))
            heading, examiner, first = new_heading or heading, by, line
        elif by is not None:
            examiner = by
            first = first or line
    if first is not None and lines:
        out.append(Examination(heading or "Examination", examiner, first, lines[-1]))
    return out


def _before(lines: Sequence[Line], line: Line) -> Line:
    i = lines.index(line)
    return lines[i - 1] if i > 0 else line


def _exchange(question: Turn, answer: Turn | None, objections: list[Turn],
              marks: list[tuple[Line, str | None, str | None]]) -> Exchange:
    at = (question.lines[0].page, question.lines[0].line)
    examiner, heading = None, None
    for line, new_heading, by in marks:
        if (line.page, line.line) > at:
            break
        heading = new_heading or heading
        examiner = by or (None if new_heading else examiner)
    return Exchange(question, answer, examiner, heading, tuple(objections))


def exhibits(lines: Sequence[Line], turns: Sequence[Turn]) -> list[Exhibit]:
    """The exhibits a transcript's index lists (number, description, the page it gives) and those its
    parentheticals mark ("(Smith Exhibit 2 marked for identification.)"), by number, in the index's order, then
    in the order marked."""
    found: dict[str, Exhibit] = {}
    first_turn = next((t.lines[0] for t in turns if t.kind in (QUESTION, ANSWER)), None)
    last: Exhibit | None = None  # the entry of the row before
    for line in lines:
        if first_turn is not None and (line.page, line.line) >= (first_turn.page, first_turn.line):
            break
        entry = _index_entry(line.text)
        if entry is not None:
            number, description, page = entry
            found.setdefault(number.upper(), Exhibit(number, description or None, page, line))
        elif entry is None and last is not None and last.description is None and line.text:
            last.description = line.text  # the description on the row below its entry
        last = found.get(entry[0].upper()) if entry is not None else None
    for turn in turns:
        if turn.kind != NOTE or "mark" not in turn.text.lower():
            continue
        for match in _EXHIBITS.finditer(turn.text):
            for number in re.findall(_NUMBER, match.group(1)):
                exhibit = found.setdefault(number.upper(), Exhibit(number))
                exhibit.marked.append(turn.lines[0])
    return list(found.values())


def _index_entry(text: str) -> tuple[str, str, int] | None:
    """(number, description, page) of an index row: "Smith Exhibit 1 Purchase order ..... 5", "Deposition Exhibit 1
    ..... 7 Deposition Notice" (the description on the row below, which the row's text runs on to)."""
    parts = _LEADER.split(text, maxsplit=1)
    if len(parts) != 2:
        return None
    left, right = parts
    name = re.search(rf"\bExhibit\s+(?:No\.\s*)?({_NUMBER})\b\s*(.*)$", left, re.IGNORECASE)
    page = re.match(r"(\d{1,4})\b\s*(.*)$", right)
    if name is None or page is None:
        return None
    return name.group(1), (name.group(2) or page.group(2)).strip(" .,"), int(page.group(1))
