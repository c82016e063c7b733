"""A paralegal's walk through the context graph of the eval-dev case, through a real MCP client:
where exactly each citation of an authority sits, and timelines asked for with imperfect dates."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import EVAL_CASE_NAME
from tests.mcp_helpers import call_error, call_ok, mcp_session, pro_env, text_of

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_each_citation_of_an_authority_names_the_line_it_is_on(eval_dev_data_dir: Path) -> None:
    async with mcp_session(eval_dev_data_dir, **pro_env()) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        found = await call_ok(client, "get_authority_citations", authority="Qin", top_k=20)
        citations = found.structured_content["citations"]
        assert len(citations) >= 5  # the 28(j) letter cites Qin again and again on one page, in one chunk
        for c in citations:
            chunk = (await call_ok(client, "get_chunk", chunk_id=c["chunk_id"])).structured_content
            before = chunk["text"][: c["char_start"] - chunk["source"]["char_start"]]
            line = chunk["source"]["line_start"] + before.count("\n")
            assert c["mention_line"] == line
            line_text = chunk["text"].split("\n")[before.count("\n")]
            assert c["text"].split()[0] in line_text
            assert c["mention_citation"] == (f"{c['document']}, p. {c['page']}, para. {c['mention_paragraph']}, "
                                             f"l. {line}")
            assert c["mention_citation"] in text_of(found)
        # The chunk's range alone ("ll. 1-46") would cite all of them alike.
        assert len({c["mention_citation"] for c in citations}) > len(citations) // 2


async def test_a_timeline_asked_for_with_an_impossible_or_reversed_range_says_what_to_fix(
        eval_dev_data_dir: Path) -> None:
    async with mcp_session(eval_dev_data_dir, **pro_env()) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        # Compared as text, "2017-13-01" sorted after every 2017 date and silently dropped that year.
        for impossible in ("2017-13-01", "2017-02-30"):
            message = await call_error(client, "get_case_timeline", start_date=impossible)
            assert f'"{impossible}" is not a calendar date' in message and "YYYY-MM-DD" in message
        reversed_range = await call_error(client, "get_case_timeline", start_date="2018-01-01",
                                          end_date="2017-01-01")
        assert "start_date 2018-01-01 is after end_date 2017-01-01" in reversed_range

        # "The timeline for 2017": a year means the whole year, as the full dates do.
        whole_year = await call_ok(client, "get_case_timeline", start_date="2017", end_date="2017")
        explicit = await call_ok(client, "get_case_timeline", start_date="2017-01-01", end_date="2017-12-31")
        assert whole_year.structured_content["events"] == explicit.structured_content["events"]
        assert whole_year.structured_content["events"]
        assert "from 2017-01-01 to 2017-12-31" in text_of(whole_year)
