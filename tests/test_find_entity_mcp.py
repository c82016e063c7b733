"""find_entity through a real MCP client on the eval-dev case: the context graph's mentions come
first, whatever form the document wrote them in, and unrelated passages do not pad the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import EVAL_CASE_NAME
from tests.mcp_helpers import call_ok, mcp_session, pro_env, text_of

pytestmark = pytest.mark.anyio
LETTER = "ca8_rule_28j_letter_us_v_xiang_2023.pdf"


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_find_entity_reads_citations_and_defined_terms_through_the_graph(eval_dev_data_dir: Path) -> None:
    async with mcp_session(eval_dev_data_dir, **pro_env()) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        # The letter writes "Federal Rule of Appellate Procedure 28(j)"; the words asked for are not in it.
        rule = (await call_ok(client, "find_entity", entity="Fed. R. App. P. 28(j)")).structured_content
        qin = (await call_ok(client, "find_entity", entity="2023 WL 128600", entity_type="case_citation"))
        distributor = await call_ok(client, "find_entity", entity="the Distributor", entity_type="organization",
                                    top_k=5)

    assert [m["name"] for m in rule["matched"]] == ["Fed. R. App. P. 28(j)"]
    first = rule["results"][0]
    assert first["match"] == "mention" and first["source"]["document"] == LETTER and first["source"]["page"] == 1
    best = max(r["score"] or 0 for r in rule["results"])
    assert all(r["score"] is not None and r["score"] >= 0.5 * best for r in rule["results"] if r["match"] == "related")

    # "Id. at *7" on page 2 is Qin too: both pages of the letter cite it.
    data = qin.structured_content
    assert data["matched"][0]["name"] == "United States v. Qin, 2023 WL 128600"
    assert {(r["source"]["document"], r["source"]["page"]) for r in data["results"]
            if r["match"] == "mention"} == {(LETTER, 1), (LETTER, 2)}
    assert "passages name it" in text_of(qin)

    found = distributor.structured_content
    assert [m["name"] for m in found["matched"]] == ["Ingram Micro"]
    assert found["exact_mentions"] == 5
    assert {r["source"]["document"] for r in found["results"]} == {"cuad_netgear_distributor_agreement.pdf"}
