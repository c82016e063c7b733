"""Tokenisation rules, table-driven over real legal wording."""

from __future__ import annotations

import pytest

from casetrack.index.tokenize import STOPWORDS, TokenizerConfig, s_stem, term_frequencies, tokenize

CASES = [
    ("Section 8.1 of the Agreement", ["§", "§8.1", "8.1", "agreement"]),
    ("42 U.S.C. § 1983", ["42", "u.s.c.", "usc", "§", "§1983", "1983"]),
    ("15 U.S.C. § 78j.", ["15", "u.s.c.", "usc", "§", "§78j", "78j"]),
    ("Rule 12(b)(6)", ["rule", "12(b)(6)", "12(b)", "12"]),
    ("Section 2.3(a)(ii)", ["§", "§2.3(a)(ii)", "2.3(a)(ii)", "2.3(a)", "2.3"]),
    ("this section shall", ["§", "shall"]),
    ("a fee of $1,500,000.00", ["fee", "$1500000", "1500000"]),
    ("$18,000 per month", ["$18000", "18000", "per", "month"]),
    ("$2.50 per unit", ["$2.50", "2.50", "per", "unit"]),
    ("No. 21-1234", ["no", "21-1234"]),
    ("Case 1:19-cv-01234-ABC", ["case", "1:19-cv-01234-abc", "1:19-cv-01234", "19-cv-01234", "19-cv-1234",
                                "1:19-cv-1234"]),
    ("filed 10/31/2017", ["filed", "10/31/2017", "2017-10-31"]),
    ("550 U.S. 544 (2007)", ["550", "u.s.", "544", "2007"]),
    ("123 F.3d 456", ["123", "f.3d", "456"]),
    ("Rule 10b-5", ["rule", "10b-5"]),
    ("1,000,000 shares", ["1000000", "share"]),
    ("Sections 3.1 and 8.1.2; ¶¶ 4", ["§", "§3.1", "3.1", "8.1.2", "8.1", "¶", "¶4", "4"]),
    ("§§ 101-103", ["§101-103", "101-103", "§", "§101", "101", "103"]),
    ("Treas. Reg. § 1.409A-3(i)(5)", ["trea", "reg", "§1.409a-3(i)(5)", "1.409a-3(i)(5)", "1.409a-3(i)", "1.409a-3",
                                      "§", "§1.409a", "1.409a", "3(i)(5)", "3(i)", "3"]),
    ("26 CFR 1.409A-3(i)(5)", ["26", "cfr", "1.409a-3(i)(5)", "1.409a-3(i)", "1.409a-3", "1", "409a-3", "5"]),
    ("G.S. 163-230.2", ["g.s.", "163-230.2", "163-230", "2"]),
    ("17 C.F.R. § 240.10b-5", ["17", "c.f.r.", "cfr", "§240.10b-5", "240.10b-5", "§", "§240.10b", "240.10b", "5"]),
    ("filed 2017-10-31", ["filed", "2017-10-31"]),
    ("see para. 12 and paras. 4(a)", ["see", "¶", "¶12", "12", "¶", "¶4(a)", "4(a)", "4"]),
    ("para.", ["para"]),
    ("the parties' co-branding agreements", ["party", "cobranding", "co", "branding", "agreement"]),
    ("The Company’s obligations shall not terminate.", ["company", "obligation", "shall", "not", "terminate"]),
    ("e.g., i.e., etc.", []),
    ("Filed with the SEC", ["filed", "sec"]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_legal_tokens_stay_whole_and_words_are_normalised(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_the_same_function_serves_queries_and_documents() -> None:
    passage = "Defendant moved to dismiss under Fed. R. Civ. P. 12(b)(6) on 10/31/2017."
    query_terms = set(tokenize("12(b)(6) motion"))
    assert {"12(b)(6)", "12(b)", "12"} <= query_terms & set(tokenize(passage))


def test_spelled_variants_of_the_same_legal_unit_meet() -> None:
    assert tokenize("§ 8.1") == tokenize("Section 8.1") == tokenize("section 8.1") == tokenize("§8.1")
    assert tokenize("¶ 12") == tokenize("paragraph 12") == tokenize("para. 12") == tokenize("Para.\n12")
    assert "$1500000" in tokenize("$1,500,000") and "$1500000" in tokenize("$1500000")
    assert "1500000" in tokenize("$1,500,000")  # a bare 1,500,000 still meets the amount


def test_stopwords_and_single_letters_are_dropped_but_negations_kept() -> None:
    assert tokenize("it is to be noted that a b c") == ["noted"]
    assert tokenize("shall not nor no") == ["shall", "not", "nor", "no"]
    assert {"no", "not", "nor"}.isdisjoint(STOPWORDS)


@pytest.mark.parametrize(
    ("word", "stem"),
    [("parties", "party"), ("agreements", "agreement"), ("clauses", "clause"), ("business", "business"),
     ("status", "status"), ("goes", "goe"), ("bus", "bus"), ("terminated", "terminated")],
)  # fmt: skip
def test_s_stemmer_strips_plurals_only(word: str, stem: str) -> None:
    assert s_stem(word) == stem


def test_stemming_can_be_switched_off() -> None:
    assert tokenize("parties agreements", TokenizerConfig(stem=False)) == ["parties", "agreements"]


def test_term_frequencies_count_each_term() -> None:
    assert term_frequencies(tokenize("12(b)(6) and 12(b)(1)")) == {"12(b)(6)": 1, "12(b)": 2, "12": 2, "12(b)(1)": 1}


@pytest.mark.parametrize(
    ("printed", "asked", "shared"),
    [("Treas. Reg. § 1.409A-3(i)(5)", "26 CFR 1.409A-3(i)(5)", "1.409a-3(i)(5)"),
     ("Treas. Reg. § 1.409A-3(i)(5)", "regulation 1.409A-3", "1.409a-3"),
     ("N.C. Gen. Stat. § 163-230.2(a)", "G.S. 163-230.2", "163-230.2"),
     ("C.R.S. 13-21-102(1)(a)", "Colo. Rev. Stat. § 13-21-102", "13-21-102"),
     ("17 C.F.R. § 240.10b-5", "17 CFR 240.10b-5", "240.10b-5"),
     ("as alleged in ¶ 23", "para. 23 of the complaint", "¶23")],
)  # fmt: skip
def test_a_section_number_joined_by_a_hyphen_is_one_term_with_or_without_its_symbol(
    printed: str, asked: str, shared: str
) -> None:
    """A hyphen inside a section number ("1.409A-3") used to split it two different ways: with § in front into
    `1.409a` and `3`, without it into `1` and `409a-3`, so the two spellings shared no term for the section."""
    assert shared in set(tokenize(printed)) & set(tokenize(asked))
