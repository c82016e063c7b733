"""Legal roles of passages, tagged at ingest: real drafting and opinion language in, roles out."""

from __future__ import annotations

import re

import pytest

from casetrack.chunk.roles.tagging import by_role, resolve_role, role_hits, tag_passage
from casetrack.chunk.roles.taxonomy import ASKS, BY_ID, KEYWORD_ROLES, LEARNED, ROLES
from casetrack.domain import Chunk, ChunkSpan, ExtractionMethod, Provenance
from casetrack.errors import InvalidInput

TAGGED = [
    ("This Agreement shall be governed by and construed in accordance with the laws of the State of Delaware.", "",
     "governing_law"),
    ("Either party may terminate this Agreement at any time, for any reason or no reason, upon sixty (60) days' "
     "prior written notice to the other party.", "", "termination_for_convenience"),
    ("Neither party may assign this Agreement without the prior written consent of the other party.", "",
     "anti_assignment"),
    ("In no event shall either party's aggregate liability under this Agreement exceed the fees paid in the twelve "
     "months preceding the claim.", "", "limitation_of_liability"),
    ("During the Term and for two (2) years thereafter, Consultant shall not, directly or indirectly, compete with "
     "the Company in the Territory.", "", "non_compete"),
    ("Licensee shall have the right, upon thirty days' notice, to audit the books and records of Licensor.", "",
     "audit_rights"),
    ("Distributor shall maintain commercial general liability insurance with limits of not less than $1,000,000.", "",
     "insurance"),
    ("Upon termination, Recipient shall return or destroy all Confidential Information.", "", "return_of_information"),
    ("The parties agree as follows.", "12 GOVERNING LAW", "governing_law"),  # the clause title decides
    ("Held: Because the court of appeals applied the wrong standard, its judgment is vacated.", "", "holding"),
    ("JUSTICE KENNEDY delivered the opinion of the Court.", "", "author"),
    ("JUSTICE GINSBURG, dissenting. I respectfully dissent.", "", "dissent"),
    ("JUSTICE SCALIA, concurring. I join the Court's opinion but write separately.", "", "concurrence"),
    ("JUSTICE KAGAN took no part in the consideration or decision of this case.", "", "recusal"),
    ("Whether the conviction is an aggravated felony is a question of law that we review de novo.", "",
     "standard_of_review"),
    ("The judgment of the Court of Appeals is vacated, and the case is remanded. It is so ordered.", "",
     "disposition"),
    ("ORDER: The appeal of the Department of Homeland Security is sustained.", "", "disposition"),
]


@pytest.mark.parametrize(("text", "heading", "role"), TAGGED)
def test_a_passage_is_tagged_with_the_role_its_language_plays(text: str, heading: str, role: str) -> None:
    assert role in tag_passage(text, heading)


@pytest.mark.parametrize("text", [
    "The Company sells insurance products through its website.",  # names insurance, requires none
    "The statements on consolidation are due within 14 days.",  # not a merger
    "Both motions were heard concurrently.",  # not a concurrence
    "The agent delivered the goods to the warehouse on Monday.",
])
def test_a_passage_that_only_mentions_a_word_of_a_role_is_not_tagged(text: str) -> None:
    assert tag_passage(text) == ()


def test_the_taxonomy_is_complete_data() -> None:
    assert len({r.id for r in ROLES}) == len(ROLES)
    for role in ROLES:
        assert role.description and ASKS[role.id], role.id
        assert role.id in LEARNED or role.anchors, role.id  # each role is found by the classifier or keywords
    for role in KEYWORD_ROLES:
        re.compile(role.pattern)
        assert role.anchors and all(k == k.lower() for k in role.anchors), role.id
    assert set(ASKS) == set(BY_ID)
    assert len(LEARNED) == 41 and {"cap_on_liability", "uncapped_liability", "rofr_rofo_rofn"} <= LEARNED


def test_a_clause_type_is_named_by_its_id_or_label_and_an_unknown_one_says_what_exists() -> None:
    assert resolve_role("Governing Law").id == resolve_role("governing_law").id == "governing_law"
    assert resolve_role("non-compete").id == "non_compete"
    with pytest.raises(InvalidInput, match="governing_law"):
        resolve_role("choice of venue")


def test_an_old_clause_type_name_is_accepted_where_it_names_one_new_type_and_explained_where_it_split() -> None:
    assert resolve_role("first_refusal").id == "rofr_rofo_rofn"
    assert resolve_role("revenue_sharing").id == "revenue_profit_sharing"
    assert resolve_role("Cap on liability").id == "cap_on_liability"
    with pytest.raises(InvalidInput, match="cap_on_liability, uncapped_liability"):
        resolve_role("limitation_of_liability")


def test_a_documents_passages_group_by_role_in_reading_order() -> None:
    def chunk(seq: int, roles: tuple[str, ...]) -> Chunk:
        span = ChunkSpan(seq, 1, seq * 10, seq * 10 + 5, "x" * 5, 1, 1, 1, 1, 1)
        prov = Provenance("d", "d.pdf", None, 1, 1, 1, 1, 1, seq * 10, seq * 10 + 5, ExtractionMethod.NATIVE)
        return Chunk(f"c{seq}", "d", span, prov, roles)

    groups = by_role([chunk(2, ("governing_law",)), chunk(1, ("parties", "governing_law")), chunk(3, ())])
    assert [(role.id, [c.id for c in chunks]) for role, chunks in groups] == [
        ("parties", ["c1"]), ("governing_law", ["c1", "c2"])]


def test_hits_asked_for_some_roles_are_those_roles_hits_in_the_same_order() -> None:
    """A passage's clause places ask only for its own roles (chunk.roles.clause_spans): they get the same hits, in
    the same order, as the whole reading gives those roles; the order of the roles is their first anchors'."""
    filler = " The parties met on Monday and discussed the weather at length." * 12  # > WINDOW apart
    text = ("The Company sells insurance products." + filler + " This Agreement shall be governed by the laws of "
            "Delaware." + filler + " Distributor shall maintain general liability insurance with limits of not less "
            "than $1,000,000. Upon termination, Recipient shall return or destroy all Confidential Information.")
    everything = role_hits(text)
    assert [r for r, _ in everything][:2] == ["insurance", "governing_law"]  # insurance's first anchor opens none
    assert len([r for r, _ in everything if r == "insurance"]) == 1  # only the second "insurance" is the clause
    for asked in ({"insurance"}, {"governing_law", "return_of_information"}, set()):
        assert role_hits(text, asked) == [hit for hit in everything if hit[0] in asked]
