"""Authorities: eyecite's finds on the eval-dev court documents, what eyecite misses, keys, resolution, treatment."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import AuthorityKind, Treatment, find_authorities
from casetrack.graph.citations.authorities import _eyecite_mentions
from casetrack.graph.pagetext import join_pages
from tests.graph.graph_evaldev import COURT_DOCUMENTS, all_docs, jsonl, pages_of


def pages(*texts: str) -> list[ParsedPage]:
    return [ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(texts)]


def keys(text: str) -> list[str]:
    return [a.key for a in find_authorities(pages(text))]


# --- eval-dev ------------------------------------------------------------------------


@pytest.mark.parametrize("record", jsonl("citations.jsonl"), ids=lambda r: str(r["doc"]))
def test_every_authority_eyecite_found_in_evaldev_is_recovered_with_its_span(record: dict) -> None:
    found = find_authorities(pages_of(str(record["doc"]).removesuffix(".txt")))
    text = "\f".join(p.text for p in pages_of(str(record["doc"])))
    by_key = {a.key for a in found}
    for authority in record["authorities"]:
        assert authority["citation"] in by_key
    # every citation eyecite listed (full and Id.) is a mention at the same place, Id.s resolved
    starts = {}
    offset = 0
    for p in pages_of(str(record["doc"])):
        starts[p.number] = offset
        offset += len(p.text) + 1
    located = {(a.page, starts[a.page] + a.char_start, starts[a.page] + a.char_end): a for a in found}
    for cite in record["citations"]:
        s, e = cite["span"]
        hit = located.get((cite["page"], s, e)) or located.get((cite["page"], s, s + len(text[s:e])))
        assert hit is not None, cite
        assert hit.text == text[s:e]
        if cite["type"] == "IdCitation":
            assert hit.form == "id" and hit.key in by_key


# Authorities in the eval-dev court documents that eyecite does not find (grep: "Rule", "FRAP", "§", "C.F.R.").
MISSED_BY_EYECITE = {
    "ca8_rule_28j_letter_us_v_xiang_2023.pdf": {
        "Fed. R. App. P. 28(j)"
    },  # "Federal Rule of\nAppellate Procedure 28(j)"
    "ca2_docketing_notice_nfl_2017.pdf": {  # "FRAP 12(a), 32(a)", "FRAP 15(a)\nor 21(a)", "FRAP 12(b)"
        "Fed. R. App. P. 12(a)",
        "Fed. R. App. P. 32(a)",
        "Fed. R. App. P. 15(a)",
        "Fed. R. App. P. 21(a)",
        "Fed. R. App. P. 12(b)",
    },
    "scan_ca10_order_in_re_liebowitz_2021.pdf": set(),
    "scan_ca7_order_fedex_ground_2017.tiff": set(),
}


@pytest.mark.parametrize("doc", COURT_DOCUMENTS)
def test_rules_eyecite_misses_in_the_court_documents_are_found_and_nothing_else_is(doc: str) -> None:
    found = find_authorities(pages_of(doc))
    rules = {a.key for a in found if a.kind is not AuthorityKind.CASE_LAW}
    assert rules == MISSED_BY_EYECITE[doc]
    assert all(a.kind is AuthorityKind.FEDERAL_RULE for a in found if a.key in rules)


@pytest.mark.parametrize("doc", all_docs())
def test_windowed_eyecite_finds_exactly_what_eyecite_finds_on_the_whole_text(doc: str) -> None:
    import eyecite
    from eyecite.models import UnknownCitation

    text = join_pages(pages_of(doc)).text
    whole = [(type(c).__name__, c.span()) for c in eyecite.get_citations(text) if not isinstance(c, UnknownCitation)]
    windowed = [(type(r.eyecite).__name__, (r.start, r.end)) for r in _eyecite_mentions(text)]
    assert windowed == whole


BRIEF = (
    "Plaintiff sues under 42 U.S.C. § 1983. See Monroe v. Pape, 365 U.S. 167, 171 (1961). The district court "
    "dismissed under Fed. R. Civ. P. 12(b)(6). We distinguish Parratt v. Taylor, 451 U.S. 527 (1981). "
    "Cf. Monroe, 365 U.S. at 180. Id. at 183. Parratt, supra, at 530. In 2019, the Missouri court applied "
    "Rule 29.12(c) and N.C.G.S. § 14-306.4 was cited as persuasive. See 29 C.F.R. § 1630.2(g). Id."
)


def test_windowed_eyecite_matches_whole_text_eyecite_on_a_dense_brief() -> None:
    import eyecite
    from eyecite.models import UnknownCitation

    whole = [(type(c).__name__, c.span()) for c in eyecite.get_citations(BRIEF) if not isinstance(c, UnknownCitation)]
    assert [(type(r.eyecite).__name__, (r.start, r.end)) for r in _eyecite_mentions(BRIEF)] == whole


FAR_REFERENCE = (
    "See Monroe v. Pape, 365 U.S. 167 (1961). "
    + "The record shows nothing more on this point and the parties agree on the facts. " * 12
    + "As the Court said in Monroe at 171, the remedy is federal."
)


def test_windowed_eyecite_still_finds_a_reference_citation_far_from_its_full_citation() -> None:
    import eyecite

    whole = [(type(c).__name__, c.span()) for c in eyecite.get_citations(FAR_REFERENCE)]
    assert [w[0] for w in whole] == ["FullCaseCitation", "ReferenceCitation"]
    assert [(type(r.eyecite).__name__, (r.start, r.end)) for r in _eyecite_mentions(FAR_REFERENCE)] == whole
    found = find_authorities(pages(FAR_REFERENCE))
    assert [(a.form, a.key) for a in found] == [("full", "365 U.S. 167"), ("reference", "365 U.S. 167")]


PARENTHETICALS = ["1st Cir.", "2d Cir", "D.C. Cir.", "Fed. Cir.", "S.D.N.Y.", "N.D. Ill.", "D. Mass.", "E.D. Pa."]
PARENTHETICALS += ["Pa.Super.", "SC", "Mo.", "Cal. Ct. App.", "Tex. App.", "N.Y. App. Div.", "Ill. App. Ct.", "foo", ""]


def test_the_faster_court_lookup_answers_exactly_as_eyecites_own() -> None:
    from eyecite import helpers

    from casetrack.graph.citations.authorities import _eyecite

    _eyecite()
    fast = helpers.get_court_by_paren
    assert fast.casetrack_fast
    assert [fast(p) for p in PARENTHETICALS] == [fast.original(p) for p in PARENTHETICALS]


# --- keys and kinds ----------------------------------------------------------------------

SAME_AUTHORITY = [
    (["42 USC 1983", "42 U.S.C. § 1983", "42 U.S.C. 1983", "42 U.S.C. §1983", "42 U.S.C.A. § 1983"],
     "42 U.S.C. § 1983"),
    (["Fed. R. Civ. P. 12(b)(6)", "Fed.R.Civ.P. 12(b)(6)", "FRCP 12(b)(6)", "Federal Rule of Civil Procedure 12(b)(6)",
      "Rule 12(b)(6) of the Federal Rules of Civil Procedure"], "Fed. R. Civ. P. 12(b)(6)"),
    (["Fed. R. App. P. 28(j)", "FRAP 28(j)", "Federal Rule of Appellate Procedure 28(j)"], "Fed. R. App. P. 28(j)"),
    (["N.C.G.S. § 14-306.4", "N.C. Gen. Stat. § 14-306.4"], "N.C. Gen. Stat. § 14-306.4"),
    (["29 C.F.R. § 1630.2(g)", "29 CFR 1630.2", "29 C.F.R. 1630.2"], "29 C.F.R. § 1630.2"),
    (["Section 537.065, RSMo", "RSMo § 537.065", "Mo. Rev. Stat. § 537.065"], "Mo. Rev. Stat. § 537.065"),
]  # fmt: skip


@pytest.mark.parametrize(("spellings", "key"), SAME_AUTHORITY, ids=[k for _, k in SAME_AUTHORITY])
def test_spellings_of_one_authority_share_one_key(spellings: list[str], key: str) -> None:
    for spelling in spellings:
        assert keys(f"The claim arises under {spelling} as pleaded.") == [key], spelling


KINDS = [
    ("42 U.S.C. § 1983", AuthorityKind.FEDERAL_STATUTE),
    ("N.C. Gen. Stat. § 75-1.1", AuthorityKind.STATE_STATUTE),
    ("N.C.G.S. § 14-306.4", AuthorityKind.STATE_STATUTE),
    ("Tex. Bus. & Com. Code § 17.46", AuthorityKind.STATE_STATUTE),
    ("Cal. Civ. Proc. Code § 425.16", AuthorityKind.STATE_STATUTE),
    ("735 ILCS 5/2-619", AuthorityKind.STATE_STATUTE),
    ("Fed. R. Evid. 403", AuthorityKind.FEDERAL_RULE),
    ("Fed. R. Crim. P. 29", AuthorityKind.FEDERAL_RULE),
    ("Rule 29.12(c)", AuthorityKind.STATE_RULE),
    ("Mo. Sup. Ct. R. 55.03", AuthorityKind.STATE_RULE),
    ("Tex. R. Civ. P. 91a", AuthorityKind.STATE_RULE),
    ("29 C.F.R. § 1630.2", AuthorityKind.REGULATION),
    ("Monroe v. Pape, 365 U.S. 167 (1961)", AuthorityKind.CASE_LAW),
]


@pytest.mark.parametrize(("cite", "kind"), KINDS, ids=[c for c, _ in KINDS])
def test_authorities_are_typed(cite: str, kind: AuthorityKind) -> None:
    found = find_authorities(pages(f"As held in {cite}, the motion fails."))
    assert [a.kind for a in found] == [kind]


def test_lists_continue_one_code_or_rule_set() -> None:
    assert keys("Jurisdiction lies under 28 U.S.C. §§ 1331, 1332 and FRAP 15(a) or 21(a).") == [
        "28 U.S.C. § 1331",
        "28 U.S.C. § 1332",
        "Fed. R. App. P. 15(a)",
        "Fed. R. App. P. 21(a)",
    ]


def test_a_bare_rule_takes_the_one_rule_set_the_document_names() -> None:
    assert keys("The motion under Fed. R. Civ. P. 12(b)(6) fails. Rule 56 also fails.") == [
        "Fed. R. Civ. P. 12(b)(6)",
        "Fed. R. Civ. P. 56",
    ]


def test_numbers_that_are_not_citations_are_not_authorities() -> None:
    assert keys("Section 1.15 of this Agreement requires payment of $1,500.00 within 30 days of 1/15/22.") == []


# --- resolution ----------------------------------------------------------------------------


BREAK = BRIEF.index("In 2019")  # page 2 starts here


def test_short_supra_and_id_citations_resolve_to_their_full_citation_across_pages() -> None:
    found = find_authorities(pages(BRIEF[:BREAK], BRIEF[BREAK:]))
    by_form = [(a.form, a.key, a.pin_cite) for a in found]
    assert ("full", "365 U.S. 167", "171") in by_form
    assert ("short", "365 U.S. 167", "180") in by_form  # Monroe, 365 U.S. at 180
    assert ("id", "365 U.S. 167", "at 183") in by_form  # Id. at 183
    assert ("supra", "451 U.S. 527", "at 530") in by_form  # Parratt, supra, at 530
    assert ("full", "Rule 29.12(c)", None) in by_form  # a state rule stays one, though the brief cites FRCP too
    assert by_form[-1] == ("id", "29 C.F.R. § 1630.2", None)
    assert {a.page for a in found} == {1, 2}
    assert all(p.text[a.char_start : a.char_end] == a.text for a in found for p in pages(BRIEF[:BREAK], BRIEF[BREAK:])
               if p.number == a.page)  # fmt: skip


def test_an_id_after_a_rule_eyecite_cannot_see_means_that_rule_not_the_case_before_it() -> None:
    text = "See Monroe v. Pape, 365 U.S. 167 (1961). The motion is governed by Fed. R. Civ. P. 12(b)(6). Id."
    assert [(a.form, a.key) for a in find_authorities(pages(text))][-1] == ("id", "Fed. R. Civ. P. 12(b)(6)")


def test_case_display_carries_the_case_name_court_and_year() -> None:
    (a,) = [x for x in find_authorities(pages(BRIEF)) if x.key == "451 U.S. 527"][:1]
    assert a.display == "Parratt v. Taylor, 451 U.S. 527 (1981)"


def test_an_id_with_a_star_pin_after_a_reporter_case_means_the_last_westlaw_case() -> None:
    text = (
        "United States v. Qin, 2023 WL 128600, at *2 (1st Cir. Jan. 9, 2023). This was the rule under "
        "Alasaad v. Mayorkas, 988 F.3d 8, 12 (1st Cir. 2021). Id. at *8 n.9."
    )
    found = find_authorities(pages(text))
    assert (found[-1].form, found[-1].key, found[-1].pin_cite) == ("id", "2023 WL 128600", "at *8 n.9")


# --- treatment --------------------------------------------------------------------------------

TREATMENT = [
    ("See Monroe v. Pape, 365 U.S. 167 (1961).", Treatment.CITED),
    ("See also Monroe v. Pape, 365 U.S. 167 (1961).", Treatment.CITED),
    ("Cf. Monroe v. Pape, 365 U.S. 167 (1961).", Treatment.CITED),
    ("The statute reaches state officers. Monroe v. Pape, 365 U.S. 167 (1961).", Treatment.CITED),
    ("But see Monroe v. Pape, 365 U.S. 167 (1961).", Treatment.DISTINGUISHED),
    ("We distinguish Monroe v. Pape, 365 U.S. 167 (1961), because no officer acted here.", Treatment.DISTINGUISHED),
    ("Monroe v. Pape, 365 U.S. 167 (1961), is distinguishable on its facts.", Treatment.DISTINGUISHED),
    ("Unlike Monroe v. Pape, 365 U.S. 167 (1961), this case involves no state actor.", Treatment.DISTINGUISHED),
    ("The panel declined to follow Monroe v. Pape, 365 U.S. 167 (1961), in this context.", Treatment.DISTINGUISHED),
    ("Monroe v. Pape, 365 U.S. 167 (1961), was overruled in part on other grounds.", Treatment.OVERRULED),
    ("Monroe v. Pape, 365 U.S. 167 (1961), overruled by Monell v. Dep't of Soc. Servs., 436 U.S. 658 (1978).",
     Treatment.OVERRULED),
    ("The Court expressly overruled Monroe v. Pape, 365 U.S. 167 (1961), in part.", Treatment.OVERRULED),
    ("Following Monroe v. Pape, 365 U.S. 167 (1961), we hold the officers liable.", Treatment.FOLLOWED),
    ("Applying Monroe v. Pape, 365 U.S. 167 (1961), the court found state action.", Treatment.FOLLOWED),
    ("We follow Monroe v. Pape, 365 U.S. 167 (1961), and reverse.", Treatment.FOLLOWED),
    ("Relying on Monroe v. Pape, 365 U.S. 167 (1961), the district court denied the motion.", Treatment.FOLLOWED),
    ("In Monroe v. Pape, 365 U.S. 167 (1961), the Court held that officers act under color of law.",
     Treatment.DISCUSSED),
    ("The parties discuss Monroe v. Pape, 365 U.S. 167 (1961), at length.", Treatment.DISCUSSED),
    ("The court explained in Monroe v. Pape, 365 U.S. 167 (1961), that misuse of power is enough.",
     Treatment.DISCUSSED),
    ("See 42 U.S.C. § 1983.", Treatment.CITED),
    ("We decline to follow 42 U.S.C. § 1983 as the district court read it.", Treatment.DISTINGUISHED),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "treatment"), TREATMENT, ids=[s[:50] for s, _ in TREATMENT])
def test_treatment_comes_from_signals_and_verbs_around_the_citation(sentence: str, treatment: Treatment) -> None:
    found = find_authorities(pages(f"The appeal turns on one question. {sentence} The judgment is affirmed."))
    assert found[0].treatment is treatment


def test_overruled_by_marks_the_earlier_case_and_only_cites_the_later_one() -> None:
    found = find_authorities(pages(TREATMENT[10][0]))
    assert [(a.key, a.treatment) for a in found] == [
        ("365 U.S. 167", Treatment.OVERRULED),
        ("436 U.S. 658", Treatment.CITED),
    ]


def test_mentions_are_exact_slices_of_their_page() -> None:
    ps = pages("Intro text.\n" + BRIEF, "Second page cites 42 USC 1983 and Id.")
    found = find_authorities(ps)
    assert found
    for a in found:
        assert ps[a.page - 1].text[a.char_start : a.char_end] == a.text


def test_a_slip_opinions_own_running_head_and_syllabus_page_refs_are_no_authority_or_name() -> None:
    from casetrack.domain import ExtractionMethod, ParsedPage
    from casetrack.graph import find_authorities

    syllabus = "The Court of Appeals affirmed. Pp. 8–13. 631 F. 3d 213, vacated and remanded."
    head = "Cite as: 570 U. S. ____ (2013)\n\nOpinion of the Court. See Grutter v. Bollinger, 539 U. S. 306 (2003)."
    pages = [ParsedPage(1, syllabus, ExtractionMethod.NATIVE), ParsedPage(2, head, ExtractionMethod.NATIVE)]
    found = find_authorities(pages)
    assert [(a.key, a.display) for a in found] == [
        ("631 F.3d 213", "631 F.3d 213"),  # not "Pp. 8–13., 631 F.3d 213"
        ("539 U.S. 306", "Grutter v. Bollinger, 539 U.S. 306 (2003)"),  # and no "570 U.S. ____" of its own
    ]
