"""Courts, judges and name variants as court documents write them: headers over two lines, words hyphenated
across a line break, specialised federal courts, signatures, panels and joining justices."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EntityKind, find_entities, find_parties
from casetrack.graph.courts import find_courts
from casetrack.graph.names import fuller_names


def page(text: str) -> list[ParsedPage]:
    return [ParsedPage(1, text, ExtractionMethod.NATIVE)]


def courts(text: str) -> list[str]:
    return [c.key for c in find_courts(text)]


def judges(text: str) -> set[str]:
    return {m.name for m in find_entities(page(text)) if m.kind == EntityKind.PERSON and m.role == "judge"}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("She sued the University and various University officials in the United States Dis-\ntrict Court for the "
         "Western District of Texas.", "txwd"),
        ("IN THE SUPREME COURT\n                  STATE OF NORTH DAKOTA\n\n        2024 ND 143\n", "state:nd:supreme"),
        ("           UNITED STATES COURT OF APPEALS FOR VETERANS CLAIMS\n\n          NO. 22-3306\n", "cavc"),
        ("UNITED STATES BANKRUPTCY APPELLATE PANEL\n      FOR THE FIRST CIRCUIT\n   BAP No. MW 00-005\n", "bap1"),
        ("See In re Jones, 300 B.R. 12, 15 (B.A.P. 9th Cir. 2004) (a trustee's standing).", "bap9"),
        ("Appeal from the United States Bankruptcy Court\n   for the District of Massachusetts (Worcester)\n", "mab"),
        ("See In re Lehman Bros., 422 B.R. 407, 415 (Bankr. S.D.N.Y. 2010).", "nysb"),
        ("Decided on December 12, 2023\n\nSupreme Court, Bronx County\n\nGomez, J.\n", "state:ny:supreme"),
        ("are governed by state, not federal, law.  See, e.g., United States ex rel. J.W. Briggs v. Grubb, 358 F.2d "
         "508, 515 (9th \n\n\n\fCir. 1966) (local law rather than federal law is applicable)", "ca9"),
        ("Court: U.S. District Court — Eastern District of North Carolina\nDocket Number(s): 5:24-CV-481-FL\n", "nced"),
    ],
)  # fmt: skip
def test_court_is_found_as_court_documents_write_it(text: str, key: str) -> None:
    assert key in courts(text)


def test_the_bankruptcy_panel_is_not_its_circuits_court_of_appeals() -> None:
    assert courts("UNITED STATES BANKRUPTCY APPELLATE PANEL\n           FOR THE FIRST CIRCUIT\n") == ["bap1"]
    assert "ca9" not in courts("(B.A.P. 9th Cir. 2004)")


FEDERAL_HEAD = "UNITED STATES DISTRICT COURT\nFOR THE DISTRICT OF COLUMBIA\n\nHAMPTON DELLINGER,\n  Plaintiff,\n\n"


def test_a_bare_supreme_court_is_the_us_supreme_court_in_a_federal_courts_document() -> None:
    text = FEDERAL_HEAD + "This includes the period after the defendants asked the Supreme Court to take the case."
    assert courts(text) == ["dcd", "scotus"]


def test_a_bare_supreme_court_stays_unresolved_where_the_document_does_not_say_which() -> None:
    letter = "Dear Secretary Grimes:\n\nIn Ellis v. Meeks, the Supreme Court held that the statute applied."
    assert courts(letter) == []
    state = ("IN THE SUPREME COURT\n   STATE OF NORTH DAKOTA\n\nAs the Supreme Court of the United States said, and "
             "the Supreme Court held")
    assert "scotus" in courts(state)  # named in full; the bare one is not guessed
    assert len([k for k in courts(state) if k == "scotus"]) == 1
    assert "scotus" not in courts(FEDERAL_HEAD + "Appeal to the Supreme Court of Iowa.")


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("for summary judgment.\nSO ORDERED.\n\nAMY BERMAN JACKSON\nUnited States District Judge\n\nDATE:  February "
         "26, 2025\n", {"AMY BERMAN JACKSON"}),
        ("                   Before\n     GOODMAN, DE JESÚS, VAUGHN, U.S. Bankruptcy Judges\n          ______\n",
         {"GOODMAN", "DE JESÚS", "VAUGHN"}),
        ("Decided on December 12, 2023\n\nSupreme Court, Bronx County\n\nGomez, J.\n\nPublished by New York State "
         "Law Reporting\n", {"Gomez"}),
        ("     Edwards, Chief Judge:  This case involves a claim under an insurance contract.\n", {"Edwards"}),
    ],
)  # fmt: skip
def test_judges_are_found_as_court_documents_sign_and_list_them(text: str, wanted: set[str]) -> None:
    assert judges(text) == wanted


def test_justices_joining_an_opinion_are_judges() -> None:
    text = ("   KENNEDY, J., delivered the opinion of the Court, in which ROBERTS,\nC. J., and SCALIA, THOMAS, BREYER, "
            "ALITO, and SOTOMAYOR, JJ., joined. SCALIA, J., and THOMAS, J., filed concurring opinions.\n")
    found = judges(text)
    assert {"ROBERTS", "BREYER", "ALITO", "SOTOMAYOR", "KENNEDY", "SCALIA", "THOMAS"} <= found
    assert not any(len(n.strip(".")) <= 2 for n in found)  # no "C. J." or "JJ."


CAPTION = """IN THE SUPREME COURT
                        STATE OF NORTH DAKOTA

Renae Irene Gerszewski,                                           Petitioner and Appellee
      v.
Conrad Keith Rostvet,                                          Respondent and Appellant

                                     No. 20230361

Conrad Rostvet,                                                  Petitioner and Appellant
      v.
Wayne Gerszewski,                                               Respondent and Appellee

                                     No. 20230363
"""


def test_a_name_with_and_without_its_middle_name_is_one_party() -> None:
    parties = {p.name: p.role for p in find_parties(page(CAPTION))}
    assert "Conrad Rostvet" not in parties
    assert "appellant" in parties["Conrad Keith Rostvet"] and "Wayne Gerszewski" in parties
    assert "Renae Irene Gerszewski" in parties  # same surname, another person


def test_different_people_are_not_merged_as_name_variants() -> None:
    keys = ["person:john smith", "person:jane smith", "person:jane a smith"]
    assert fuller_names(keys) == {"person:jane smith": "person:jane a smith"}
    assert fuller_names(["person:john smith", "person:john a smith", "person:john b smith"]) == {}
    assert fuller_names(["person:conrad rostvet", "person:conrad keith rostvet"]) == {
        "person:conrad rostvet": "person:conrad keith rostvet"
    }


def test_an_official_addressed_as_honorable_is_no_judge_when_the_letter_names_her_office() -> None:
    from casetrack.graph.people import people

    letter = ("Hon. Alison Lundergan Grimes\n\nOAG 18-011\n\nRequested by: Hon. Alison Lundergan Grimes "
              "Secretary of State and Chief Election Official\n\nDear Secretary Grimes:")
    probate = "Honorable Michael Armstead\nChoctaw County Probate Judge\n\nDear Judge Armstead:"
    assert [(name, role) for _, _, name, role in people(letter, letter.lower()) if role == "judge"] == []
    assert ("Michael Armstead", "judge") in [(name, role) for _, _, name, role in people(probate, probate.lower())]


def test_a_body_addressed_as_honorable_is_no_judge() -> None:
    from casetrack.graph.people import people

    for text in ("To: Honorable Members Of The Board\n", "Dear Hon. Members of the Commission:\n",
                 "Notice was given to the Honorable Board Of Supervisors on May 1."):
        assert list(people(text, text.lower())) == [], text
    judge = "Hon. Richard Roe\nUnited States District Judge\n"
    assert ("Richard Roe", "judge") in [(name, role) for _, _, name, role in people(judge, judge.lower())]
