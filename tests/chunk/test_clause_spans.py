"""Where inside a passage its clause is, and which roles a passage may take by the kind of document it is in."""

from __future__ import annotations

from casetrack.chunk.roles.clause_spans import clause_spans, pieces
from casetrack.chunk.roles.tagging import chunk_roles
from casetrack.chunk.roles.taxonomy import CONTRACT, DECISION

PASSAGE = """3. Assignment. Neither party may assign this Agreement without the prior written consent of the other
party.

4. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of
Delaware, without regard to its conflict of laws principles.

5. Notices. All notices hereunder shall be in writing and shall be deemed given when delivered by hand."""


def test_a_passage_is_read_as_its_paragraphs_or_else_its_sentences() -> None:
    assert [PASSAGE[s:e][:2] for s, e in pieces(PASSAGE)] == ["3.", "4.", "5."]
    one = "The term is two years. It renews unless either party objects; Notice must be written."
    assert [one[s:e] for s, e in pieces(one)] == ["The term is two years.", "It renews unless either party objects;",
                                                  "Notice must be written."]


def test_a_keyword_found_clause_is_placed_at_the_paragraph_that_words_it() -> None:
    places = clause_spans(PASSAGE, {"notices": None}, None)
    start, end = places["notices"]
    assert PASSAGE[start:end].startswith("5. Notices.") and PASSAGE[start:end].endswith("by hand.")


def test_contract_types_only_on_agreements_and_decision_parts_only_on_decisions() -> None:
    located: list[tuple[str, str | None]] = [("dissent", "a"), ("confidentiality", "a")]
    learned = [{"governing_law": 0.93}]
    assert chunk_roles(["a"], [""], located, CONTRACT, learned) == [{"governing_law": 0.93, "confidentiality": None}]
    assert chunk_roles(["a"], [""], located, DECISION, learned) == [{"dissent": None}]
    assert chunk_roles(["a"], [""], located, None, learned) == [{"governing_law": 0.93}]
