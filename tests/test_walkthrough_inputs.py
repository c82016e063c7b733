"""What a user actually types, through a real MCP client: a document called by a word of its
file name, and arguments out of range or misspelt."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import EVAL_CASE_NAME
from tests.mcp_helpers import call_error, call_ok, mcp_session, pro_env

pytestmark = pytest.mark.anyio

NETGEAR = "cuad_netgear_distributor_agreement.pdf"


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_document_is_found_by_whole_words_of_its_name(eval_dev_data_dir: Path) -> None:
    async with mcp_session(eval_dev_data_dir, **pro_env()) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        filtered = await call_ok(client, "search_case", query="termination for convenience", top_k=3,
                                 document_filter="netgear")
        assert filtered.structured_content["document_filter"] == NETGEAR
        assert {r["source"]["document"] for r in filtered.structured_content["results"]} == {NETGEAR}
        nda = await call_ok(client, "get_document", document_name="Mutual NDA")
        assert nda.structured_content["document"]["name"] == "common_paper_mutual_nda_v1.docx"

        # Part of a word is no name; a word several documents share is ambiguous, and says which.
        assert "Did you mean:\n  - " + NETGEAR in await call_error(client, "get_document", document_name="gear")
        shared = await call_error(client, "get_document", document_name="distributor")
        assert NETGEAR in shared and "cuad_lucid_distributor_agreement.pdf" in shared


async def test_arguments_out_of_range_are_named_with_what_was_given_and_what_is_allowed(
        eval_dev_data_dir: Path) -> None:
    async with mcp_session(eval_dev_data_dir, **pro_env()) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        too_few = await call_error(client, "list_documents", limit=0)
        assert too_few == ("Invalid arguments for list_documents:\n"
                           "  - limit: should be greater than or equal to 1 (got 0)\n"
                           "Correct it and call list_documents again.")
        several = await call_error(client, "browse_pages", document_name=NETGEAR, start_page=0)
        assert "  - start_page: should be greater than or equal to 1 (got 0)\n  - end_page is required\n" in several
        wrong_word = await call_error(client, "get_authority_citations", authority="Qin", treatment_filter="bogus")
        assert "treatment_filter: should be 'cited', 'followed', 'distinguished'" in wrong_word
        for message in (too_few, several, wrong_word):
            assert "pydantic" not in message and "Arguments\n" not in message


async def test_a_misspelt_argument_is_named_with_the_arguments_the_tool_takes(data_dir: Path) -> None:
    # `draft_path` is no parameter of verify_draft: it was dropped and the draft checked as if none were given.
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Harbor v. Meridian")
        wrong = await call_error(client, "verify_draft", draft_path=str(data_dir / "brief.docx"))
        assert wrong.startswith("Invalid arguments for verify_draft:\n"
                                "  - draft_path: not a parameter of verify_draft\n")
        assert "verify_draft takes: text, file_path, case_name" in wrong
        several = await call_error(client, "search_case", query="governing law", topk=3, case="Harbor")
        assert "  - topk, case: not parameters of search_case" in several and "top_k" in several
