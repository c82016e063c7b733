"""One written form for what legal text writes many ways: each pair below is the same thing written twice, as a
document and a question might, and must share the term a search finds it by."""

from __future__ import annotations

import pytest

from casetrack.index.aliases import case_name_expansions, docket_aliases, fold
from casetrack.index.tokenize import tokenize

SAME_THING = [
    # (document's form, question's form, the term they share)
    ("No. 24–351", "No. 24-351", "24-351"),  # en dash / hyphen
    ("docketed as 17‑3510", "appeal 17-3510", "17-3510"),  # non-breaking hyphen
    ("8:23-cr-25-VMC-AEP", "8:23-cr-00025", "8:23-cr-25"),  # leading zeros, judge initials
    ("3:21-cv-00437-ECM-SRW", "3:21-cv-437", "21-cv-437"),
    ("Civil Action No. 1:20CV457", "1:20-cv-457", "1:20-cv-457"),  # no hyphens around the type
    ("signed March 10, 2022", "the 3/10/2022 order", "2022-03-10"),
    ("on 10 March 2022", "Mar. 10, 2022", "2022-03-10"),
    ("effective 2022-03-10", "March 10, 2022", "2022-03-10"),
    ("a fee of $1,500,000", "$1.5 million", "$1500000"),
    ("Bates ABC 000123", "ABC000123", "abc000123"),
    ("ABC-000123", "abc 000123", "abc000123"),
    ("Acme Mfg. Co.", "Acme Manufacturing", "manufacturing"),
    ("U.S. Postal Serv.", "Postal Service", "service"),
    ("Dep’t of Justice", "Department of Justice", "department"),
    ("Nat'l Ass'n of Realtors", "National Association", "association"),
    ("§ 552.101(a)", "Section 552.101(a)", "§552.101(a)"),
]


@pytest.mark.parametrize(("written", "asked", "shared"), SAME_THING)
def test_a_reference_written_two_ways_shares_its_term(written: str, asked: str, shared: str) -> None:
    assert shared in tokenize(written)
    assert shared in tokenize(asked)


def test_folding_keeps_the_terms_of_text_that_needed_none() -> None:
    for text in ("Rule 10b-5", "1:19-cv-01234-ABC", "the parties' co-branding", "$2.50 per unit", "2.5x"):
        assert fold(text) == text
    assert tokenize("Rule 10b-5") == ["rule", "10b-5"]  # a rule, not a docket number
    assert list(docket_aliases("10b-5")) == []


def test_an_em_dash_separates_words_and_a_minus_joins_numbers() -> None:
    assert tokenize("Texas—one on Saratoga Drive") == tokenize("Texas one on Saratoga Drive")
    assert "415-17" in tokenize("415−17")


def test_everyday_words_on_the_abbreviation_list_are_not_expanded() -> None:
    assert "alliance" not in tokenize("The parties agree to all.")
    assert "foundation" not in tokenize("No defect was found.")
    assert case_name_expansions()["mfg"] == ("manufacturing",)


def test_dates_that_are_not_dates_give_no_alias() -> None:
    assert not any(t.count("-") == 2 and t[:4].isdigit() for t in tokenize("May 45, 2022 and 13/40/2020"))
