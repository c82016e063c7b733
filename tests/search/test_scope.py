"""Which documents a query names, by the words of their names."""

from __future__ import annotations

from casetrack.index.tokenize import tokenize
from casetrack.search.scope import DocumentNames, name_tokens, named_documents

NAMES = {
    "netgear": "cuad_netgear_distributor_agreement.pdf",
    "lucid": "cuad_lucid_distributor_agreement.pdf",
    "ebix": "cuad_ebix_cobranding_agreement.pdf",
    "biopure": "cuad_biopure_agency_agreement.txt",
    "nda": "common_paper_mutual_nda_v1.docx",
    "letter": "ca8_rule_28j_letter_us_v_xiang_2023.pdf",
    "notice": "ca2_docketing_notice_nfl_2017.pdf",
    "order": "scan_ca10_order_in_re_liebowitz_2021.pdf",
}


def _names(names: dict[str, str]) -> DocumentNames:
    return DocumentNames((doc, name_tokens(name)) for doc, name in names.items())


def _named(query: str, names: dict[str, str] = NAMES) -> tuple[set[str], set[str]] | None:
    scope = named_documents(tokenize(query), _names(names))
    return None if scope is None else (set(scope.documents), set(scope.name_words))


def test_a_distinctive_word_names_its_document_and_its_other_name_words_go_with_it() -> None:
    assert _named("Governing law clause of the NETGEAR distributor agreement") == (
        {"netgear"}, {"netgear", "distributor", "agreement"}
    )


def test_a_word_of_two_names_names_both_until_another_word_decides() -> None:
    names = {"a": "Smith deposition.pdf", "b": "Jones letter.pdf", "c": "Lease.pdf", "d": "Invoice.pdf",
             "e": "Smith photographs.pdf", "f": "Brown notes.pdf", "g": "Gray notes.pdf", "h": "Memo.pdf"}
    both = named_documents(tokenize("what did Smith say about the March meeting"), _names(names))
    assert both is not None and set(both.documents) == {"a", "e"} and both.strength == {"a": 1, "e": 1}
    one = named_documents(tokenize("what did Smith say about the meeting in the photographs"), _names(names))
    assert one is not None and set(one.documents) == {"e"} and 0 < one.strength["a"] < 1


def test_generic_words_add_to_a_naming_but_cannot_make_one() -> None:
    # "distributor" (a party's role) and "agreement" (a kind of document) are in two names each: alone they name
    # neither; beside "Lucid" they add to it.
    assert _named("non-compete covenant in the distributor agreement") is None
    assert _named("non-compete covenant in the Lucid distributor agreement") == (
        {"lucid"}, {"lucid", "distributor", "agreement"}
    )
    names = {"nc": "Democracy North Carolina v. NC State Board of Elections.pdf", "bva": "BVA decision 2025.txt",
             "al": "Alabama AG Opinion 2018-046.pdf", "ky": "Kentucky OAG 18-011.pdf"}
    assert named_documents(tokenize("What did the State Board decide about the appeal?"), _names(names)) is None
    assert named_documents(tokenize("the Kentucky attorney general opinion on write-ins"), _names(names)) is None


def test_a_word_in_many_names_names_nothing() -> None:
    assert _named("termination clause of the agreement") is None  # "agreement" is in 4 of 8 names
    assert _named("when does the lease end") is None


def test_a_query_that_is_only_a_name_is_ranked_as_it_is() -> None:
    assert _named("Lucid distributor agreement") is None


def test_file_words_and_the_only_document_of_a_case() -> None:
    assert _named("the PDF docketing notice") == ({"notice"}, {"docketing", "notice"})  # "pdf" names nothing
    assert _named("termination notice period", {"msa": "Acme MSA.pdf"}) is None  # nothing of the name in it
    assert _named("the Acme termination notice period", {"msa": "Acme MSA.pdf"}) == ({"msa"}, {"acme"})
    assert name_tokens("Acme_MSA.pdf") == {"acme", "msa"}


def test_a_word_most_documents_use_does_not_name_the_one_whose_name_holds_it() -> None:
    names = {"depo": "Notice of Deposition.pdf", "lease": "Office Lease.pdf", "a": "Complaint.pdf",
             "b": "Answer.pdf", "c": "Motion to Dismiss.pdf"}
    tokens = tokenize("notice period for ending the office lease")
    scope = named_documents(tokens, _names(names), {"notice": 5, "period": 3, "office": 1, "lease": 1}.__getitem__)
    assert scope is not None and set(scope.documents) == {"lease"}  # "office", "lease" name it; "notice" does not
    assert named_documents(tokenize("notice period"), _names(names), {"notice": 5, "period": 3}.__getitem__) is None
    # where only the named document's text says a (specific) word, the word names it
    names["depo"] = "Notice of Hartley Deposition.pdf"
    assert named_documents(tokenize("Hartley period"), _names(names), {"hartley": 5}.__getitem__) is None
    assert named_documents(tokenize("Hartley period"), _names(names), {"hartley": 1}.__getitem__) is not None


def test_a_document_number_in_a_name_matches_the_query_that_cites_it() -> None:
    names = {"a": "Alabama AG Opinion 2015-059 p1 scan.png", "b": "Alabama AG Opinion 2018-046 (probate judge).pdf"}
    assert name_tokens(names["a"]) >= {"alabama", "2015-059"}
    scope = named_documents(tokenize("Which probate judge asked for Alabama attorney general opinion 2015-059?"),
                            _names(names))
    assert scope is not None and set(scope.documents) == {"a"} and scope.by_identifier == {"a"}


def test_a_document_is_named_by_its_file_name_and_by_what_it_names_itself_with() -> None:
    from casetrack.search.scope import document_name_tokens

    tokens = document_name_tokens("PROD000123.pdf", {
        "opening": "Exhibit 10.18 MASTER SUPPLY AGREEMENT",
        "parties": "Fonterra (USA) Inc.; Premier Nutrition Company, LLC",
        "author": "jsmith",  # not a self-naming key: a PDF's author is whoever saved it
    })
    assert {"prod000123", "master", "supply", "fonterra", "premier", "nutrition"} <= tokens
    assert "jsmith" not in tokens and "pdf" not in tokens
    assert document_name_tokens("Re: Smith closing.eml", {"subject": "Re: Smith closing"}) >= {"smith", "closing"}


def test_a_documents_opening_is_its_first_words_on_one_line_cut_at_a_word() -> None:
    from casetrack.search.scope import opening

    first_page = ("Cite as 28 I&N Dec. 437 (BIA 2022)   Interim Decision #4035\n\n"
                  "Matter of Emmanuel LAGUERRE, Respondent\n")
    assert opening(first_page) == "Cite as 28 I&N Dec. 437 (BIA 2022) Interim Decision #4035 Matter of Emmanuel"
    assert opening("short title") == "short title"
    assert opening("x" * 200) == "x" * 80  # no space to cut at: cut at the limit


def test_names_looked_up_by_word_give_the_documents_a_scan_of_every_name_gives_in_the_same_order() -> None:
    names = _names({**NAMES, "second_netgear": "netgear_reseller_addendum.pdf"})
    plain = dict(names)
    for token in {t for tokens in plain.values() for t in tokens} | {"unknown", "12"}:
        assert names.holders(token) == [doc for doc, tokens in plain.items() if token in tokens], token
    assert names.holders("netgear") == ["netgear", "second_netgear"]


def test_a_paragraph_number_names_no_document_however_the_paragraph_is_asked_for() -> None:
    names = {**NAMES, "exhibit": "Exhibit 12 - invoices.pdf"}
    for asked in ("what does ¶ 12 of the complaint allege", "paragraph 12 of the complaint", "¶¶ 12(b) and 14"):
        assert _named(asked, names) is None
    assert _named("what is owed under the invoices in Exhibit 12", names) == ({"exhibit"}, {"12", "exhibit", "invoice"})
