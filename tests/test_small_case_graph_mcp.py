"""The case map and timeline of a small case as a user first sees them, from a real server over
stdio: a contract, an order on a motion to dismiss, a scanned letter and two e-mails, the second
quoting the first (tests/small_case.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.small_case import small_case

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end over real models: CI runs it with -m slow
async def test_the_map_and_timeline_of_a_small_case_name_each_party_person_and_event_once(
        data_dir: Path, tmp_path: Path) -> None:
    folder = small_case(tmp_path / "Harbor v Meridian")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Harbor v. Meridian")
        await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=600)
        case_map = text_of(await call_ok(client, "get_case_map"))
        timeline = await call_ok(client, "get_case_timeline")
        people = await call_ok(client, "list_entities", entity_type="person")
    parties = [line.strip() for line in case_map.split("  PARTIES:\n", 1)[1].split("\n\n", 1)[0].splitlines()]
    # The order's caption (MERIDIAN FREIGHT SYSTEMS, Defendant) and the contract (Meridian Freight Systems, Inc.):
    # one party, in its fuller form, with the role the caption gives it.
    meridian = [line for line in parties if "meridian freight" in line.casefold()]
    assert meridian == ["Defendant:     Meridian Freight Systems, Inc.  (Master Services Agreement.txt, "
                        "Order on motion to dismiss.txt)"], case_map
    assert "Judge:         J. PAUL OETKEN" in parties, case_map  # not "PAUL OETKEN"

    # The reply quotes the first e-mail, which the case holds: its quoted dates are no events of their own,
    # and nothing shows the reply's "> " marks.
    events = timeline.structured_content["events"]
    text = text_of(timeline)
    assert not re.search(r"(?:^|\s)>", text) and "wrote:" not in text, text
    assert not [e for e in events if e["document"] == "Re Missed pickups.eml" and e["page"] != 1], text
    assert [e["date"] for e in events].count("2024-01-15") == 1, text
    assert [e["date"] for e in events].count("2024-01-09") == 1, text

    # The scanned letter's signatory is one of the people the case mentions.
    names = [e["name"] for e in people.structured_content["entities"]]
    assert "Rebecca Thornton" in names, names
