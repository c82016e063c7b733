"""Every eval-dev document parses with the right pages and faithful text."""

from __future__ import annotations

import re

import pytest

from casetrack.domain import ExtractionMethod

from .evaldev import bag_of_words_scores, manifest, parsed, queries, reference_text, squash

NATIVE = sorted(name for name, entry in manifest().items() if not entry["scanned"])
ALL = sorted(manifest())


@pytest.mark.parametrize("name", ALL)
def test_page_count_matches_the_manifest(name: str) -> None:
    document = parsed(name)
    expected = manifest()[name]["pages"]
    if expected is not None:
        assert len(document.pages) == expected
        assert not any(page.approximate for page in document.pages)
    else:  # DOCX and TXT have no fixed pages
        assert len(document.pages) >= 1
    assert [page.number for page in document.pages] == list(range(1, len(document.pages) + 1))


@pytest.mark.parametrize("name", NATIVE)
def test_native_text_matches_the_reference_words(name: str) -> None:
    recall, precision = bag_of_words_scores(parsed(name).text, reference_text(name))
    # Measured: 1.0000/1.0000 for all but NETGEAR (0.9998/0.9997) and the 8th Cir. letter
    # (0.9976/0.9952: its "Page 1 of 2" footers are in the text layer but not in the reference).
    assert recall >= 0.995, f"recall {recall:.4f}"
    assert precision >= 0.99, f"precision {precision:.4f}"
    assert all(page.method is ExtractionMethod.NATIVE for page in parsed(name).pages)


@pytest.mark.parametrize("name", [name for name in NATIVE if name.endswith(".pdf")])
def test_pdf_pages_hold_the_reference_page_text(name: str) -> None:
    reference_pages = reference_text(name).split("\f")
    for page, reference in zip(parsed(name).pages, reference_pages, strict=False):
        recall, _ = bag_of_words_scores(page.text, reference)
        assert recall >= 0.99, f"page {page.number}: recall {recall:.4f}"


@pytest.mark.parametrize("name", ALL)
def test_page_text_follows_the_domain_conventions(name: str) -> None:
    for page in parsed(name).pages:
        text = page.text
        assert "\r" not in text and "\f" not in text and "\x00" not in text
        assert not re.search(r"[\x01-\x09\x0b-\x1f\x7f]", text)
        assert not re.search(r" +$", text, re.MULTILINE), "trailing spaces"
        assert "\n\n\n" not in text
        assert text == text.strip("\n")
        assert text.strip(), f"page {page.number} is empty"


def test_pdf_paragraphs_are_separated_by_blank_lines() -> None:
    page = parsed("cuad_lucid_distributor_agreement.pdf").pages[0]
    assert "\n\n2. Term\n\nA) The initial term of this Agreement" in page.text
    # lines of one paragraph stay on separate lines, unjoined
    assert "as an exclusive authorized Lucid Distributor. The Distributor will be\nentitled to purchase" in page.text


LABELLED = [query for query in queries() if not manifest()[query["doc"]]["scanned"]]


@pytest.mark.parametrize("query", LABELLED, ids=[query["id"] for query in LABELLED])
def test_labelled_answers_are_on_the_labelled_page(query: dict) -> None:
    document = parsed(query["doc"])
    answer = squash(query["answer_text"])
    if query.get("page"):
        assert answer in squash(document.pages[query["page"] - 1].text)
    else:
        assert answer in squash(" ".join(page.text for page in document.pages))
