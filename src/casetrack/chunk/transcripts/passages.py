"""A transcript's passages as search ranks them (issue 37): whole exchanges, never a question without its answer.

A passage cut by size (chunk.legal) splits a deposition wherever a line ends near its target: a question in one
passage, its answer in the next, and a condensed sheet's four transcript pages make one or two passages of 800
tokens or more, in which one exchange is a small part of the meaning (and of the words) of the whole. So a
transcript is cut where an exchange begins: a question ("Q."), an examination heading or a "BY MS. JONES:" (with
the question that follows it), or a speaker's turn once the last question was answered (a hearing's "THE COURT:",
"MR. BROWN:"). The objections, the colloquy and "THE WITNESS:" between a question and its answer stay with it,
as do a reporter's parentheticals and a turn's wrapped lines. Consecutive exchanges of a page are put together up
to `TRANSCRIPT_SIZES.target` (short ones: "Q. Yes? A. Yes." alone says little), one longer than the largest
passage is cut by size; no passage crosses a page of the file (chunk.legal's rule), and none overlaps another, so
an exchange is found once, in one passage, whose rows give its page:line. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from casetrack.chunk.pinpoints import PageText
from casetrack.chunk.sizes import ChunkSizes
from casetrack.chunk.transcripts.testimony import heading_of
from casetrack.chunk.transcripts.transcript import EXAMINER, SPEAKER, TURN_QA, Line, read_transcript, turn_count

# One to three exchanges of a deposition (120 tokens: ~480 characters, the margin numbers included), well within one
# E7 window, so a passage's vector is read whole. Compared with 200 on the two sets that hold transcripts
# (heldout_transcripts, heldout_lit; docs/benchmarks.md): 120 ranked better on both.
TRANSCRIPT_SIZES = ChunkSizes(target=120, overlap=0, min=100, max=400)
# A transcript speaks in turns: a third of a deposition's rows with words open a "Q.", an "A." or a speaker's turn,
# nearly all of a hearing's (heldout_transcripts, heldout_lit). A brief on pleading paper quoting a few questions is
# read as a transcript to cite (chunk.transcript.is_transcript) but is not cut as one.
MIN_TURN_SHARE = 0.2


def exchange_starts(lines: Sequence[Line]) -> list[Line]:
    """The rows where an exchange (or a speaker's turn outside one) begins, in order (see the module's
    docstring)."""
    starts: list[Line] = []
    asked = False  # a question waits for its answer
    marked = False  # a heading or "BY ..." opened the exchange the next question belongs to
    for row in lines:
        text = row.text
        qa = TURN_QA.match(text) if len(text) > 2 else None
        said = SPEAKER.match(text)
        if heading_of(text) or EXAMINER.match(text):
            opens, asked, marked = not marked, False, True
        elif qa is not None and qa.group(1) == "Q":
            opens, asked, marked = not marked, True, False
        elif qa is not None or (said is not None and said.group(1) == "THE WITNESS"):
            opens, asked, marked = False, False, False  # an answer
        elif said is not None:
            opens, marked = not asked and not marked, False  # an objection or colloquy inside an exchange stays
        elif text.startswith("(") and not asked:
            opens, marked = not marked, True  # "(Exhibit 2 marked ...)": with the questions that follow it
        else:
            opens = False  # a wrapped line, a parenthetical within an exchange, a blank row
        if opens:
            starts.append(row)
    return starts


def transcript_passages(pages: Sequence[PageText]) -> dict[int, list[tuple[int, int]]] | None:
    """Per page of the file (by number), the (start, end) of its passages, when the document is a transcript (None:
    it is not); a page that opens no exchange (a title page, the appearances, a certificate) has none here and is
    cut by size. A passage may be longer than TRANSCRIPT_SIZES.max (one long answer): chunk.legal cuts it."""
    lines = read_transcript(pages)
    if lines is None or turn_count(lines) < MIN_TURN_SHARE * sum(1 for row in lines if row.text):
        return None
    starts: dict[int, list[int]] = {}
    for row in exchange_starts(lines):
        starts.setdefault(row.file_page, []).append(row.start)
    return {page.number: passage_bounds(page.text, starts[page.number]) for page in pages if page.number in starts}


def passage_bounds(text: str, starts: Sequence[int], sizes: ChunkSizes = TRANSCRIPT_SIZES) -> list[tuple[int, int]]:
    """(start, end) of a transcript page's passages: its exchanges (opening at `starts`, offsets in `text`)
    together up to the target size, each trimmed of surrounding space."""
    first, last = len(text) - len(text.lstrip()), len(text.rstrip())
    cuts = sorted({first, *(s for s in starts if first < s < last)})
    units = [(a, _trimmed_end(text, a, b)) for a, b in zip(cuts, [*cuts[1:], last], strict=True)]
    groups: list[tuple[int, int]] = []
    for start, end in units:
        if end <= start:
            continue
        if groups and end - groups[-1][0] <= sizes.target_chars:
            groups[-1] = (groups[-1][0], end)
        else:
            groups.append((start, end))
    return groups


def _trimmed_end(text: str, start: int, end: int) -> int:
    return start + len(text[start:end].rstrip())
