"""The chunker's regexes were respelled for speed (a leading character set lets the regex
engine skip ahead in C); each respelling must find exactly the matches of the original.
The originals are kept here as the reference."""

from __future__ import annotations

import random
import re

import pytest

from casetrack.chunk import bates, boundaries, protected, structure
from tests.chunk.chunk_evaldev import eval_paths
from tests.chunk.test_chunk_golden import generated_pages

_REPORTER = protected._REPORTER
_PARENS = protected._PARENS
_CASE_NAME = protected._CASE_NAME
OLD_REPORTER_CITE = rf"\d{{1,4}}\s+{_REPORTER}\s+\d{{1,6}}(?:,\s*\d{{1,6}})*{_PARENS}"
OLD_WESTLAW_CITE = rf"\d{{4}}\s+(?:WL|U\.S\.\s?(?:App\.|Dist\.)\s?LEXIS)\s+\d{{1,9}}(?:,\s*at\s*\*?\d+)?{_PARENS}"
OLD_PROTECTORS = [
    rf"{_CASE_NAME}(?:,\s+(?:No\.\s*[\w.:-]+,\s+)?(?:_*[\w.]*_*,\s+)?(?:{OLD_REPORTER_CITE}|{OLD_WESTLAW_CITE}))?",
    OLD_REPORTER_CITE,
    OLD_WESTLAW_CITE,
    r"\d{1,3}\s+(?:U\.\s?S\.\s?C\.(?:\s?A\.)?|C\.\s?F\.\s?R\.|Stat\.)\s*(?:§§?\s*)?[\w.-]+(?:\([\w]{1,4}\))*",
    None,  # Fed. R. Civ. P.: unchanged
    r"(?=[SAPCRENs§¶])(?:\b(?:Sections?|SECTIONS?|Secs?\.|Articles?|ARTICLES?|Art\.|Paragraphs?|Para\.|Clauses?|Rules?"
    r"|Exhibits?|EXHIBITS?|Schedules?|No\.|Nos\.)|§§?|¶¶?)\s*"
    r"(?:[\dIVXLC]{1,6}[A-Za-z]?(?:[.-]\d{1,4})*(?:\([\w]{1,4}\))*)(?:[:,]?\s+[^\s]+)?",
    None,  # defined term in parentheses: unchanged
    None,  # "..." means: unchanged
    r"(?=\d)(?<![\w.,$/-])\d{1,3}(?:\.\d{1,3})*\.?\s+[A-Z][\w&'’-]*(?:\s+(?:[A-Z][\w&'’-]*|of|and|or|the|to|for|in|on))"
    r"{0,6}\.\s+(?=\S)",
]
OLD_CANDIDATE_GAP = r"(?<=[.!?;:\"'”’)\]])[^\S\n]+(?!\s)|[^\S\n]*\n\s*"

_ALPHABET = [" ", "  ", "\n", "\n\n", "\t", "\u00a0", "\r", ".", ";", ":", ")", "”", "’", "(", "$", ",", "/", "-", "_",
             "1", "12", "123", "1234", "2023", "8.1", "a", "B", "The", "v.", "Inc.", "S", "Sections", "SECTION",
             "Secs.", "Article", "Art.", "Para.", "Paragraph", "Clause", "Rule", "Exhibit", "Schedule", "No.", "Nos.",
             "§", "¶", "U.S.", "U.S.C.", "C.F.R.", "Stat.", "F.3d", "WL", "LEXIS", "S.Ct.", "(a)", "(2d Cir. 2021)",
             "xS", "4A"]


def texts() -> list[str]:
    rng = random.Random(20261121)
    generated = ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 30))) for _ in range(6000)]
    return [p.read_text(encoding="utf-8") for p in eval_paths()] + [p.text for p in generated_pages(60)] + generated


def spans(pattern: re.Pattern[str], text: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text, lo, len(text) if hi is None else hi)]


@pytest.mark.parametrize("index", [i for i, old in enumerate(OLD_PROTECTORS) if old is not None])
def test_respelled_protector_finds_exactly_the_original_matches(index: int) -> None:
    old, new = re.compile(OLD_PROTECTORS[index]), protected.PROTECTORS[index].pattern  # type: ignore[arg-type]
    rng = random.Random(index)
    for text in texts():
        assert spans(new, text) == spans(old, text), repr(text[:200])
        lo = rng.randint(0, len(text))  # anchored protectors search windows: the bounds must act alike
        hi = rng.randint(lo, len(text))
        assert spans(new, text, lo, hi) == spans(old, text, lo, hi), repr(text[:200])


# The second spelling, which opened with `\s`; the scanner now finds the punctuation or newline
# that opens each gap instead, and steps back over spaces before a newline.
SECOND_CANDIDATE_GAP = r"\s(?:(?<=[.!?;:\"'”’)\]][^\S\n])[^\S\n]*(?!\s)|(?<=\n)\s*|[^\S\n]*\n\s*)"
_GAP_PIECES = [" ", "  ", "\n", "\n\n", "\t", "\u00a0", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u3000",
               " \n", "\n ", ".", ";", ")", "”", "x", "A"]


def test_candidate_gaps_are_exactly_the_original_gaps() -> None:
    old, second = re.compile(OLD_CANDIDATE_GAP), re.compile(SECOND_CANDIDATE_GAP)
    rng = random.Random(11)
    dense = ["".join(rng.choice(_GAP_PIECES) for _ in range(rng.randint(0, 25)))
             for _ in range(6000)]
    for text in texts() + dense:
        expected = spans(old, text)
        assert spans(second, text) == expected, repr(text[:200])
        assert list(boundaries.candidate_gaps(text)) == expected, repr(text[:200])
        # find_breaks inlines candidate_gaps: each break it grades must be one of those gaps
        gaps = set(expected)
        assert all((b.end, b.next_start) in gaps for b in boundaries.find_breaks(text, [])), repr(text[:200])


def test_the_reference_list_still_lines_up_with_the_protectors() -> None:
    assert len(OLD_PROTECTORS) == len(protected.PROTECTORS)
    assert "Fed(?:eral" in protected.PROTECTORS[4].pattern.pattern
    assert "means" in protected.PROTECTORS[7].pattern.pattern


# The stop before the number, seen from behind: it may close a quotation ('the "Term." 4. Annual'),
# and spaces may follow it; the title may hold ";" and run into a sub-clause: "(a)", "a. ".
OLD_INLINE_HEADING = (
    r"(?:(?<=[.:])|(?<=[.:][\"”’)])) +(?P<num>\d{1,2}(?:\.\d{1,2})*\.?) +"
    r"(?P<title>[A-Z][\w&'’,;-]*(?: +[\w&'’,;-]+){0,7}?)(?=\. +(?:[A-Z0-9“\"(]|[a-z][.)] ))"
)


def test_respelled_inline_heading_finds_exactly_the_original_headings() -> None:
    old = re.compile(OLD_INLINE_HEADING)
    rng = random.Random(7)
    pieces = [". ", ": ", "1", "12", "1.2", "3.", " ", "  ", "Term", "Fees and Costs", "of", ".", "The", "x", "“",
              '"', "(a)", "a.", ";", ")"]
    samples = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 20))) for _ in range(6000)]
    samples += [  # "... as follows. 2.1 Fees and Costs. The ..." and near misses
        f"{rng.choice(['.', '.', ':', ',', ''])}{rng.choice([' ', ' ', '  ', ''])}"
        f"{rng.choice(['1', '12', '123', '2.1', '2.1.'])}{rng.choice([' ', '  ', ''])}"
        f"{rng.choice(['Term', 'Fees and Costs', 'term', 'A b c d e f g h i'])}"
        f"{rng.choice(['. ', '. ', '.', '; '])}{rng.choice(['The', '1', 'the', '“A', ''])}"
        for _ in range(3000)
    ]
    samples += [". 1 Term. 2 Fees. 3 Costs. The", ": 1 A.  2 B. 3 C.  The", ". 1 A. 1.2 B. x. 3 C. D"]
    samples += ['the "Term." 4. Annual Fees; Playoff Payment.   (a) In', ".   2. Definitions. a. The", ".) 3 A b. (i"]
    for text in texts() + samples:
        # The current spelling matches the ". " before the number too: the groups must agree.
        found = [(m.span("num"), m.span("title")) for m in structure._INLINE_HEADING.finditer(text)]
        assert found == [(m.span("num"), m.span("title")) for m in old.finditer(text)], repr(text[:200])


@pytest.mark.parametrize("name", ["_KEYWORD_HEADING", "_NUMBERED_HEADING", "_CAPS_LINE"])
def test_line_start_headings_are_found_as_a_multiline_caret_finds_them(name: str) -> None:
    pattern = getattr(structure, name)
    rng = random.Random(name)
    pieces = ["\n", "\n\n", " ", "\t", "ARTICLE V", "Section 8.1", "§ 4.2(a)", "1.", "1.2", "IV.", "A.", "Term",
              "GOVERNING LAW", "Definitions.", "the", "x", ":", "-", "\u00a0", "\r"]
    samples = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 30))) for _ in range(6000)]
    for text in texts() + samples:
        expected = [(m.start(), m.regs[1:]) for m in pattern.finditer(text)]
        assert [(start, m.regs[1:]) for start, m in structure._line_matches(pattern, text)] == expected, repr(text)


# A prefix may have a second part: GOOG-DOJ-00012345.
OLD_STAMP = (
    r"(?<![\w./:#-])(?P<prefix>[A-Z][A-Z0-9]{0,11}?(?:[-_][A-Z][A-Z0-9]{0,7}?)?)(?P<sep>[ _-]?)(?P<serial>\d{5,10})"
    r"(?![\w/.:-]?\d)(?!\w)"
)


def test_respelled_bates_stamp_finds_exactly_the_original_stamps() -> None:
    old = re.compile(OLD_STAMP)
    rng = random.Random(5)
    pieces = ["ABC", "A", "SMITH", "X1", " ", "-", "_", "/", ".", ":", "#", "000123", "0004567", "12", "a", "\n",
              "DOJ-"]
    samples = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(20000)]
    for text in texts() + samples:
        assert [m.regs for m in bates._STAMP.finditer(text)] == [m.regs for m in old.finditer(text)], repr(text)


def test_edge_lines_are_the_first_and_last_non_empty_lines() -> None:
    rng = random.Random(6)
    pieces = ["\n", "\n", "\n\n", " ", "  x ", "ABC 000123", "\t", "\r", "\u00a0", "word"]
    samples = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 30))) for _ in range(20000)]
    for text in texts() + samples:
        lines = [line.strip() for line in text.split("\n") if line.strip()]
        assert bates._edge_lines(text) == lines[-3:][::-1] + lines[:3], repr(text)
