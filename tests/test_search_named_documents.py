"""A question about a named document ranks that document's passage that answers it first, not the
passages that repeat the document's name: "the governing law of the Acme supply agreement" is the
governing-law clause, though "Acme" and "supply" fill its delivery terms and not that clause.
A real case on disk, real chunking, BM25 and the ready embedders."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest


def _section(number: int, title: str, sentences: list[str], length: int = 2300) -> str:
    body, i = [], 0
    while sum(len(s) + 1 for s in body) < length:
        body.append(sentences[i % len(sentences)].replace("{n}", str(i + 1)))
        i += 1
    return f"{number}. {title}.\n\n" + " ".join(body)


ACME = "\n\n".join([
    'SUPPLY AGREEMENT\n\nThis Supply Agreement is entered into as of March 1, 2021 by and between Acme Widgets, '
    'Inc., a Delaware corporation ("Acme"), and Beta Retail LLC, an Ohio limited liability company ("Beta") '
    '(each a "Party" and together the "Parties").',
    _section(1, "Orders and Delivery", [
        "Acme shall supply the Products listed in purchase order {n} and Acme shall deliver them to Beta's store.",
        "Acme's supply obligations under this supply agreement include packing, labelling and Acme shipping.",
        "If Acme cannot supply an order, Acme shall tell the other Party within {n} days and propose a date.",
    ]),
    _section(2, "Prices", [
        "Acme's supply prices are those of Acme's price list {n}; Acme may change Acme prices on notice.",
        "Beta pays Acme within thirty days of each Acme supply invoice, and either Party may dispute it.",
    ]),
    _section(3, "Quality", [
        "Acme warrants that each supply of Products meets the specification sheet {n} agreed by the Parties.",
        "A Party that finds a defect in an Acme supply shall notify the other Party, and Acme shall replace it.",
    ]),
    _section(4, "Choice of Law", [
        "This Agreement shall be construed in accordance with the laws of the State of Delaware, "
        "without regard to its conflict of laws principles.",
        "Each Party submits to the exclusive jurisdiction of the state and federal courts sitting in Wilmington, "
        "Delaware, for any dispute between the Parties arising out of or relating to this Agreement.",
    ], length=1200),
    _section(5, "Term", [
        "This Agreement runs for three years from the date above and renews for one-year periods unless ended.",
        "Either Party may end it on ninety days written notice to the other Party before a renewal date.",
    ], length=1200),
])
GAMMA = "\n\n".join([
    'LICENSE AGREEMENT\n\nThis License Agreement is made on June 5, 2020 between Gamma Software Corp. ("Gamma") '
    'and Delta Services, Inc. ("Delta").',
    _section(1, "License", [
        "Gamma grants Delta a non-exclusive license to use the Software at site {n} for its internal business.",
        "Delta shall not sublicense, copy or modify the Software except as this Agreement allows.",
    ]),
    _section(2, "Governing Law", [
        "This Agreement is governed by the laws of the State of New York, without regard to conflict of laws rules.",
    ], length=300),
])


def _case(folder: Path, acme_name: str, gamma_name: str) -> tuple[CaseTrack, object]:
    """A case holding the two agreements under these file names."""
    app = CaseTrack.open(load_settings(folder / "data"))
    case = app.create_case(f"Beta v. Acme ({folder.name})")
    for name, text in [(acme_name, ACME), (gamma_name, GAMMA)]:
        (folder / name).write_text(text, encoding="utf-8")
        app.ingestor.ingest(case, IngestRequest(str(folder / name)))
    return app, case


@pytest.fixture(scope="module")
def app_and_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[CaseTrack, object]:
    return _case(tmp_path_factory.mktemp("named"), "Acme Supply Agreement.txt", "Gamma License Agreement.txt")


def _hits(app_and_case: tuple[CaseTrack, object], query: str) -> list[tuple[str, str]]:
    app, case = app_and_case
    return [(h.chunk.provenance.document_name, h.chunk.text) for h in app.search.search(case, query, top_k=5).hits]  # type: ignore[arg-type]


def test_the_clause_asked_about_comes_first_not_the_passages_repeating_the_name(app_and_case) -> None:  # type: ignore[no-untyped-def]
    hits = _hits(app_and_case, "Governing law of the Acme supply agreement")
    assert hits[0][0] == "Acme Supply Agreement.txt"
    assert "laws of the State of Delaware" in hits[0][1]
    # Naming is evidence weighed with the rest (issue 21), not a hard "named document first" stage: another
    # document's passage may follow the answer, but never comes before it.


def test_a_question_about_the_parties_still_finds_the_preamble_that_names_them(app_and_case) -> None:  # type: ignore[no-untyped-def]
    doc, text = _hits(app_and_case, "Who are the parties to the Acme supply agreement?")[0]
    assert doc == "Acme Supply Agreement.txt" and "by and between Acme Widgets, Inc." in text


def test_a_query_naming_no_document_searches_the_case_as_before(app_and_case) -> None:  # type: ignore[no-untyped-def]
    docs = {doc for doc, _ in _hits(app_and_case, "which state's law governs")}
    assert docs == {"Acme Supply Agreement.txt", "Gamma License Agreement.txt"}


def test_the_response_says_which_document_the_query_named(app_and_case) -> None:  # type: ignore[no-untyped-def]
    from casetrack.mcp.outputs_search import SearchResult
    from casetrack.render.search import response_text

    app, case = app_and_case
    named = app.search.search(case, "Governing law of the Acme supply agreement", top_k=3)
    assert named.named_documents == ("Acme Supply Agreement.txt",) and "named" in named.stages_used
    assert SearchResult.of(named, "free").named_documents == ["Acme Supply Agreement.txt"]
    assert "Named in the query: Acme Supply Agreement.txt (its passages weigh more;" in response_text(named, "free")
    plain = app.search.search(case, "which state's law governs", top_k=3)
    assert plain.named_documents == () and "Named in the query" not in response_text(plain, "free")


@pytest.fixture(scope="module")
def produced(tmp_path_factory: pytest.TempPathFactory) -> tuple[CaseTrack, object]:
    """The same two agreements as a production names them: by number, nothing else."""
    return _case(tmp_path_factory.mktemp("produced"), "PROD000001.txt", "PROD000002.txt")


def test_a_document_named_by_number_is_named_by_its_own_title_and_parties(produced) -> None:  # type: ignore[no-untyped-def]
    app, case = produced
    response = app.search.search(case, "Governing law of the Acme supply agreement", top_k=5)
    assert response.named_documents == ("PROD000001.txt",)
    top = response.hits[0].chunk
    assert top.provenance.document_name == "PROD000001.txt" and "laws of the State of Delaware" in top.text
    by_party = app.search.search(case, "Which state's law governs the agreement with Delta Services?", top_k=3)
    assert by_party.named_documents == ("PROD000002.txt",)
    assert "laws of the State of New York" in by_party.hits[0].chunk.text


def test_what_a_document_names_itself_with_is_shown_with_it(produced) -> None:  # type: ignore[no-untyped-def]
    app, case = produced
    document = app.documents.resolve(case, "PROD000001.txt")
    assert document.metadata["opening"].startswith("SUPPLY AGREEMENT This Supply Agreement is entered into")
    assert len(document.metadata["opening"]) <= 80
    assert document.metadata["parties"] == "Acme Widgets, Inc.; Beta Retail LLC"
