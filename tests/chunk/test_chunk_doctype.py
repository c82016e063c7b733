"""Document types from filename and opening text, on eval-dev and on typical openings."""

from __future__ import annotations

import pytest

from casetrack.chunk import infer_document_type
from casetrack.chunk.doctype import SCAN_CHARS
from casetrack.domain import DocumentType as T
from tests.chunk.chunk_evaldev import TEXT_DIR

EXPECTED = {
    # A clerk's docketing notice: a form letter from the Clerk of Court to counsel
    # ("This number must appear on all documents", "Inquiries ... may be directed to").
    # It decides nothing, so not case_law; it is nobody's filing, so not a motion or
    # pleading: of the PRD's types it is correspondence from the court.
    "ca2_docketing_notice_nfl_2017.pdf": T.CORRESPONDENCE,
    # A Rule 28(j) letter to the Clerk ("Dear Mr. Gans", "Via ECF"): correspondence.
    "ca8_rule_28j_letter_us_v_xiang_2023.pdf": T.CORRESPONDENCE,
    # Mutual NDA cover page and standard terms: a contract.
    "common_paper_mutual_nda_v1.docx": T.CONTRACT,
    # CUAD agreements filed with the SEC (labelled "EXHIBIT 10.x" by the filing, but
    # each is itself a contract).
    "cuad_biopure_agency_agreement.txt": T.CONTRACT,
    "cuad_driven_deliveries_consulting_agreement.docx": T.CONTRACT,
    "cuad_ebix_cobranding_agreement.pdf": T.CONTRACT,
    "cuad_lucid_distributor_agreement.pdf": T.CONTRACT,
    "cuad_netgear_distributor_agreement.pdf": T.CONTRACT,
    "scan_cuad_ominto_reseller_agreement_p1.png": T.CONTRACT,
    # Court of appeals orders ("ORDER", "may show cause", "ORDERS the parties"):
    # court-issued decisions map to case_law.
    "scan_ca10_order_in_re_liebowitz_2021.pdf": T.CASE_LAW,
    "scan_ca7_order_fedex_ground_2017.tiff": T.CASE_LAW,
}


def test_expectations_cover_every_eval_dev_text():
    assert {p.name.removesuffix(".txt") for p in TEXT_DIR.glob("*.txt")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("use_filename", [True, False], ids=["with-filename", "content-only"])
def test_eval_dev_types(name, use_filename):
    text = (TEXT_DIR / f"{name}.txt").read_text(encoding="utf-8")
    doc_type, confidence = infer_document_type(name if use_filename else "upload.pdf", text)
    assert doc_type is EXPECTED[name]
    assert 0.5 <= confidence <= 1.0


OPENINGS = [
    (
        "complaint.pdf",
        [
            "UNITED STATES DISTRICT COURT",
            "COMPLAINT FOR DAMAGES",
            "JURY TRIAL DEMANDED",
            "Plaintiff alleges as follows:",
            "COUNT I",
            "WHEREFORE, Plaintiff prays",
        ],
        T.PLEADING,
    ),
    (
        "doc.pdf",
        [
            "DEFENDANT'S MOTION TO DISMISS",
            "Defendant hereby moves this Court pursuant to Fed. R. Civ. P. 12(b)(6).",
            "MEMORANDUM OF POINTS AND AUTHORITIES IN SUPPORT",
        ],
        T.MOTION,
    ),
    (
        "doc.pdf",
        [
            "BRIEF OF APPELLANT",
            "TABLE OF CONTENTS",
            "TABLE OF AUTHORITIES",
            "STATEMENT OF THE ISSUES",
            "SUMMARY OF ARGUMENT",
            "STANDARD OF REVIEW",
        ],
        T.BRIEF,
    ),
    (
        "msg.eml",
        [
            "From: a@example.com",
            "To: b@example.com",
            "Subject: Settlement",
            "Sent: Monday",
            "",
            "Dear Counsel,",
            "Please find attached.",
            "Best regards",
        ],
        T.CORRESPONDENCE,
    ),
    (
        "doc.pdf",
        [
            "DEPOSITION OF JOHN SMITH",
            "EXAMINATION BY MR. JONES",
            "Q. Please state your name.",
            "A. John Smith.",
            "Q. Where do you work?",
            "A. Acme.",
        ],
        T.DEPOSITION,
    ),
    (
        "ws_smith.docx",
        [
            "WITNESS STATEMENT OF JANE DOE",
            "I make this statement from my own knowledge.",
            "Statement of truth",
        ],
        T.DEPOSITION,
    ),
    (
        "doc.pdf",
        [
            "PLAINTIFF'S FIRST SET OF INTERROGATORIES",
            "Propounding Party: Plaintiff",
            "Responding Party: Defendant",
            "INTERROGATORY NO. 1:",
        ],
        T.DISCOVERY,
    ),
    (
        "doc.pdf",
        [
            "AN ACT to amend the tax code.",
            "Be it enacted by the Senate and House of Representatives",
            "SECTION 1. Short title.",
            "Sec. 2. Definitions. subsection (a)",
        ],
        T.STATUTE,
    ),
    (
        "doc.pdf",
        [
            "OPINION",
            "Before SMITH and JONES, Circuit Judges.",
            "PER CURIAM.",
            "The judgment of the district court is AFFIRMED.",
            "IT IS SO ORDERED.",
        ],
        T.CASE_LAW,
    ),
    (
        "exhibit_b_bundle.pdf",
        [
            "Invoice 2231",
            "Amount due: 400",
        ],
        T.EXHIBIT,
    ),
]


@pytest.mark.parametrize(("filename", "lines", "expected"), OPENINGS, ids=[o[2].value for o in OPENINGS])
def test_typical_openings(filename, lines, expected):
    assert infer_document_type(filename, "\n".join(lines))[0] is expected


def test_nothing_recognisable_is_other_with_middling_confidence():
    doc_type, confidence = infer_document_type("scan0001.pdf", "Lorem ipsum dolor sit amet.")
    assert doc_type is T.OTHER
    assert confidence == 0.5


def test_only_the_opening_text_is_read():
    late = "x " * SCAN_CHARS + "\nDEPOSITION OF JOHN SMITH\nEXAMINATION BY MR. JONES"
    assert infer_document_type("file.pdf", late)[0] is T.OTHER


def test_confidence_grows_with_evidence():
    weak = infer_document_type("file.pdf", "This Agreement is made today.")
    strong = infer_document_type("agreement.pdf", "This Agreement is made today. WHEREAS the parties hereby agree")
    assert weak[0] is strong[0] is T.CONTRACT
    assert weak[1] < strong[1]


# Court documents in their usual US federal form, read without a helpful filename.


def test_a_complaint_is_known_by_its_caption_title_and_jury_demand():
    text = (
        "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF NEW YORK\n\nJOHN SMITH,\n    Plaintiff,\n  v.\n"
        "ACME LOGISTICS, INC.,\n    Defendant.\n\nCOMPLAINT AND DEMAND FOR JURY TRIAL\n\n"
        "Plaintiff John Smith, by and through his undersigned counsel, alleges as follows:\n"
    )
    assert infer_document_type("scan0042.pdf", text)[0] is T.PLEADING


def test_a_code_section_is_known_by_its_title_heading_and_source_note():
    text = (
        "TITLE 15—COMMERCE AND TRADE\nCHAPTER 2B—SECURITIES EXCHANGES\n\n§78j. Manipulative and deceptive devices\n\n"
        "It shall be unlawful for any person, directly or indirectly, to use any manipulative device.\n\n"
        "(June 6, 1934, ch. 404, title I, §10, 48 Stat. 891; Pub. L. 111–203, title IX, §929L, 124 Stat. 1860.)\n"
    )
    doc_type, confidence = infer_document_type("scan0042.pdf", text)
    assert doc_type is T.STATUTE
    assert confidence >= 0.6


def test_a_brief_for_a_hyphenated_party_is_a_brief():
    text = "No. 21-1832\n\nIN THE UNITED STATES COURT OF APPEALS\n\nBRIEF FOR DEFENDANT-APPELLANT\n\nARGUMENT\n"
    assert infer_document_type("scan0042.pdf", text)[0] is T.BRIEF


def test_a_contract_quoting_a_title_field_is_still_a_contract():
    text = "THIS AGREEMENT is made today. WHEREAS the parties hereby agree as follows:\nTITLE: Vice President\n"
    assert infer_document_type("scan0042.pdf", text)[0] is T.CONTRACT


# Court decisions as a research database exports them, and as courts title them. Each opening mentions a motion
# or counsel's plea ("Motion to", "Plaintiffs allege") the way the decision recites it; before the court's own
# title line and star pages counted, each was typed a motion (or correspondence, from a "Date:" header line).
COURT_DECISIONS = [
    "Court: U.S. District Court\nDate: March 10, 2022\n\n590 F.Supp.3d 850\n\nSigned March 10, 2022\n\n"
    "[590 F.Supp.3d 855]\n\nMEMORANDUM OPINION AND ORDER\n\nBefore the court is Plaintiffs' Motion to Strike. "
    "Plaintiffs allege that the statute is unconstitutional.",
    "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF NEW YORK\n\nORDER GRANTING MOTION TO DISMISS\n\n"
    "Defendant moves to dismiss under Rule 12(b)(6). Plaintiffs allege breach of contract.",
    "SUPREME COURT OF THE UNITED STATES\n\nJUSTICE O'CONNOR delivered the opinion of the Court.\n\n"
    "Petitioner filed a motion to intervene below.",
    "DECISION AND ORDER\n\nThe motion for summary judgment is before the Court. Plaintiffs allege negligence.",
]


@pytest.mark.parametrize("text", COURT_DECISIONS, ids=["memorandum opinion", "order granting", "opinion of the court",
                                                       "decision and order"])
def test_a_courts_decision_is_case_law_though_it_recites_a_motion(text: str) -> None:
    assert infer_document_type("download.txt", text)[0] is T.CASE_LAW


def test_a_motion_with_a_proposed_order_attached_is_still_a_motion() -> None:
    text = ("NOTICE OF MOTION AND MOTION TO DISMISS\n\nDefendant hereby moves the Court to dismiss.\n\n"
            "[PROPOSED] ORDER GRANTING MOTION TO DISMISS\n")
    assert infer_document_type("filing.pdf", text)[0] is T.MOTION


ORDER_ON_A_MOTION = (
    "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF NEW YORK\n\nHARBOR LOGISTICS LLC,\n    Plaintiff,\n  -v-\n"
    "MERIDIAN FREIGHT SYSTEMS,\n    Defendant.\n\n{title}\n\nJ. PAUL OETKEN, District Judge:\n\n"
    "Defendant moves the Court to dismiss the complaint. In support of its motion to dismiss, Defendant filed a "
    "memorandum in support. Plaintiff opposed the motion to dismiss. The motion to dismiss is DENIED.\n\nSO ORDERED.\n")


@pytest.mark.parametrize("title", ["ORDER ON DEFENDANT'S MOTION TO DISMISS", "MEMORANDUM OPINION AND ORDER"])
def test_an_order_on_a_motion_filed_as_the_motion_is_named_by_its_captions_title(title: str) -> None:
    # The file is named for the motion it decides ("MTD"), and the order recites the motion at length.
    assert infer_document_type("MTD.pdf", ORDER_ON_A_MOTION.format(title=title))[0] is T.CASE_LAW
    motion = ORDER_ON_A_MOTION.format(title="MOTION TO DISMISS").replace("J. PAUL OETKEN, District Judge:", "")
    assert infer_document_type("MTD.pdf", motion)[0] is T.MOTION


def test_an_agency_decision_is_a_decision_not_a_contract() -> None:
    # The opening of Matter of Laguerre, 28 I&N Dec. 437 (BIA 2022), a U.S. government work (benchmarks/heldout_court):
    # a motion it recites and a defined term ("DHS") once made it a contract, and contract clause types were put on it.
    text = ("Cite as 28 I&N Dec. 437 (BIA 2022) Interim Decision #4035\nMatter of Emmanuel LAGUERRE, Respondent\n"
            "Decided January 20, 2022\nU.S. Department of Justice Executive Office for Immigration Review Board of\n"
            "Immigration Appeals\nFOR THE DEPARTMENT OF HOMELAND SECURITY: Kyle T. Simpson, Associate Legal\nAdvisor\n"
            "BEFORE: Board Panel: WILSON and GORMAN, Appellate Immigration Judges.\n"
            "GORMAN, Appellate Immigration Judge:\nIn a decision dated August 10, 2020, an Immigration Judge "
            "granted the\nrespondent's motions to terminate his removal proceedings. The Department of Homeland "
            "Security (\u201cDHS\u201d) has appealed from this decision. The DHS's appeal will be sustained, and the "
            "record will be remanded.\n")
    assert infer_document_type("Matter of Laguerre 28 I&N Dec 437 (BIA 2022).pdf", text)[0] is T.CASE_LAW
