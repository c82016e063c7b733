"""Cuts fall at legal boundaries: never inside a citation, a section reference or a
defined term, never after an abbreviation; odd inputs terminate within the size bounds."""

from __future__ import annotations

import itertools

import pytest

from casetrack.chunk import chunk_pages, sizes_for
from casetrack.chunk.boundaries import ends_sentence
from casetrack.chunk.legal import split_page
from casetrack.chunk.protected import protected_spans
from casetrack.domain import DocumentType, ExtractionMethod, ParsedPage
from tests.chunk.test_chunk_provenance import check_invariants

FILLER = "The parties have considered the matter with care and reached the result stated here. "
# No punctuation and no line breaks: near the phrase, the only gaps a cut could use are
# word gaps and the phrase's own (wrapped) gaps, so an unprotected phrase would be cut.
BARE_FILLER = "the parties have considered the matter with care and reached the result stated here "

PROTECTED_PHRASES = [
    "42 U.S.C. § 1983",
    "Fed. R. Civ. P. 12(b)(6)",
    "Miranda v. Arizona, 384 U.S. 436 (1966)",
    "United States v. Qin, No. 21-1832, 2023 WL 128600 (1st Cir. Jan. 9, 2023)",
    'Acme Corp. ("Licensee")',
    "Section 8.1 The",
    "§ 4.2(a) of",
    "ARTICLE V shall",
    "Rule 12(b)(6) motion",
    "Federal Rule of Appellate Procedure 28(j)",
]


def _page(text: str) -> ParsedPage:
    return ParsedPage(1, text, ExtractionMethod.NATIVE)


@pytest.mark.parametrize("phrase", PROTECTED_PHRASES)
def test_protected_phrases_are_recognised_whole(phrase):
    text = f"As stated in {phrase} and elsewhere."
    start = text.index(phrase)
    assert any(s <= start and start + len(phrase) <= e for s, e in protected_spans(text))


@pytest.mark.parametrize("doc_type", [DocumentType.PLEADING, DocumentType.OTHER, DocumentType.CONTRACT])
@pytest.mark.parametrize("phrase", PROTECTED_PHRASES)
@pytest.mark.parametrize("wrap", [" ", "\n"])
def test_no_chunk_boundary_falls_inside_a_protected_phrase(doc_type, phrase, wrap):
    """The phrase is placed at every offset around the natural cut, with its spaces
    optionally turned into line breaks (as PDF wrapping does)."""
    sizes = sizes_for(doc_type)
    target_phrase = phrase.replace(" ", wrap)
    for shift in range(0, 400, 7):
        lead = (BARE_FILLER * 80)[: sizes.target_chars - 200 + shift].rsplit(" ", 1)[0]
        text = f"{lead} see {target_phrase} for the rule {BARE_FILLER * 40}"
        start = text.index(target_phrase)
        end = start + len(target_phrase)
        chunks = chunk_pages([_page(text)], doc_type)
        assert len(chunks) >= 2
        for c in chunks:
            assert not (start < c.char_start < end), (shift, c.text[:60])
            assert not (start < c.char_end < end), (shift, c.text[-60:])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He sued the U.S. Government", False),
        ("Miranda v. Arizona", False),
        ("Acme Inc. Holdings", False),
        ("Case No. 21-1234", False),
        ("Acme Corp. The", False),
        ("under Sec. 12", False),
        ("Smith et al. The", False),
        ("e.g. The", False),
        ("i.e. Section", False),
        ("Fed. R. Civ. P. 12", False),
        ("signed by John Q. Public", False),
        ("1. Definitions", False),  # an enumerator opening a line
        ("was granted. The", True),
        ("was it granted? The", True),
        ('as "Licensee." The', True),
        ("for $5,000,000. The", True),
        ("Arizona, 384 U.S. 436 (1966). The", True),
    ],
)
def test_sentence_ends_are_not_abbreviations(text, expected):
    end = text.index(" ", text.rfind(".") if "." in text else text.rfind("?"))
    assert ends_sentence(text, end, 0) is expected


def test_a_chunk_never_ends_on_an_abbreviation_when_sentences_are_available():
    sentence = (
        "The claim against Acme Corp. and Widget Inc. under 42 U.S.C. § 1983 was filed by Smith et al. "
        "in the U.S. District Court, see No. 21-1234, e.g. in Sec. 4. "
    )
    chunks = chunk_pages([_page(sentence * 60)], DocumentType.OTHER)
    assert len(chunks) > 2
    for c in chunks:
        assert c.text.endswith("Sec. 4."), c.text[-40:]
        assert c.text.startswith("The claim"), c.text[:40]


def test_a_heading_stays_with_the_text_it_introduces():
    clause = "The Licensee shall pay the fees set out in the schedule within thirty days of each invoice.\n"
    body = "".join(f"Section {n}.1 Payment\n{clause * 3}" for n in range(1, 40))
    chunks = chunk_pages([_page(body)], DocumentType.PLEADING)
    assert len(chunks) > 3
    for c in chunks:
        last_line = c.text.rsplit("\n", 1)[-1]
        assert not last_line.startswith("Section"), last_line


def test_consecutive_chunks_overlap_from_a_sentence_start():
    text = " ".join(f"Sentence {i} says something of moderate length about the contract." for i in range(300))
    sizes = sizes_for(DocumentType.OTHER)
    chunks = chunk_pages([_page(text)], DocumentType.OTHER)
    assert len(chunks) > 3
    for a, b in itertools.pairwise(chunks):
        shared = a.char_end - b.char_start
        assert sizes.overlap_chars // 2 <= shared <= 2 * sizes.overlap_chars
        assert b.text.startswith("Sentence ")
        assert a.text.endswith("contract.")


def _assert_sane(text: str, doc_type: DocumentType = DocumentType.OTHER) -> list:
    pages = [_page(text)]
    chunks = chunk_pages(pages, doc_type)
    check_invariants(pages, chunks, doc_type)
    return chunks


def test_one_50000_character_token_is_cut_at_bounded_sizes():
    chunks = _assert_sane("x" * 50_000)
    sizes = sizes_for(DocumentType.OTHER)
    assert all(len(c.text) <= sizes.max_chars for c in chunks)
    assert len(chunks) <= 50_000 // (sizes.target_chars - 2 * sizes.overlap_chars) + 2


@pytest.mark.parametrize(
    "text",
    [
        "\n" * 100_000,
        " \n\t" * 30_000,
        "Section 1 " * 20_000,  # protected spans chain into one: no legal cut anywhere
        "a. " * 30_000,
        "U.S. " * 20_000,
        '("Term") ' * 10_000,
        "word " * 100_000,
        "\n\n".join(["x" * 5000] * 40),
        "x" * 3000 + " " * 5000 + "y" * 3000,
        ("Short line\n" * 50 + "\n") * 200,
        "§" * 20_000,
    ],
    ids=lambda t: repr(t[:12]) + f"x{len(t)}",
)
def test_pathological_pages_terminate_within_bounds(text):
    chunks = _assert_sane(text)
    if text.strip():
        assert chunks
    # Each chunk brings well over 200 new characters: no crawl, no runaway.
    assert len(chunks) <= len(text) // 200 + 2


def test_a_two_megabyte_page_is_split_linearly_in_chunk_count():
    text = (FILLER * 3 + "\n") * 8_000
    spans = split_page(text, sizes_for(DocumentType.OTHER))
    assert len(text) > 2_000_000
    assert len(text) // 4_000 <= len(spans) <= len(text) // 1_000


def test_per_type_sizes_differ_as_designed():
    text = "\n\n".join(FILLER * 6 for _ in range(400))
    mean = {}
    for doc_type in (DocumentType.PLEADING, DocumentType.OTHER, DocumentType.CONTRACT, DocumentType.DEPOSITION):
        chunks = _assert_sane(text, doc_type)
        mean[doc_type] = sum(c.token_count for c in chunks) / len(chunks)
    assert (
        mean[DocumentType.PLEADING]
        < mean[DocumentType.OTHER]
        < mean[DocumentType.CONTRACT]
        < mean[DocumentType.DEPOSITION]
    )
    assert sizes_for(DocumentType.DEPOSITION).overlap > sizes_for(DocumentType.OTHER).overlap
    assert sizes_for(DocumentType.STATUTE) == sizes_for(DocumentType.PLEADING)


@pytest.mark.parametrize("doc_type", list(DocumentType))
def test_every_type_stays_within_the_prd_bounds(doc_type):
    sizes = sizes_for(doc_type)
    assert 100 <= sizes.min <= sizes.target <= sizes.max <= 1000
    assert 0 < sizes.overlap < sizes.target


def test_a_short_page_is_one_chunk_even_below_the_minimum():
    chunks = _assert_sane("  Short.  ")
    assert [(c.text, c.char_start, c.token_count) for c in chunks] == [("Short.", 2, 2)]


def test_a_lettered_clause_title_stays_with_its_text():
    # Additional Provisions of a CUAD content licence, flattened from PDF: "f. Force Majeure. In the event ..."
    clauses = [
        ("a", "Insurance", "Each party agrees to carry liability insurance sufficient to cover the risks posed."),
        ("b", "Counterparts", "This Agreement may be executed in any number of counterparts, each an original."),
        ("c", "Notices", "All notices shall be in writing and sent by courier, express mail or personal delivery."),
        ("d", "Entire Agreement", "This Agreement contains the full and complete understanding of the parties."),
        ("e", "Waiver", "No waiver of any term or condition shall be construed as a waiver of any other term."),
        ("f", "Force Majeure", "In the event that either party is prevented from performing by an act of God."),
        ("g", "Governing Law and Forum", "This Agreement will be governed by the laws of the State of California."),
    ]
    text = " ".join(f"{letter}. {title}. {sentence * 6}" for letter, title, sentence in clauses * 4)
    chunks = _assert_sane(text, DocumentType.CONTRACT)
    assert len(chunks) > 4
    titles = tuple(f"{letter}. {title}." for letter, title, _ in clauses)
    for c in chunks:
        assert not c.text.endswith(titles), c.text[-60:]
    assert sum(c.text.startswith(tuple(f"{letter}. " for letter, _, _ in clauses)) for c in chunks) >= len(chunks) // 2


def test_an_overlap_opens_a_clause_when_no_sentence_starts_near():
    # One long sentence of (i), (ii), ... items: no sentence or line start within the overlap's reach.
    items = "; ".join(
        f"({n}) the Customer may request a credit of the value of the defective product number {n}" for n in range(400)
    )
    chunks = _assert_sane(f"The Customer may reject any defective Product and either: {items}.", DocumentType.CONTRACT)
    assert len(chunks) > 3
    for c in chunks[1:]:
        assert c.text.startswith("("), c.text[:40]


def test_a_clause_title_right_after_its_sections_title_is_protected_too():
    text = "assigns. 6. Miscellaneous. 6.1 Entire Agreement. This Agreement constitutes the entire agreement."
    spans = protected_spans(text)
    for title in ("Miscellaneous.", "Entire Agreement."):
        gap = text.index(title) + len(title)  # the gap between a title and its text
        assert any(start < gap < end for start, end in spans), title
