"""A clause library an attorney can ask for, through a real `casetrack serve` over stdio (issue 21): a contract's
passages grouped by clause type and an opinion's by part, each with its citation; search restricted to one clause
type; a clause type that does not exist named with the ones that do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.mcp_helpers import call_error, call_ok, mcp_session, text_of

CONTRACT = """DISTRIBUTION AGREEMENT

This Distribution Agreement is entered into as of March 1, 2021 by and between Acme Widgets, Inc. ("Acme") and
Beta Retail LLC ("Beta").

1. Appointment. Acme appoints Beta as its exclusive distributor of the Products in the Territory.

2. Term. The initial term of this Agreement is three years from the Effective Date.

3. Assignment. Neither party may assign this Agreement without the prior written consent of the other party.

4. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of
Delaware, without regard to its conflict of laws principles.

5. Limitation of Liability. In no event shall either party's aggregate liability under this Agreement exceed the
fees paid in the twelve months before the claim.
"""
OPINION = """SUPREME COURT OF THE STATE

Smith v. Jones

JUSTICE BROWN delivered the opinion of the Court.

We review the grant of summary judgment de novo. The contract was unambiguous, and we hold that the lessee waived
its claim by paying rent for six months after learning of the defect. The judgment is affirmed.

It is so ordered.

JUSTICE GRAY, dissenting. I respectfully dissent. The waiver doctrine should not apply to a tenant who protested
each payment in writing.
"""


@pytest.fixture(scope="module")
def clause_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import IngestRequest

    folder = tmp_path_factory.mktemp("clauses")
    root = folder / "CaseTrack"
    app = CaseTrack.open(load_settings(root, environ={}))
    case = app.create_case("Acme v. Beta")
    for name, text in (("Acme Beta distribution agreement.txt", CONTRACT), ("Smith v Jones opinion.txt", OPINION)):
        (folder / name).write_text(text, encoding="utf-8")
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(folder / name)))
    app.jobs.shutdown()
    return root


@pytest.mark.anyio
async def test_a_contract_and_an_opinion_list_their_clauses_with_citations(clause_data_dir: Path) -> None:
    async with mcp_session(clause_data_dir) as client:
        await call_ok(client, "switch_case", case_name="Acme v. Beta")
        contract = (await call_ok(client, "list_clauses", document_name="Acme Beta")).structured_content
        opinion = await call_ok(client, "list_clauses", document_name="Smith v Jones")
    assert contract is not None
    groups = {g["clause_type"]: g["passages"] for g in contract["clause_types"]}
    assert {"parties", "governing_law", "anti_assignment", "cap_on_liability", "expiration_date"} <= set(groups)
    assert any("governed by" in p["text"] for p in groups["governing_law"])
    assert all(p["citation"].startswith("Acme Beta distribution agreement.txt") for p in groups["governing_law"])
    opinion_types = {g["clause_type"] for g in opinion.structured_content["clause_types"]}  # type: ignore[index]
    assert {"author", "holding", "standard_of_review", "disposition", "dissent"} <= opinion_types
    assert "Dissent [dissent]" in text_of(opinion)


@pytest.mark.anyio
async def test_a_clause_is_previewed_and_cited_at_its_own_lines_with_its_confidence(clause_data_dir: Path) -> None:
    async with mcp_session(clause_data_dir) as client:
        await call_ok(client, "switch_case", case_name="Acme v. Beta")
        contract = await call_ok(client, "list_clauses", document_name="Acme Beta")
    groups = {g["clause_type"]: g["passages"] for g in contract.structured_content["clause_types"]}  # type: ignore[index]
    law = groups["governing_law"][0]
    assert law["clause"]["text"].startswith("4. Governing Law") and "Limitation" not in law["clause"]["text"]
    assert law["clause"]["citation"].endswith("para. 6, ll. 12-13")  # its own lines, not the whole page's
    assert law["source"]["line_start"] < law["clause"]["line_start"]
    from casetrack.service.ingest.clauses import clause_model

    assert clause_model().threshold <= law["role_confidence"]["governing_law"] <= 1  # type: ignore[union-attr]
    shown = text_of(contract)
    assert "ll. 12-13" in shown and '"4. Governing Law. This Agreement shall be governed' in shown


@pytest.mark.anyio
async def test_an_opinion_takes_no_contract_clause_type_and_a_contract_no_part_of_a_decision(
        clause_data_dir: Path) -> None:
    from casetrack.chunk.roles.taxonomy import BY_ID, CONTRACT, DECISION

    async with mcp_session(clause_data_dir) as client:
        await call_ok(client, "switch_case", case_name="Acme v. Beta")
        contract = (await call_ok(client, "list_clauses", document_name="Acme Beta")).structured_content
        opinion = (await call_ok(client, "list_clauses", document_name="Smith v Jones")).structured_content
    assert {BY_ID[g["clause_type"]].family for g in opinion["clause_types"]} == {DECISION}  # type: ignore[index]
    assert {BY_ID[g["clause_type"]].family for g in contract["clause_types"]} == {CONTRACT}  # type: ignore[index]


async def _search_kept_to(data_dir: Path, accepted: tuple[str, str],
                          refused: tuple[str, str]) -> tuple[dict[str, Any] | None, str]:
    """search_case in the contract's case with a clause type it accepts, and the error of one it refuses, each
    given as (query, clause_type)."""
    async with mcp_session(data_dir) as client:
        await call_ok(client, "switch_case", case_name="Acme v. Beta")
        found = (await call_ok(client, "search_case", query=accepted[0], clause_type=accepted[1])).structured_content
        return found, await call_error(client, "search_case", query=refused[0], clause_type=refused[1])


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
async def test_search_can_be_kept_to_one_clause_type_and_an_unknown_one_lists_the_known(clause_data_dir: Path) -> None:
    found, error = await _search_kept_to(clause_data_dir, ("which state's law applies", "Governing law"),
                                         ("law", "choice of venue"))
    assert found is not None and found["results"] and found["clause_type"] == "governing_law"
    assert all("governing_law" in r["roles"] for r in found["results"])
    assert "governing_law" in error and "dissent" in error


@pytest.mark.anyio
async def test_search_accepts_an_old_clause_type_name_that_maps_to_one_new_type(clause_data_dir: Path) -> None:
    found, old = await _search_kept_to(clause_data_dir, ("maximum liability", "cap on liability"),
                                       ("liability", "limitation_of_liability"))
    assert found is not None and found["clause_type"] == "cap_on_liability"
    assert found["results"] and all("cap_on_liability" in r["roles"] for r in found["results"])
    assert "cap_on_liability, uncapped_liability" in old
