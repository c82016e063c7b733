"""The case map as a lawyer reads it, from a real server over stdio on the eval-dev case: every court
the case's documents come from (and the courts below), not a court a letter only cites; a party name
a docket prints cut short says so, and is completed when another document names it in full; words
like "Defendant" are never a party's name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import EVAL_CASE_NAME
from tests.mcp_helpers import call_ok, mcp_session, text_of

pytestmark = pytest.mark.anyio


def party_lines(case_map: str) -> list[str]:
    block = case_map.split("  PARTIES:\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines()]


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_the_map_lists_the_courts_of_the_documents_and_says_a_cut_name_is_cut(eval_dev_data_dir: Path) -> None:
    async with mcp_session(eval_dev_data_dir) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        lines = party_lines(text_of(await call_ok(client, "get_case_map")))
    courts = [line for line in lines if line.startswith("Court")]
    # The documents' own courts, then the court below (the scanned Seventh Circuit order's "Appeal from the
    # United States District Court for the Northern District of Indiana" is read interleaved with the caption's
    # column, so that court is not found in it).
    assert courts == [
        "Court:         U.S. Court of Appeals for the Tenth Circuit  (scan_ca10_order_in_re_liebowitz_2021.pdf)",
        "Court:         U.S. Court of Appeals for the Eighth Circuit  (ca8_rule_28j_letter_us_v_xiang_2023.pdf)",
        "Court:         U.S. Court of Appeals for the Second Circuit  (ca2_docketing_notice_nfl_2017.pdf)",
        "Court:         U.S. Court of Appeals for the Seventh Circuit  (scan_ca7_order_fedex_ground_2017.tiff)",
        "Court below:   U.S. District Court for the Southern District of New York  (ca2_docketing_notice_nfl_2017.pdf, "
        "scan_ca10_order_in_re_liebowitz_2021.pdf)",
    ], "\n".join(courts)
    assert not any("First Circuit" in line for line in lines)  # only cited, in the Eighth Circuit letter
    # The Second Circuit's docket cuts the short title at 30 characters; nothing in the case completes it.
    assert ("Plaintiff:     National Football League Manag… (cut short in the document)  "
            "(ca2_docketing_notice_nfl_2017.pdf)") in lines


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_cut_name_is_completed_from_another_document_and_role_words_are_no_party(
        eval_dev_data_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "SDNY opinion and order.txt").write_text(  # the district court's order in the same case
        "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF NEW YORK\n\nNATIONAL FOOTBALL LEAGUE MANAGEMENT COUNCIL,"
        "\n    Plaintiff,\nv.\nNATIONAL FOOTBALL LEAGUE PLAYERS ASSOCIATION,\n    Defendant.\n\nOPINION AND ORDER\n\n"
        "The Management Council moves to confirm the arbitration award.\n", encoding="utf-8")
    (tmp_path / "docketing notice 24-100.txt").write_text(
        "UNITED STATES COURT OF APPEALS FOR THE NINTH CIRCUIT\n\nJANE ROE, Appellant,\nv.\nDefendant, Appellee.\n\n"
        "DOCKETING NOTICE\n\nA notice of appeal filed by Defendant in the above referenced case was docketed today "
        "as 24-100.\n", encoding="utf-8")
    async with mcp_session(eval_dev_data_dir) as client:
        await call_ok(client, "switch_case", case_name=EVAL_CASE_NAME)
        await call_ok(client, "ingest_folder", folder_path=str(tmp_path), wait_seconds=300)
        case_map = await call_ok(client, "get_case_map")
    lines = party_lines(text_of(case_map))
    assert ("Plaintiff:     NATIONAL FOOTBALL LEAGUE MANAGEMENT COUNCIL  (SDNY opinion and order.txt, "
            "ca2_docketing_notice_nfl_2017.pdf)" in lines), lines
    assert not any("Manag…" in line for line in lines)
    assert "Appellant:     JANE ROE  (docketing notice 24-100.txt)" in lines
    names = [p["name"] for p in case_map.structured_content["parties"]]
    assert not any(re.fullmatch(r"(?i)(the )?(defendant|appellee|plaintiff|appellant)s?", n) for n in names), names
    assert "Court:         U.S. Court of Appeals for the Ninth Circuit  (docketing notice 24-100.txt)" in lines
