"""Search-side answers as a paralegal reads them, through a real MCP client on the eval-dev case."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import EVAL_CASE_NAME
from tests.mcp_helpers import call_ok, mcp_session, pro_env, text_of

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_find_entity_with_a_small_top_k_still_says_how_many_passages_name_it(eval_dev_data_dir: Path) -> None:
    async with mcp_session(eval_dev_data_dir, **pro_env()) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        everything = await call_ok(client, "find_entity", entity="NETGEAR", top_k=100)
        total = everything.structured_content["exact_mentions"]
        assert total > 10  # the NETGEAR agreement names NETGEAR on every page

        first = await call_ok(client, "find_entity", entity="NETGEAR", top_k=3)
        text = text_of(first)
        # It said "3 passages name it", as if NETGEAR were named three times in the case.
        assert re.search(rf" - 3 of {total} passages name it, ", text), text.splitlines()[0]
        assert f"... {total - 3} more passages name it (raise top_k to see them)" in text
        assert first.structured_content["passages_naming_it"] == total
        assert first.structured_content["exact_mentions"] == 3
