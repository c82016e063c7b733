"""Forms of court opinions the graph missed on the held-out opinions (test_graph_unseen_opinions.py), each on a
sentence written the way opinions write it: short forms and Id., statutes, treatment, judges."""

from __future__ import annotations

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import AuthorityMention, find_authorities, find_entities

FILLER = (
    " The Proposal relied in substantial part on a study of a subset of undergraduate classes containing between"
    " five and twenty-four students, and it showed that few of these classes had significant enrollment by members"
    " of racial minorities."
)


def authorities(text: str) -> list[AuthorityMention]:
    return find_authorities([ParsedPage(1, text, ExtractionMethod.NATIVE)])


def at(text: str, snippet: str) -> list[AuthorityMention]:
    i = text.index(snippet)
    return [a for a in authorities(text) if a.char_start < i + len(snippet) and i < a.char_end]


def judges(text: str) -> set[str]:
    found = find_entities([ParsedPage(1, text, ExtractionMethod.NATIVE)])
    return {e.name for e in found if e.role == "judge"}


# --- short forms and Id. --------------------------------------------------------------------------------------


def test_a_short_form_whose_reporter_ends_with_a_comma_is_found_far_from_other_citations() -> None:
    text = ("The Court decided Grutter v. Bollinger, 539 U. S. 306 (2003)." + FILLER + " A court may give some"
            " deference to a university’s “judgment that such diversity is essential to its educational"
            " mission,” 539 U. S., at 328, provided that diversity is not mere racial balancing.")  # fmt: skip
    assert [a.key for a in at(text, "539 U. S., at 328")] == ["539 U.S. 306"]


def test_a_short_form_is_the_case_of_its_volume_whose_pages_hold_its_page() -> None:
    text = ("The University adopted its program after this Court decided Grutter v. Bollinger, 539 U. S. 306,"
            " upholding the use of race as one of many factors, and decided Gratz v. Bollinger, 539 U. S. 244,"
            " holding unconstitutional an admissions program. A court may give some deference to a university’s"
            " “judgment that such diversity is essential to its educational mission,” 539 U. S., at 328. The"
            " University receives no deference on the means. Id., at 333.")  # fmt: skip
    assert [a.key for a in at(text, "539 U. S., at 328")] == ["539 U.S. 306"]
    assert [a.key for a in at(text, "Id., at 333")] == ["539 U.S. 306"]


def test_an_id_after_a_record_citation_means_the_record_not_the_statute_before() -> None:
    text = ("She also seeks fees and costs under 42 U.S.C. § 1988. Plaintiff is a registered voter of Wake County, who"
            " has voted in “nearly every” national election since 2014. (Compl. (DE 2) ¶ 9). Plaintiff alleges that"
            " the five statutes together operate to ban “ballot selfies.” ( Id. ¶¶ 31-48).")  # fmt: skip
    assert at(text, "Id. ¶¶ 31-48") == []
    assert [a.key for a in at(text, "42 U.S.C. § 1988")] == ["42 U.S.C. § 1988"]


def test_an_id_skips_the_reporters_page_markers_and_a_slip_opinions_running_head() -> None:
    text = ("Norman v. Reed , 502 U.S. 279, 288–89 (1992).\n\n[590 F.Supp.3d 865]\n\nPlaintiffs allege they are"
            " significantly burdened by the statutes. Id. at 289.")  # fmt: skip
    assert [a.key for a in at(text, "Id. at 289")] == ["502 U.S. 279"]
    head = "\n                     Cite as: 570 U. S. ____ (2013)                    3\n\n"
    text = ("See Gratz v. Bollinger, 539 U. S. 244, 304 (2003) (GINSBURG, J., dissenting)." + head + "   I have"
            " several times explained why government actors need not be blind to “centuries of law-sanctioned"
            " inequality.” Id., at\n298 (dissenting opinion).")  # fmt: skip
    assert [a.key for a in at(text, "Id., at\n298")] == ["539 U.S. 244"]


def test_an_id_means_the_citing_case_not_the_one_it_quotes_unless_its_page_is_there() -> None:
    text = ("Deal v. Mercer Cnty. Bd. of Educ. , 911 F.3d 183, 190 (4th Cir. 2018) (quoting Cooksey v. Futrell , 721"
            " F.3d 226, 240 (4th Cir. 2013) ). In reviewing a ripeness challenge, the court considers the fitness of"
            " the issues for judicial decision. Id. at 191.")  # fmt: skip
    assert [a.key for a in at(text, "Id. at 191")] == ["911 F.3d 183"]
    text = ("539 U. S., at 329–330 (quoting Regents of Univ. of Cal. v. Bakke, 438 U. S. 265, 307 (1978); citation"
            " omitted); see also id., at 307 (“Preferring members of any one group for no reason other than race is"
            " discrimination for its own sake.”).")  # fmt: skip
    assert [a.key for a in at(text, "id., at 307")] == ["438 U.S. 265"]


def test_an_id_with_a_section_is_another_section_of_the_code_just_cited() -> None:
    text = ("The State Board must report violations of the election laws for prosecution. N.C. Gen. Stat. § 163-22(c),"
            " (d). It also bears the duty to furnish district attorneys with its investigations. Id. § 163-278.")
    assert [a.key for a in at(text, "Id. § 163-278")] == ["N.C. Gen. Stat. § 163-278"]


# --- statutes ---------------------------------------------------------------------------------------------------


def test_a_section_eyecite_reads_short_is_the_whole_section() -> None:
    text = "Instead, the provisions of the UETA are to be construed to facilitate them. Ala. Code § 8-1A-5(a) (2002)."
    assert [a.key for a in at(text, "§ 8-1A-5")] == ["Ala. Code § 8-1A-5"]


def test_kentucky_and_other_compact_state_codes_are_statutes() -> None:
    text = "Pursuant to KRS 117.265(5), lists of eligible write-in candidates are provided to precinct officers."
    assert [(a.key, a.pin_cite) for a in at(text, "KRS")] == [("Ky. Rev. Stat. § 117.265", "(5)")]
    assert [a.key for a in authorities("See N.D.C.C. § 12.1-32-01 and SDCL 22-6-1.")] == [
        "N.D. Cent. Code § 12.1-32-01", "S.D. Codified Laws § 22-6-1"]  # fmt: skip


def test_a_years_session_laws_keep_the_year() -> None:
    text = "H.B. 1169 amended several election laws. 2020 N.C. Sess. Laws 2020-17 (H.B. 1169)."
    assert [a.key for a in at(text, "Sess. Laws")] == ["2020 N.C. Sess. Laws 2020"]


# --- treatment ------------------------------------------------------------------------------------------------


def treatment(text: str, snippet: str) -> str:
    return next(a.treatment.value for a in at(text, snippet) if a.form == "full")


def test_a_judge_who_would_overrule_a_case_discusses_it() -> None:
    text = "I write separately to explain that I would overrule Grutter v. Bollinger, 539 U. S. 306 (2003), and hold."
    assert treatment(text, "539 U. S. 306") == "discussed"
    assert treatment("That decision was overruled by Smith v. Jones, 1 U.S. 1 (1800); see also Doe v. Roe, 2 U.S. 2"
                     " (1801) (overruling Black v. White, 3 U.S. 3 (1802)).", "3 U.S. 3") == "overruled"  # fmt: skip


def test_in_opening_a_sentence_discusses_only_a_case_named_after_it() -> None:
    text = ("In addition, a threatened governmental action need not be a criminal prosecution to provide standing,"
            " Cooksey v. Futrell, 721 F.3d 226, 238 (4th Cir. 2013).")  # fmt: skip
    assert treatment(text, "721 F.3d 226") == "cited"
    assert treatment("In Palmore v. Sidoti, 466 U. S. 429 (1984), the Court rejected a claim.", "466 U. S.") == (
        "discussed")


def test_a_signal_before_a_citation_outweighs_the_verbs_of_the_proposition() -> None:
    text = ("The right to vote is fundamental, whereas this court has previously found there is no constitutional right"
            " to vote by absentee ballot, see Democracy N.C. v. N.C. State Bd. of Elections, 476 F. Supp. 3d 158,"
            " 226–27 (M.D.N.C. 2020).")  # fmt: skip
    assert treatment(text, "476 F. Supp. 3d 158") == "cited"


def test_articulating_a_standard_in_a_case_discusses_it() -> None:
    text = "The Court first articulated the strict-scrutiny standard in Korematsu v. United States, 323 U. S. 214."
    assert treatment(text, "323 U. S. 214") == "discussed"


# --- judges ---------------------------------------------------------------------------------------------------


def test_the_justices_of_a_slip_opinion_are_judges() -> None:
    text = ("   JUSTICE KENNEDY delivered the opinion of the Court.\n   The University of Texas at Austin considers"
            " race."
            "\n                     SCALIA, J., concurring\n\n   JUSTICE GINSBURG, dissenting.\n   The University is"
            " candid. See post, at 1 (STEVENS, J., dissenting).")  # fmt: skip
    assert judges(text) == {"KENNEDY", "SCALIA", "GINSBURG"}


def test_a_district_judge_signing_with_a_suffix_is_a_judge() -> None:
    assert judges("MEMORANDUM OPINION AND ORDER\n\nOSTEEN, JR., District Judge\n\nThis matter comes before the court.")


def test_a_sentence_opener_is_no_judge_and_an_official_called_honorable_is_no_judge() -> None:
    assert "Next" not in judges("Next, Justice Powell identified one compelling interest that could justify it.")
    assert judges("Requested by: Hon. Alison Lundergan Grimes Secretary of State and Chief Election Official") == set()
    assert judges("Opinion to Honorable Robert M. Martin, Probate Judge, Chilton County") == {"Robert M. Martin"}
