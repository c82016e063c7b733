"""Name merging and court normalisation, table-driven."""

from __future__ import annotations

import pytest

from casetrack.graph.courts import find_courts
from casetrack.graph.names import display_name, entity_key, looks_like_person, same_entity

MERGE = [
    ("SMITH CORP.", "Smith Corp", "organization"),
    ("Smith Corp", "Smith Corporation", "organization"),
    ("Acme, Inc.", "ACME INCORPORATED", "organization"),
    ("Acme Co.", "Acme Company", "organization"),
    ("TruckThat L.L.C.", "TruckThat LLC", "organization"),
    ("Widget Ltd", "Widget Limited", "organization"),
    ("The Biopure Corporation", "Biopure Corp.", "organization"),
    ("Smith & Sons, Inc.", "Smith and Sons Inc", "organization"),
    ("FEDEX GROUND PACKAGE SYSTEM, INC", "FedEx Ground Package System, Inc.", "organization"),
    ("Michael Tofaute, et al.", "MICHAEL TOFAUTE", "organization"),
    ("RICHARD P. LIEBOWITZ", "Richard P. Liebowitz", "person"),
    ("Hon. Robert L. Miller, Jr.", "Robert L. Miller Jr.", "person"),
    ("Mr. Michael E. Gans", "Michael E. Gans", "person"),
    ("Catherine O'Hagan Wolfe", "CATHERINE O’HAGAN WOLFE", "person"),
]

DO_NOT_MERGE = [
    ("John Smith", "Jane Smith", "person"),
    ("John A. Smith", "John B. Smith", "person"),
    ("Robert Miller", "Robert Miller Jr.", "person"),
    ("Smith Corp.", "Smith Inc.", "organization"),
    ("Smith Corp.", "Smyth Corp.", "organization"),
    ("About.com, Inc.", "ebix.com, Inc.", "organization"),
    ("National Football League Players Association", "National Football League Management Council", "organization"),
]


@pytest.mark.parametrize(("a", "b", "kind"), MERGE, ids=[f"{a} = {b}" for a, b, _ in MERGE])
def test_variants_of_one_name_merge(a: str, b: str, kind: str) -> None:
    assert same_entity(a, b, kind)


@pytest.mark.parametrize(("a", "b", "kind"), DO_NOT_MERGE, ids=[f"{a} != {b}" for a, b, _ in DO_NOT_MERGE])
def test_different_names_do_not_merge(a: str, b: str, kind: str) -> None:
    assert not same_entity(a, b, kind)


def test_keys_carry_the_kind_so_a_person_never_merges_with_an_organisation() -> None:
    assert entity_key("Jordan Smith", "person") != entity_key("Jordan Smith", "organization")


def test_display_prefers_mixed_case_and_the_fullest_form() -> None:
    assert display_name(["SMITH CORP.", "Smith Corporation", "Smith Corp"]) == "Smith Corporation"
    assert display_name(["Xiang", "Xiang", "Haitao Xiang"]) == "Haitao Xiang"


PERSON_SHAPE = [
    ("Richard P. Liebowitz", True),
    ("Haitao Xiang", True),
    ("Robert L. Miller, Jr.", True),
    ("National Football League Players Association", False),
    ("Ingram Micro", False),
    ("Driven Deliveries, Inc.", False),
    ("United States", False),
    ("Xiang", False),
]


@pytest.mark.parametrize(("name", "person"), PERSON_SHAPE)
def test_person_shaped_names(name: str, person: bool) -> None:
    assert looks_like_person(name) is person


COURTS = [
    ("United States Court of Appeals for the Eighth Circuit", "ca8"),
    ("United States Court of Appeals\nFor the Eighth Circuit", "ca8"),
    ("UNITED STATES COURT OF APPEALS FOR THE TENTH CIRCUIT", "ca10"),
    ("the Eighth Circuit", "ca8"),
    ("(8th Cir. 2020)", "ca8"),
    ("(2d Cir. 2019)", "ca2"),
    ("(D.C. Cir. 2019)", "cadc"),
    ("(Fed. Cir. 2018)", "cafc"),
    ("the First Circuit’s decision", "ca1"),
    ("U.S. District Court for the Southern District of New York", "nysd"),
    ("United States District Court for the\nSouthern District of New York", "nysd"),
    ("] States District Court for\n] the Northern District\n] of Indiana", None),  # no "United": not a court name
    ("United\n] States District Court for\n] the Northern District\n] of Indiana", "innd"),
    ("U.S. District Court for the District of Columbia", "dcd"),
    ("United States District Court for the District of Massachusetts", "mad"),
    ("(S.D.N.Y. 2017)", "nysd"),
    ("(N.D. Cal. 2015)", "cand"),
    ("(E.D. Pa. 2012)", "paed"),
    ("(D. Mass. 2010)", "mad"),
    ("DC Court: SDNY (NEW YORK CITY)", "nysd"),
    ("Supreme Court of the United States", "scotus"),
    ("the United States Supreme Court", "scotus"),
    ("Supreme Court of Missouri", "state:mo:supreme"),
    ("Missouri Supreme Court", "state:mo:supreme"),
    ("Texas Court of Appeals", "state:tx:court_of_appeals"),
    ("Superior Court of California", "state:ca:superior"),
    ("Circuit Court of Cook County", "county:cook:circuit"),
]


@pytest.mark.parametrize(("text", "key"), COURTS, ids=[t.replace("\n", " ")[:50] for t, _ in COURTS])
def test_courts_are_found_and_normalised(text: str, key: str | None) -> None:
    found = find_courts(f"Decided by the {text}, and so on.")
    if key is None:
        assert [c.key for c in found if c.key != "ca"] == []
    else:
        assert [c.key for c in found][:1] == [key]
