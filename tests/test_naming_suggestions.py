"""'Did you mean' names what the user plausibly meant, and nothing when nothing is alike."""

from __future__ import annotations

from casetrack.service.cases.naming import suggestions

DOCUMENTS = ["common_paper_mutual_nda_v1.docx", "cuad_biopure_agency_agreement.txt",
             "ca2_docketing_notice_nfl_2017.pdf", "cuad_netgear_distributor_agreement.pdf", "Smith v. Jones Corp"]


def _names(key: str) -> list[str]:
    return [name for name, _ in suggestions(key, DOCUMENTS, lambda d: d, lambda d: d)]


def test_typos_and_prefixes_find_their_document() -> None:
    assert _names("smth") == ["Smith v. Jones Corp"]
    assert _names("netgar") == ["cuad_netgear_distributor_agreement.pdf"]
    assert _names("docketing notise") == ["ca2_docketing_notice_nfl_2017.pdf"]


def test_a_word_alike_only_in_a_few_letters_or_the_extension_suggests_nothing() -> None:
    assert _names("nope") == []  # "notice" shares n, o, e; "pdf" is the extension
    assert _names("xlsx") == []
