"""The structured results of the transcript tools and fields (issue 37; see `mcp/outputs.py`, which imports
`TranscriptPin` from here: this module imports nothing of it)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


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


class Said(_Out):
    """A turn: who spoke, where (transcript page:line) and what was said."""

    pin: str
    speaker: str | None
    text: str


class ErrataOut(_Out):
    """A correction of the transcript's errata sheet, beside the row it corrects."""

    pin: str  # the row corrected
    change: str  # as the sheet prints it
    corrected: str | None  # the reading it gives
    original: str | None  # the words it replaces, where quoted
    reason: str | None


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


class TranscriptOut(_Out):
    document: str
    document_id: str
    kind: str  # deposition, hearing, trial, transcript
    witness: str | None
    date: str | None


class TestimonyResult(_Out):
    transcripts: list[TranscriptOut]
    total: int
    offset: int
    next_offset: int | None
    exchanges: list[ExchangeOut]


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
