"""A table of authorities for real brief-like texts: every authority eyecite finds, once, under its heading, with
the pages the draft cites it on."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.graph.citations.eyecite_fast import eyecite
from casetrack.service.verify.drafts import read_draft, table_of_authorities_for
from tests.conftest import EVAL_DEV

COURT = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_court" / "docs"
DEMOCRACY = COURT / "Democracy North Carolina v. NC State Board of Elections - MDNC opinion and order 2022-03-10.pdf"


def test_the_rule_28j_letter_lists_its_two_cases_and_its_rule() -> None:
    letter = EVAL_DEV / "docs" / "ca8_rule_28j_letter_us_v_xiang_2023.pdf"
    done = table_of_authorities_for(read_draft(file_path=str(letter)))
    table = done.table
    assert [(e.authority, e.pages) for e in table.under("Cases")] == [
        ("Alasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021)", (2,)),
        ("United States v. Qin, 2023 WL 128600 (1st Cir. Jan. 9, 2023)", (1, 2)),  # its Id.s on page 2
    ]
    assert [(e.authority, e.pages) for e in table.under("Rules")] == [("Fed. R. App. P. 28(j)", (1,))]
    assert not table.under("Statutes") and not table.pages_estimated


def test_an_opinion_read_as_a_draft_lists_every_case_eyecite_finds_once_on_its_pages() -> None:
    draft = read_draft(file_path=str(DEMOCRACY))
    done = table_of_authorities_for(draft, passim=6)
    entries = {e.key: e for e in done.table.entries}
    assert len(entries) == len(done.table.entries)  # once each
    from eyecite.models import FullCaseCitation

    expected: dict[str, set[int]] = {}
    for page in draft.pages:
        for cite in eyecite().get_citations(page.text):
            own_marker = page.text[cite.span()[0] - 1:cite.span()[0]] == "["  # "[590 F.Supp.3d 857]": its own page
            if isinstance(cite, FullCaseCitation) and not own_marker:
                expected.setdefault(cite.corrected_citation(), set()).add(page.number)
    assert len(expected) > 20  # a real opinion's worth of cases
    for key, pages in expected.items():
        entry = entries.get(key)
        assert entry is not None and entry.heading == "Cases", key
        assert entry.passim or pages <= set(entry.pages), (key, pages, entry.pages)
    passim = [e for e in done.table.entries if e.passim]
    assert all(len(e.pages) >= 6 for e in passim)
    statutes = done.table.under("Statutes")
    assert any(e.key.startswith("N.C. Gen. Stat. \u00a7 163-") for e in statutes)
    names = [e.authority.casefold() for e in done.table.under("Cases")]
    assert names == sorted(names)


@pytest.mark.parametrize("passim", [1, 0])
def test_a_passim_threshold_below_two_is_refused(passim: int) -> None:
    from casetrack.errors import InvalidInput

    with pytest.raises(InvalidInput, match="passim_pages must be at least 2"):
        table_of_authorities_for(read_draft(text="See 42 U.S.C. \u00a7 1983."), passim=passim)
