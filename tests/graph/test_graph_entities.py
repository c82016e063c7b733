"""Entities: CUAD party labels, judges/courts/clerks/attorneys of the court documents, defined terms, money."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EntityKind, find_entities, find_parties
from casetrack.graph.names import organization_key
from tests.graph.graph_evaldev import all_docs, jsonl, pages_of


def page(text: str) -> list[ParsedPage]:
    return [ParsedPage(1, text, ExtractionMethod.NATIVE)]


def _matches_party(label: str, parties: list) -> bool:
    for p in parties:
        names = [p.name, *p.aliases]
        if any(organization_key(label) == organization_key(n) for n in names):
            return True
    return False


ENTITY_QUERIES = [q for q in jsonl("queries.jsonl") if q["kind"] == "entity" and q.get("cuad_category") == "Parties"]


@pytest.mark.parametrize("query", ENTITY_QUERIES, ids=[str(q["id"]) for q in ENTITY_QUERIES])
def test_cuad_party_labels_are_found_as_parties_or_their_defined_terms(query: dict) -> None:
    parties = find_parties(pages_of(str(query["doc"])))
    labels = [str(t) for t in query["all_answer_texts"] if len(str(t).split()) <= 6]  # not the "Parties" sentence
    assert labels
    for label in labels:
        assert _matches_party(label, parties), (label, [(p.name, p.aliases) for p in parties])


# The other eval-dev contracts, read by hand: name -> (role, aliases). Exactly these parties.
CONTRACT_PARTIES = {
    "cuad_biopure_agency_agreement.txt": {"Biopure Corporation": ("company", ("Company",))},
    "cuad_driven_deliveries_consulting_agreement.docx": {
        "Driven Deliveries, Inc.": ("company", ("Company",)),
        "TruckThat LLC": ("consultant", ("Consultant",)),
    },
    "cuad_ebix_cobranding_agreement.pdf": {
        "About.com, Inc.": ("party", ("About",)),
        "ebix.com, Inc.": ("party", ("ebix",)),
    },
    "cuad_lucid_distributor_agreement.pdf": {"Lucid Inc.": ("party", ())},
    "cuad_netgear_distributor_agreement.pdf": {
        "Ingram Micro": ("distributor", ("Distributor",)),
        "NETGEAR, Inc.": ("party", ("NETGEAR",)),
    },
    "scan_cuad_ominto_reseller_agreement_p1.png": {
        "MediaNet Group Technologies, Inc.": ("party", ("MEDIANET GROUP TECHNOLOGIES",)),
        "International Direct Response, Inc.": ("reseller", ("RESELLER",)),
    },
    "common_paper_mutual_nda_v1.docx": {},  # a template: its parties are blanks
}


@pytest.mark.parametrize("doc", sorted(CONTRACT_PARTIES))
def test_contract_parties_roles_and_defined_terms(doc: str) -> None:
    parties = find_parties(pages_of(doc))
    assert {p.name: (p.role, p.aliases) for p in parties} == CONTRACT_PARTIES[doc]
    assert all(p.kind is EntityKind.ORGANIZATION for p in parties)


# Court documents, read by hand: (name, kind, role) that must be among the entities, and the courts.
COURT_ENTITIES = {
    "ca8_rule_28j_letter_us_v_xiang_2023.pdf": (
        {("Haitao Xiang", "person", "defendant"), ("United States", "organization", "plaintiff"),
         ("Matthew P. Kralovec", "person", "attorney"), ("Michael E. Gans", "person", "clerk")},
        {"ca8", "ca1"},
    ),
    "ca2_docketing_notice_nfl_2017.pdf": (
        {("ROBERT A. KATZMANN", "person", "judge"), ("CATHERINE O'HAGAN WOLFE", "person", "clerk"),
         ("Failla", "person", "judge"),
         ("National Football League Players Association", "organization", "appellant")},
        {"ca2", "nysd"},
    ),
    "scan_ca10_order_in_re_liebowitz_2021.pdf": (
        {("RICHARD P. LIEBOWITZ", "person", "respondent"), ("Christopher M. Wolpert", "person", "clerk")},
        {"ca10", "nysd"},
    ),
    "scan_ca7_order_fedex_ground_2017.tiff": (
        {("Robert L. Miller, Jr.", "person", "judge"), ("MICHAEL TOFAUTE", "person", "plaintiff-appellant"),
         ("FEDEX GROUND PACKAGE SYSTEM, INC.", "organization", "defendant-appellant")},
        {"ca7", "innd"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("doc", sorted(COURT_ENTITIES))
def test_court_documents_judges_clerks_attorneys_parties_and_courts(doc: str) -> None:
    entities = find_entities(pages_of(doc))
    people, courts = COURT_ENTITIES[doc]
    found = {(e.name, e.kind.value, e.role) for e in entities}
    assert people <= found
    assert {e.key.removeprefix("court:") for e in entities if e.kind is EntityKind.COURT} == courts


def test_a_surname_and_later_uses_of_a_full_name_count_as_mentions_of_that_person() -> None:
    xiang = [
        e for e in find_entities(pages_of("ca8_rule_28j_letter_us_v_xiang_2023.pdf")) if e.key == "person:haitao xiang"
    ]
    assert {e.text for e in xiang} >= {"Haitao Xiang", "Xiang"}  # "Dr. Xiang" joins the caption's full name
    liebowitz = [e for e in find_entities(pages_of("scan_ca10_order_in_re_liebowitz_2021.pdf"))
                 if e.key == "person:richard p liebowitz"]  # fmt: skip
    assert len(liebowitz) == 3  # caption, "attorney Richard P. Liebowitz", "Richard P.\nLiebowitz may show cause"


@pytest.mark.parametrize("doc", all_docs())
def test_every_entity_mention_is_an_exact_slice_of_its_page(doc: str) -> None:
    ps = pages_of(doc)
    for e in find_entities(ps):
        assert ps[e.page - 1].text[e.char_start : e.char_end] == e.text


# --- synthetic, table-driven ------------------------------------------------------------------

RECITALS = [
    ('This License Agreement is entered into by and between Smith Corp., a Delaware corporation ("Licensor"), '
     'and Jones LLC ("Licensee").',
     {"Smith Corp.": ("licensor", ("Licensor",)), "Jones LLC": ("licensee", ("Licensee",))}),
    ('This Agreement is made between Acme Holdings, Inc. (the "Company") and John Q. Public, an individual '
     '(hereinafter "Executive").',
     {"Acme Holdings, Inc.": ("company", ("Company",)), "John Q. Public": ("party", ("Executive",))}),
    ("AGREEMENT between Widget Co. (“Supplier”) and Gadget Limited (“Buyer”). WHEREAS the parties wish to trade.",
     {"Widget Co.": ("supplier", ("Supplier",)), "Gadget Limited": ("buyer", ("Buyer",))}),
    ("This Distribution Agreement is made by and among Alpha Corporation and Beta Ltd. NOW, THEREFORE, the parties"
        " agree.",
     {"Alpha Corporation": ("party", ()), "Beta Ltd.": ("party", ())}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), RECITALS, ids=[t[:40] for t, _ in RECITALS])
def test_recital_parties_are_linked_to_their_defined_terms(text: str, expected: dict) -> None:
    assert {p.name: (p.role, p.aliases) for p in find_parties(page(text))} == expected


def test_a_defined_term_makes_later_uses_mentions_of_its_party() -> None:
    text = 'Agreement between Smith Corp. ("Licensor") and Jones LLC ("Licensee"). Licensor shall pay Licensee monthly.'
    mentions = [(e.name, e.text) for e in find_entities(page(text)) if e.kind is EntityKind.ORGANIZATION]
    assert mentions.count(("Smith Corp.", "Licensor")) == 2
    assert mentions.count(("Jones LLC", "Licensee")) == 2


def test_a_natural_persons_party_is_a_person() -> None:
    (_, john) = find_parties(page(RECITALS[1][0]))
    assert john.kind is EntityKind.PERSON


CAPTIONS = [
    ("JOHN DOE,\n    Plaintiff,\nv.\nACME CORP.,\n   "
        " Defendant.\n\nCOMPLAINT", {("JOHN DOE", "plaintiff"), ("ACME CORP", "defendant")}),
    ("SARAH LEE, et al.,\nPetitioners-Appellants,\nv.\nCITY OF SPRINGFIELD,\nRespondent-Appellee.",
     {("SARAH LEE", "petitioner-appellant"), ("CITY OF SPRINGFIELD", "respondent-appellee")}),
    ("Re:\n\nSmith v. Jones Corp, No. 23-1234\n\nDear Clerk,", {("Smith", "plaintiff"), ("Jones Corp", "defendant")}),
    ("In re: JANE R. ROE\nNo. 21-800\n\nORDER", {("JANE R. ROE", "respondent")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), CAPTIONS, ids=[t[:30] for t, _ in CAPTIONS])
def test_captions_give_parties_and_roles(text: str, expected: set) -> None:
    assert {(p.name, p.role) for p in find_parties(page(text))} == expected


def test_a_case_named_inside_a_sentence_is_not_a_party() -> None:
    text = "Dear Clerk,\nWe write about the decision in\nUnited States v. Qin, No. 21-1832, 2023 WL 128600 (1st Cir.)."
    assert find_parties(page(text)) == []


PEOPLE = [
    ("Before: SMITH, WOLLMAN, and LOKEN, Circuit"
        " Judges.", {("SMITH", "judge"), ("WOLLMAN", "judge"), ("LOKEN", "judge")}),
    ("The Honorable Jane M. Doe presiding.", {("Jane M. Doe", "judge")}),
    ("Hon. Katherine Polk Failla, United States District Judge", {("Katherine Polk Failla", "judge")}),
    ("JUSTICE Kagan delivered the opinion of the Court. Justice Elena Kagan delivered the"
        " opinion.", {("Elena Kagan", "judge")}),
    ("Chief Judge Robert A. Katzmann", {("Robert A. Katzmann", "judge")}),
    ("Robert L. Miller, Jr., Judge.", {("Robert L. Miller, Jr.", "judge")}),
    ("Respectfully submitted,\n/s/ Sarah Chen\nAttorney for Plaintiff", {("Sarah Chen", "attorney")}),
    ("s/ Matthew P. Kralovec\nCounsel for Haitao Xiang", {("Matthew P. Kralovec", "attorney")}),
    ("Michael Brown, Esq.\n100 Main Street", {("Michael Brown", "attorney")}),
    ("Christopher M. Wolpert\nClerk of Court", {("Christopher M. Wolpert", "clerk")}),
    ("By: /s/ Brian Hayek BRIAN HAYEK, President", {("Brian Hayek", "signatory")}),
    # two signature blocks side by side, as PDF text layers put them on one line
    ("By: /s/ Sanat K. Dutta By: /s/ Joe Booker\nName: Sanat K. Dutta Name: Joe Booker",
        {("Sanat K. Dutta", "signatory"), ("Joe Booker", "signatory")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), PEOPLE, ids=[t[:30] for t, _ in PEOPLE])
def test_judges_attorneys_clerks_and_signatories(text: str, expected: set) -> None:
    found = {(e.name, e.role) for e in find_entities(page(text)) if e.kind is EntityKind.PERSON}
    assert found == expected


MONEY = [
    ("a fee of $1,500.00 per month", "USD 1,500.00"),
    ("damages of $2.5 million", "USD 2,500,000.00"),
    ("USD 10,000 in advance", "USD 10,000.00"),
    ("five thousand (5,000) dollars", "USD 5,000.00"),
    ("a deposit of €250", "EUR 250.00"),
]


@pytest.mark.parametrize(("text", "name"), MONEY)
def test_monetary_amounts_are_normalised(text: str, name: str) -> None:
    found = [e.name for e in find_entities(page(text)) if e.kind is EntityKind.MONETARY_AMOUNT]
    assert found == [name]


COMPLAINT = """SMITH CORP.,
    Plaintiff,
v.
JONES LLC,
    Defendant.

COMPLAINT

1. On January 15, 2022, Smith Corporation and Acme Holdings, Inc. executed the Agreement.

/s/ Sarah Chen
Attorney for Plaintiff Smith Corp
"""


def test_a_complaints_parties_come_from_its_caption_not_from_its_narrative() -> None:
    assert {(p.name, p.role) for p in find_parties(page(COMPLAINT))} == {
        ("SMITH CORP", "plaintiff"),
        ("JONES LLC", "defendant"),
    }


def test_a_role_word_before_a_name_is_not_part_of_it() -> None:
    orgs = {e.text for e in find_entities(page(COMPLAINT)) if e.kind is EntityKind.ORGANIZATION}
    assert "Smith Corp" in orgs and not any(o.startswith("Plaintiff") for o in orgs)
    smith = {
        e.key for e in find_entities(page(COMPLAINT)) if e.text in ("SMITH CORP", "Smith Corporation", "Smith Corp")
    }
    assert smith == {"organization:smith corp"}  # caption, narrative and signature block: one entity
