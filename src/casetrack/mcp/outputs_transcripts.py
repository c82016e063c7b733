"""The structured results of the transcript tools and fields (issue 37; see `mcp/outputs.py`, which imports
`TranscriptPin` from here: this module imports nothing of it), each made from the service's values by its `of`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from casetrack.chunk.transcripts.errata import Correction
from casetrack.chunk.transcripts.testimony import Turn
from casetrack.render.transcripts import errata_of
from casetrack.service.search.testimony import Digest, Testified, TestimonyPage
from casetrack.service.search.transcripts import Transcript, TranscriptPlace


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")  # as outputs.Out


class TranscriptPin(_Out):
    """A transcript passage's place: `pin` the rows that hold the answer ("6:16"), `lines` all it holds."""

    pin: str
    lines: str
    citation: str  # "Smith Dep. 6:16 (Mar. 3, 2021)", "Hr'g Tr. 12:4"
    kind: str  # deposition, hearing, trial, transcript
    witness: str | None
    date: str | None

    @classmethod
    def of(cls, place: TranscriptPlace | None) -> TranscriptPin | None:
        if place is None:
            return None
        return cls(pin=place.pin, lines=place.lines, citation=place.citation, kind=place.kind,
                   witness=place.witness, date=place.date)


class Said(_Out):
    """A turn: who spoke, where (transcript page:line) and what was said."""

    pin: str
    speaker: str | None
    text: str

    @classmethod
    def of(cls, turn: Turn) -> Said:
        return cls(pin=turn.pin, speaker=turn.speaker, text=turn.text)


class ErrataOut(_Out):
    """A correction of the transcript's errata sheet, beside the row it corrects."""

    pin: str  # the row corrected
    change: str  # as the sheet prints it
    corrected: str | None  # the reading it gives
    original: str | None  # the words it replaces, where quoted
    reason: str | None

    @classmethod
    def of(cls, c: Correction) -> ErrataOut:
        return cls(pin=c.pin, change=c.change, corrected=c.corrected, original=c.original, reason=c.reason)


class ExchangeOut(_Out):
    """A question and the answer that follows it, cited as a brief cites testimony."""

    pin: str
    citation: str  # "Smith Dep. 4:15-18 (Mar. 3, 2021)"
    document: str
    document_id: str
    file_page: int  # the file's page (a sheet of a condensed transcript) where the question is
    examiner: str | None  # "Ms. Jones", from "BY MS. JONES:"
    examination: str | None  # "Direct examination", "Cross-examination"
    question: Said
    answer: Said | None
    objections: list[Said]
    errata: list[ErrataOut] = []  # the errata sheet's corrections of its rows

    @classmethod
    def of(cls, item: Testified) -> ExchangeOut:
        x, t = item.exchange, item.transcript
        return cls(pin=x.pin, citation=t.facts.cite(x.pin), document=t.document.name, document_id=t.document.id,
                   file_page=x.question.lines[0].file_page, examiner=x.examiner, examination=x.examination,
                   question=Said.of(x.question), answer=Said.of(x.answer) if x.answer else None,
                   objections=[Said.of(o) for o in x.objections],
                   errata=[ErrataOut.of(c) for c in errata_of(item)])


class TranscriptOut(_Out):
    document: str
    document_id: str
    kind: str  # deposition, hearing, trial, transcript
    witness: str | None
    date: str | None

    @classmethod
    def of(cls, t: Transcript) -> TranscriptOut:
        return cls(document=t.document.name, document_id=t.document.id, kind=t.facts.kind,
                   witness=t.facts.witness, date=t.facts.date)


class TestimonyResult(_Out):
    transcripts: list[TranscriptOut]
    total: int
    offset: int
    next_offset: int | None
    exchanges: list[ExchangeOut]

    @classmethod
    def of(cls, page: TestimonyPage) -> TestimonyResult:
        after = page.offset + len(page.items)
        return cls(transcripts=[TranscriptOut.of(t) for t in page.transcripts], total=page.total,
                   offset=page.offset, next_offset=after if after < page.total else None,
                   exchanges=[ExchangeOut.of(i) for i in page.items])


class ExaminationOut(_Out):
    heading: str
    examiner: str | None
    pin: str


class ExhibitOut(_Out):
    number: str
    description: str | None
    index_page: int | None  # the page the transcript's index gives
    index_pin: str | None  # the index row
    marked_at: list[str]  # page:line of each "(Exhibit 3 marked for identification.)"


class TopicOut(_Out):
    words: list[str]  # its most frequent words, each in its questions or answers
    pin: str
    exchanges: int


class DigestResult(_Out):
    transcript: TranscriptOut
    examinations: list[ExaminationOut]
    exhibits: list[ExhibitOut]
    topics: list[TopicOut]
    objections: list[Said]
    exchanges: int
    errata: list[ErrataOut] = []  # the transcript's errata sheet

    @classmethod
    def of(cls, d: Digest) -> DigestResult:
        return cls(
            transcript=TranscriptOut.of(d.transcript),
            examinations=[ExaminationOut(heading=e.heading, examiner=e.examiner, pin=e.pin)
                          for e in d.testimony.examinations],
            exhibits=[ExhibitOut(number=x.number, description=x.description, index_page=x.index_page,
                                 index_pin=x.index_line.pin if x.index_line else None,
                                 marked_at=[m.pin for m in x.marked]) for x in d.exhibits],
            topics=[TopicOut(words=list(t.words), pin=t.pin, exchanges=t.exchanges) for t in d.topics],
            objections=[Said.of(o) for o in d.testimony.objections], exchanges=len(d.testimony.exchanges),
            errata=[ErrataOut.of(c) for c in d.transcript.errata])
