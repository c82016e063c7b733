"""Court-document text a paralegal reads at a glance (issue 6): docket short titles cut and wrapped by the
docket system, clerks and judges in letterheads and OCR'd signature lines (month-and-year dates: test_graph_dates).

The texts are copied from US appellate docketing notices and orders (the eval-dev notice and order, as the
reference text and as `parse_file` reads the PDFs); the same patterns occur in every such notice.
"""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EntityKind, find_entities, find_parties
from casetrack.graph.parties.truncation import continues
from tests.graph.graph_evaldev import pages_of


def page(text: str) -> list[ParsedPage]:
    return [ParsedPage(1, text, ExtractionMethod.NATIVE)]


# --- docket short titles ----------------------------------------------------------------------

NOTICE_HEAD = """Date: October 31, 2017
Docket #: 17-3510
Short Title: National Football League Manag v. National
Football League Playe

DC Docket #: 17-cv-6761
DC Court: SDNY (NEW YORK
CITY)
DC Judge: Failla

DOCKETING NOTICE

"""
APPEAL = "A notice of appeal filed by {} in the above referenced\ncase was docketed today as 17-3510."

SHORT_TITLES = [
    # the wrapped second name is completed by the appellant named in the text: one party, both roles;
    # the first name, cut by the docket system and named nowhere else, is shown as cut
    (NOTICE_HEAD + APPEAL.format("National Football League Players Association"),
     {("National Football League Manag…", "plaintiff"),
      ("National Football League Players Association", "defendant-appellant")}),
    # nothing completes them: both shown as cut, neither as "National"
    (NOTICE_HEAD,
     {("National Football League Manag…", "plaintiff"), ("National Football League Playe…", "defendant")}),
    # the appellant completes the first name only; different parties are never merged
    (NOTICE_HEAD + APPEAL.format("National Football League Management Council"),
     {("National Football League Management Council", "plaintiff-appellant"),
      ("National Football League Playe…", "defendant")}),
    # short names are whole; a short line did not wrap, so the next line is not part of the name
    ("Short Title: Doe v. Roe\nDC Docket #: 1:17-cv-1", {("Doe", "plaintiff"), ("Roe", "defendant")}),
    ("Short Title: Doe v. Acme Widget Corp\nDOCKETING NOTICE\n",
     {("Doe", "plaintiff"), ("Acme Widget Corp", "defendant")}),
    ("Short Title: Doe v. Acme\nWidget Corp\n\n", {("Doe", "plaintiff"), ("Acme", "defendant")}),
    # a heading in another case style does not continue a name, even after a long line
    ("Short Title: Northern Widget Holdings v. Acme Corp\nDOCKETING NOTICE\n",
     {("Northern Widget Holdings", "plaintiff"), ("Acme Corp", "defendant")}),
    # a letter's "Re:" line is not a docket field: it does not wrap
    ("RE: Northern Widget Holdings Company v. Acme\nWidget Corp\n", {("Northern Widget Holdings Company", "plaintiff"),
                                                                   ("Acme", "defendant")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), SHORT_TITLES, ids=[t[-40:] for t, _ in SHORT_TITLES])
def test_docket_short_titles_wrap_and_cut_names_complete_from_the_document(text: str, expected: set) -> None:
    assert {(p.name, p.role) for p in find_parties(page(text))} == expected


CONTINUES = [
    ("National Football League Playe", "National Football League Players Association", True),
    ("National Football League Manag", "National Football League Management Council", True),
    ("National Football League Manag", "National Football League Players Association", False),
    ("National", "National Football League Players Association", False),  # one word says too little
    ("National Football League Players Association", "National Football League Players Association", False),
]


@pytest.mark.parametrize(("cut", "full", "expected"), CONTINUES, ids=[f"{c} < {f}" for c, f, _ in CONTINUES])
def test_a_cut_name_continues_only_into_a_name_that_starts_with_it(cut: str, full: str, expected: bool) -> None:
    assert continues(cut, full) is expected


def test_a_cut_name_and_its_completion_are_one_entity_with_exact_spans() -> None:
    text = NOTICE_HEAD + APPEAL.format("National Football League Players Association")
    nflpa = [
        e for e in find_entities(page(text)) if e.key == "organization:national football league players association"
    ]
    assert [(e.text, e.role) for e in nflpa] == [
        ("National\nFootball League Playe", "defendant"),
        ("National Football League Players Association", "appellant"),
    ]
    assert all(text[e.char_start : e.char_end] == e.text for e in nflpa)


def test_the_evaldev_docketing_notice_names_its_two_parties() -> None:
    parties = find_parties(pages_of("ca2_docketing_notice_nfl_2017.pdf"))
    assert {(p.name, p.role) for p in parties} == {
        ("National Football League Manag…", "plaintiff"),
        ("National Football League Players Association", "defendant-appellant"),
    }


# --- letterheads and signature lines ----------------------------------------------------------

KATZMANN, WOLFE = ("ROBERT A. KATZMANN", "judge"), ("CATHERINE O'HAGAN WOLFE", "clerk")
OFFICERS = [
    # parse_file's reading of the Second Circuit letterhead: each name stacked on its title
    ("New York, NY 10007\n\nROBERT A. KATZMANN\nCHIEF JUDGE\n\nCATHERINE O'HAGAN WOLFE\nCLERK OF COURT\n"
        "Date: October 31, 2017", {KATZMANN, WOLFE}),
    ("CATHERINE O'HAGAN WOLFE\nCLERK OF COURT\n\nROBERT A. KATZMANN\nCHIEF JUDGE\n", {KATZMANN, WOLFE}),
    # two columns flattened: names, then titles in the same order
    ("ROBERT A. KATZMANN\n\nCATHERINE O'HAGAN WOLFE\n\nCHIEF JUDGE\n\nCLERK OF COURT", {KATZMANN, WOLFE}),
    ("ROBERT A. KATZMANN\nCATHERINE O'HAGAN WOLFE\nCHIEF JUDGE\nCLERK OF COURT", {KATZMANN, WOLFE}),
    # a signature block in capitals
    ("FOR THE COURT:\nCATHERINE O'HAGAN WOLFE\nCLERK OF COURT\n", {WOLFE}),
    # OCR of the Tenth Circuit's order: a stray period after the name, a table rule before the title
    ("FOR THE TENTH CIRCUIT January 11, 2021\n\nChristopher M. Wolpert.\n| Clerk of Court\n\n"
        "Inre: RICHARD P. LIEBOWITZ No. 21-800",
        {("Christopher M. Wolpert", "clerk"), ("RICHARD P. LIEBOWITZ", "respondent")}),
    # ... and a doubled period after an initial
    ("Entered for the Court\n\naa\n\nCHRISTOPHER M.. WOLPERT, Clerk", {("CHRISTOPHER M. WOLPERT", "clerk")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), OFFICERS, ids=[t[:40] for t, _ in OFFICERS])
def test_clerks_and_judges_in_letterheads_and_ocr_signature_lines(text: str, expected: set) -> None:
    found = {(e.name, e.role) for e in find_entities(page(text)) if e.kind is EntityKind.PERSON}
    assert found == expected


def test_ocr_variants_of_one_clerk_are_one_person() -> None:
    text = (
        "Christopher M. Wolpert.\n| Clerk of Court\n\nORDER\n\nThis court has been advised.\n\n"
        "Entered for the Court\n\naa\n\nCHRISTOPHER M.. WOLPERT, Clerk"
    )
    people = [e for e in find_entities(page(text)) if e.kind is EntityKind.PERSON]
    assert {(e.key, e.name, e.role) for e in people} == {
        ("person:christopher m wolpert", "Christopher M. Wolpert", "clerk")
    }
    assert [e.text for e in people] == ["Christopher M. Wolpert", "CHRISTOPHER M.. WOLPERT"]


@pytest.mark.parametrize(("text", "expected"), [
    ("FOR THE TENTH CIRCUIT\n\nInre: RICHARD P. LIEBOWITZ,\n\nRespondent.\n", {"RICHARD P. LIEBOWITZ"}),  # OCR
    ("In re: Richard P. Liebowitz,\n\nRespondent.\n", {"Richard P. Liebowitz"}),
    ("Inre: RICHARD P. LIEBOWITZ No. 21-800\n\nORDER\n", {"RICHARD P. LIEBOWITZ"}),  # as the scan is OCR'd
    ("The Inreach Corporation moves to dismiss.\n", set()),  # a word that merely begins with "Inre"
])
def test_in_re_captions_survive_a_dropped_space(text: str, expected: set[str]) -> None:
    assert {p.name for p in find_parties(page(text))} == expected
