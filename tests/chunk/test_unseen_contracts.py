"""How structure, document type, Bates detection and chunking do on documents they were not tuned on.

Fifteen CUAD v1 contracts outside eval-dev (`data/unseen/`, see its README: supply, licence,
services, consulting, franchise, distributor, reseller, joint venture, hosting, endorsement,
sponsorship, gas transportation, a manufacturing amendment; PDF text with a paragraph per line, EDGAR
text, redacted copies) are read as ingestion
reads them (`parse_file` on the .txt, then `infer_document_type`, `chunk_pages`, `extract_structure`
and `find_bates_number` per page), and checked for what a lawyer would notice: a wrong or missing
heading in the outline, a wrong type, a false Bates number, a passage cut inside a section number,
citation, defined term or word. Eight court-document openings in the usual US federal forms check
the types the contracts cannot.

`test_across_the_fifteen_contracts_...` holds the numbers to floors and shows them when one fails.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from casetrack.chunk import StructureEntry, chunk_pages, extract_structure, find_bates_number, infer_document_type
from casetrack.chunk.boundaries import ends_sentence
from casetrack.domain import ChunkSpan, DocumentType, ExtractionMethod, ParsedDocument, ParsedPage
from casetrack.parse import parse_file
from tests.chunk.test_chunk_provenance import check_invariants

UNSEEN = Path(__file__).parent / "data" / "unseen"
CONTRACTS = sorted(path.stem for path in UNSEEN.glob("*.txt"))
# The distinct size rules (the other types share OTHER's).
SIZE_TYPES = [DocumentType.CONTRACT, DocumentType.OTHER, DocumentType.PLEADING, DocumentType.DEPOSITION]

# File names as a lawyer's folder has them (and the exhibit names EDGAR gives them).
USER_FILENAMES = {
    "ability_services_agreement": "Telcostar - Services Agreement (Nov 2019).pdf",
    "acceleratedtech_joint_venture_agreement": "EX-10.13 Joint Venture Agreement MightyCell.txt",
    "adamsgolf_endorsement_agreement": "Ex. 7 - Watson Endorsement Agreement.pdf",
    "adma_amendment_3_manufacturing_agreement": "ADMA - Amendment #3 to Manufacturing Agreement.pdf",
    "agapeatp_odm_supply_agreement": "Ex. 4 - Supply Agreement.pdf",
    "airspan_distributor_agreement": "Airspan GLS Distributor Agmt 2000.txt",
    "airtech_franchise_agreement": "Airsopure Franchise Agreement (form).docx",
    "alliedesports_content_license_agreement": "WPT Zynga - Joint Content License.pdf",
    "arcgroup_sponsorship_agreement": "Jaguars sponsorship agreement - executed.pdf",
    "arconic_trademark_license_agreement": "Form of Trademark License Agreement.pdf",
    "atmos_transportation_service_agreement": "EX-10.17 Transportation Service Agreement.txt",
    "bangi_managed_hosting_agreement": "deep systems hosting agreement.pdf",
    "bravatek_reseller_agreement": "i3 ICS Reseller Agreement.pdf",
    "centrack_web_site_hosting_agreement": "Centrack i-on web hosting agreement 1999.txt",
    "coralgold_consulting_agreement": "Intermark Consulting Agreement 2020.pdf",
}


@cache
def parsed(name: str) -> ParsedDocument:
    return parse_file(UNSEEN / f"{name}.txt")


@cache
def outline(name: str) -> tuple[StructureEntry, ...]:
    return tuple(extract_structure(parsed(name).pages))


def one_page(name: str) -> tuple[ParsedPage, ...]:
    """The whole text as one page, as eval-dev's reference texts are chunked: long runs to split."""
    return (ParsedPage(1, (UNSEEN / f"{name}.txt").read_text(encoding="utf-8"), ExtractionMethod.NATIVE),)


def test_the_fixture_holds_fifteen_contracts_with_attribution():
    assert len(CONTRACTS) == 15 == len(USER_FILENAMES)
    assert set(CONTRACTS) == set(USER_FILENAMES)
    readme = (UNSEEN / "README.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in readme and "The Atticus Project" in readme
    assert all(f"`{name}.txt`" in readme for name in CONTRACTS)


# --- Outline -------------------------------------------------------------------------------

# The numbered headings of eight contracts, as read in the documents themselves (number, title;
# "" for a sub-section whose text follows its number without a title). Headings the extractor
# misses are listed apart, each with why: the expectation stays the document's, not the code's.
EXPECTED_NUMBERED = {
    "arconic_trademark_license_agreement": [
        ("1", "GRANT AND SCOPE OF LICENSE"),
        ("1.1", "Grant of License"),
        ("1.2", "Goodwill"),
        ("1.3", "Trademark Notices"),
        ("1.4", "Licensee Cooperation"),
        ("1.5", "Quality Control, Licensor Approvals"),
        ("1.6", "Compliance with Trademark Usage Guidelines"),
        ("2", "ENFORCEMENT OF INTELLECTUAL PROPERTY"),
        ("3", "INDEMNIFICATION"),
        ("4", "TERM AND TERMINATION"),
        ("4.1", "Term"),
        ("4.2", "Termination for Breach"),
        ("4.3", "Termination Upon Bankruptcy"),
        ("4.4", "Survival of Obligations; Return of Confidential Information"),
        ("5", "REPRESENTATIONS AND WARRANTIES"),
        ("5.1", ""),
        ("5.2", ""),
        ("5.3", "No Warranty"),
        ("6", "MISCELLANEOUS"),
        ("6.1", "Governing Law"),
        ("6.2", "Jurisdiction and Venue"),
        ("6.3", "Waiver"),
        ("6.4", "Waiver of Jury Trial"),
        ("6.5", "Notices"),
        ("6.6", "No Agency"),
        ("6.7", "Entire Agreement"),
        ("6.8", "Headings"),
        ("6.9", "Severability"),
        ("6.10", "Assignment"),
        ("6.11", "Counterparts; Images Signatures"),
    ],
    "atmos_transportation_service_agreement": [
        ("I", "DEFINITIONS"),
        ("1.1", ""),
        ("1.2", ""),
        ("1.3", ""),
        ("1.4", ""),
        ("II", "NATURAL GAS TRANSPORTATION SERVICE"),
        ("2.1", ""),
        ("2.2", ""),
        ("III", "POINT(S) OF RECEIPT"),
        ("IV", "POINT(S) OF DELIVERY"),
        ("V", "TERM OF AGREEMENT"),
        ("5.1", ""),
        ("5.2", ""),
        ("VI", "RATE SCHEDULE AND CHARGES"),
        ("6.1", ""),
        ("6.2", ""),
        ("VII", "REDUCTION IN CAPACITY"),
        ("VIII", "MISCELLANEOUS"),
        ("8.1", "Amendment"),
        ("8.2", "Applicable Law"),
        ("8.3", "Waiver"),
        ("8.4", "Headings"),
        ("8.5", "Further Assurances"),
        ("8.6", "Entire Agreement"),
        ("8.7", "Cancellation of Prior Agreement(s)"),
        ("IX", "NOTICES"),
        ("F", "Bid Evaluation Methodology"),  # item F of the attached capacity release notice
    ],
    "coralgold_consulting_agreement": [
        ("1", "ENGAGEMENT OF CONSULTANT"),
        ("1.1", ""),
        ("2", "SERVICES OF CONSULTANT"),
        ("2.1", ""),
        ("2.2", ""),
        ("2.3", ""),
        ("2.4", ""),
        ("3", "FEES"),
        ("3.1", ""),
        ("4", "TERM AND RENEWAL"),
        ("4.1", ""),
        ("4.2", ""),
        ("5", "TERMINATION"),
        ("5.1", ""),
        ("5.2", ""),
        ("5.3", ""),
        ("6", "CONFIDENTIALITY"),
        ("6.1", ""),
        ("6.2", ""),
        ("6.3", ""),
        ("6.4", ""),
        ("7", "NON-SOLICITATION"),
        ("7.1", ""),
        ("7.2", ""),
        ("8", "DISCLOSURE AND ASSIGNMENT OF PROJECTS AND WORKS"),
        ("8.1", ""),
        ("8.2", ""),
        ("9", "COMPLIANCE WITH LAWS"),
        ("9.1", ""),
        ("10", "INDEMNIFICATION"),
        ("10.1", ""),
        ("10.2", ""),
        ("10.3", ""),
        ("11", "REMEDIES"),
        ("11.1", ""),
        ("12", "RELATIONSHIP"),
        ("12.1", ""),
        ("12.2", ""),
        ("13", "SURVIVAL OF TERMS"),  # its 13.1 is printed "13.l", with a letter l
        ("14", "LIMITED AUTHORITY AS AGENT"),
        ("14.1", ""),
        ("15", "NO ASSIGNMENT"),
        ("15.1", ""),
        ("16", "SUCCESSORS AND ASSIGNS"),
        ("16.1", ""),
        ("17", "WAIVER"),
        ("17.1", ""),
        ("18", "GOVERNING LAWS"),
        ("18.1", ""),
        ("19", "FURTHER ASSURANCES"),
        ("19.1", ""),
        ("20", "NOTICES"),
        ("20.1", ""),
        ("21", "CONSTRUCTION"),
        ("21.1", ""),
        ("22", "SEVERABILITY"),
        ("22.1", ""),
        ("23", "COUNTERPARTS AND FACSIMILE"),  # "23.l" again
        ("24", "INDEPENDENT LEGAL ADVICE"),
        ("24.1", ""),
    ],
    "acceleratedtech_joint_venture_agreement": [
        ("1", "Name of the Joint Venture"),
        ("2", "Scope of the Joint Venture Business"),
        ("3", "Capital Contributions"),
        ("4", "Offices of the Joint Venture"),
        ("5", "Powers and Authority of the Joint Venturers"),
        ("6", "Division of Income and Losses"),
        ("7", "Accounting Provisions"),
        ("8", "Term of Joint Venture"),
        ("9", "Distributions"),
        ("10", "Internal Revenue Code Election"),
        ("11", "Procedure on Termination and Liquidation"),
        ("12", "Sale or Purchase of Interest of Joint Venturer Prohibited"),
        ("13", "Notice"),
        ("14", "Construction"),
        ("15", "Benefit"),
        ("16", "Counterparts"),
    ],
    "adamsgolf_endorsement_agreement": [
        ("1", "TERM OF CONTRACT"),
        ("2", "DEFINITIONS"),
        ("3", "CONSULTANT'S ENDORSEMENT"),
        ("4", "EXCLUSIVITY OF ENDORSEMENT"),
        ("5", "EXCLUSIVE USE OF PRODUCT"),
        ("6", "CONSULTANT'S ENDORSEMENT OF NON-COMPETITIVE PRODUCT"),
        ("7", "CONSULTANT'S SATISFACTION OF MANDATORY PRODUCT"),
        ("8", "MINIMUM NUMBER OF TOURNAMENTS AND POTENTIAL REPAYMENT OF BASE COMPENSATION"),
        ("9", "PRODUCT DESIGN"),
        ("10", "PROMOTION OF PRODUCT"),
        ("11", "PROMOTIONAL APPEARANCES"),
        ("12", "BEHAVIOR"),
        ("13", "FREEDOM TO CONTRACT"),
        ("14", "INDEMNITY"),
        ("15", "ABSENCE OF AGENCY"),
        ("16", "MEMBERSHIPS"),
        ("17", "SUPPLY OF PRODUCT"),
        ("18", "BASE COMPENSATION"),
        ("19", "PERFORMANCE BONUSES AND TOTAL COMPENSATION LIMITATION"),
        ("20", "APPROVAL OF ADVERTISING"),
        ("21", "INDEMNITY"),
        ("22", "FAILURE TO PLAY"),
        ("23", "TERMINATION FOR CAUSE"),
        ("24", "ADAMS GOLF'S RIGHTS UPON TERMINATION"),
        ("24", "SIGNIFICANCE OF HEADINGS"),  # the contract numbers two sections 24
        ("25", "APPLICABLE LAW"),
        ("26", "ENTIRE AGREEMENT"),
        ("27", "WAIVER"),
        ("28", "EXECUTION AND DELIVERY REQUIRED"),
        ("29", "SEVERABILITY"),
        ("30", "RELATIONSHIP"),
        ("31", "ASSIGNMENT AND CHANGE OF CONTROL"),
        ("32", "CONFIDENTIALITY"),
        ("33", "ARBITRATION"),
        ("34", "NOTICE"),
    ],
    "alliedesports_content_license_agreement": [
        ("1", "Joint Content License Relationship"),
        ("2", "Territory"),
        ("3", "Term"),
        ("4", "Annual Minimum Guarantee"),
        ("5", "Royalty"),
        # ADDITIONAL PROVISIONS, numbered from 1 again (their "a." "b." items are not listed)
        ("1", "DEFINITIONS"),
        ("2", "TRADEMARKS, APPROVALS, AND RESERVATION OF RIGHTS"),
        ("3", "PAYMENT"),
        ("4", "REPRESENTATIONS AND WARRANTIES; LIMITATIONS OF LIABILITY"),
        ("5", "INDEMNIFICATION"),
        ("6", "TERMINATION"),
        ("7", "RIGHTS AND OBLIGATIONS UPON TERMINATION OR EXPIRATION"),
        ("8", "CONFIDENTIALITY"),
        ("9", "INDEPENDENT CONTRACTORS"),
        ("10", "MISCELLANEOUS"),
    ],
    "airtech_franchise_agreement": [  # sections and titled sub-sections; untitled ones below
        ("1", "GRANT OF FRANCHISE"),
        ("2", "TERM AND RENEWAL"),
        ("3", "FEES"),
        ("4", "DUTIES OF AIRSOPURE"),
        ("5", "YOUR DUTIES"),
        ("6", "PURCHASE AND SALE OF PRODUCTS"),
        ("7", "LICENSED MARKS"),
        ("8", "OPERATIONS MANUAL"),
        ("9", "ACCOUNTING AND RECORDS"),
        ("10", "MARKETING AND ADVERTISING"),
        ("11", "INSURANCE"),
        ("12", "TRANSFER OF INTEREST"),
        ("12.01", "Transfer by AIRSOPURE"),
        ("12.02", "Transfer by You"),
        ("12.03", "Right of First Refusal"),
        ("12.04", "Transfer Upon Death or Mental Incapacity"),
        ("12.05", "Operation of Franchise by AIRSOPURE"),
        ("12.06", "Non-Waiver of Claims"),
        ("13", "CONFIDENTIAL INFORMATION"),
        ("14", "DEFAULT AND TERMINATION"),
        ("15", "OBLIGATIONS UPON TERMINATION"),
        ("16", "COVENANTS"),
        ("17", "INDEMNIFICATION"),
        ("18", "GENERAL PROVISIONS"),
        ("18.02", "Unforeseen Events"),
        ("19", "APPLICABLE LAW AND MEDIATION"),
        # Exhibit G, the confidentiality agreement, numbered from 1 again
        ("1", "CONFIDENTIAL INFORMATION"),
        ("2", "OPERATIONS MANUAL AS TRADE SECRET"),
        ("3", "CONFIDENTIAL INFORMATION"),
        ("4", "NO INTERFERENCE WITH BUSINESS"),
        ("5", "REMEDIES"),
        ("6", "EFFECT OF WAVIER"),
        ("7", "BINDING EFFECT"),
        ("8", "ENTIRE AGREEMENT"),
        ("9", "GOVERNING LAW"),
        ("10", "JURISDICTION AND VENUE"),
        ("11", "SEVERABILITV"),
        ("12", "COST OF ENFORCEMENT"),
    ],
}
KNOWN_MISSES = {
    # Follows an address block with no stop before it: "Attn: General Counsel 6.6 No Agency. Nothing ..."
    "arconic_trademark_license_agreement": [("6.6", "No Agency")],
    # "BASIC PROVISIONS 1. Joint Content ...": a capitalised label, no stop, before the number; and
    # "July 1, 2020: $1.5M 5. Royalty. Zynga ...": an amount, no stop, before it.
    "alliedesports_content_license_agreement": [("1", "Joint Content License Relationship"), ("5", "Royalty")],
    # Titles run into their text with no stop ("12.04.   Transfer Upon Death or Mental Incapacity Upon
    # Your death ..."): where the title ends cannot be read, so these are listed by number only.
    "airtech_franchise_agreement": [
        ("12.04", "Transfer Upon Death or Mental Incapacity"),
        ("12.05", "Operation of Franchise by AIRSOPURE"),
        ("12.06", "Non-Waiver of Claims"),
    ],
}
# The franchise agreement's sub-sections (1.01, 1.02, 2.01, ...): how many each section has.
AIRTECH_SUB_SECTION_COUNTS = {1: 2, 2: 2, 3: 1, 4: 2, 5: 1, 6: 2, 7: 6, 8: 3, 9: 5, 10: 4, 11: 4, 12: 6, 13: 2, 14: 4,
                              15: 1, 16: 5, 17: 2, 18: 13}
AIRTECH_SUB_SECTIONS = [f"{s}.{n:02d}" for s, count in AIRTECH_SUB_SECTION_COUNTS.items() for n in range(1, count + 1)]
EXPECTED_CAPS_HEADINGS = {
    "centrack_web_site_hosting_agreement": [
        "WEB SITE HOSTING AGREEMENT",
        "DEFINITIONS",
        "SERVICES PROVIDED TO THE CUSTOMER",
        "RESPONSIBILITIES OF THE CUSTOMER",
        "CONDITIONS OF SERVICE",
        "TERM AND TERMINATION",
        "LIMITATION OF LIABILITY",
        "INDEMNIFICATION",
        "THIRD-PARTY SOFTWARE",
        "MISCELLANEOUS",
    ],
    "acceleratedtech_joint_venture_agreement": [
        "JOINT VENTURE AGREEMENT",
        "EXHIBIT A",
        "GENERAL RESPONSIBILITIES OF THE PARTIES",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_NUMBERED))
def test_the_numbered_headings_a_lawyer_reads_are_the_outline(name):
    found = [(e.number, e.title) for e in outline(name) if e.number is not None]
    if name == "airtech_franchise_agreement":  # its untitled sub-sections are checked below
        found = [(number, title) for number, title in found if title or "." not in number]
    missed = KNOWN_MISSES.get(name, [])
    assert found == [entry for entry in EXPECTED_NUMBERED[name] if entry not in missed]


def test_every_sub_section_of_the_franchise_agreement_is_listed():
    found = [e.number for e in outline("airtech_franchise_agreement") if e.number and "." in e.number]
    assert found == AIRTECH_SUB_SECTIONS


@pytest.mark.parametrize("name", sorted(EXPECTED_CAPS_HEADINGS))
def test_unnumbered_capital_headings_are_the_outline(name):
    assert [e.title for e in outline(name) if e.number is None] == EXPECTED_CAPS_HEADINGS[name]


def test_group_headings_over_numbered_sections_are_kept():
    titles = {e.title for e in outline("adamsgolf_endorsement_agreement") if e.number is None}
    groups = {"CONTRACT PERIOD", "CONSULTANT'S OBLIGATIONS", "ADAMS GOLF'S OBLIGATIONS", "TERMINATION"}
    assert groups | {"MISCELLANEOUS PROVISIONS"} <= titles


_DANGLING = {"of", "the", "and", "or", "to", "for", "with", "in", "by", "a", "an", "at", "on", "this", "that", "such"}


def _value(number: str) -> tuple[int, ...] | None:
    """A section number as integers ("VIII" of an ARTICLE is (8,)), None for a lettered item."""
    if re.fullmatch(r"\d+(?:\.\d+)*", number):
        return tuple(int(part) for part in number.split("."))
    if re.fullmatch(r"[IVX]+", number):
        values = [{"I": 1, "V": 5, "X": 10}[c] for c in number]
        return (sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0], strict=True)),)
    return None


def outline_problems(entries: Sequence[StructureEntry], pages: Sequence[ParsedPage]) -> list[str]:
    """What a lawyer would find wrong in an outline without knowing the document: body sentences
    taken for headings, numbers out of order, a running header listed on every page."""
    problems = []
    texts = {p.number: p.text for p in pages}
    top: tuple[int, ...] | None = None  # the current section's number
    siblings: dict[tuple[int, ...], tuple[int, ...]] = {}  # parent -> last child read
    for e in entries:
        where = f"p{e.page} {e.number} {e.title!r}"
        words = e.title.split()
        if len(words) > 10 or len(e.title) > 90 or (words and len(words[-1]) > 1 and words[-1].lower() in _DANGLING):
            problems.append(f"not a title: {where}")
        if any(w[0].islower() and w.lower() not in _DANGLING | {"as", "under", "upon", "its"} for w in words):
            problems.append(f"a sentence, not a title: {where}")
        span = " ".join(texts[e.page][e.char_start : e.char_end].split())
        if not span.rstrip(".:").endswith(" ".join(words).rstrip(".:")) or (e.number and e.number not in span):
            problems.append(f"offsets do not hold the heading: {where}: {span!r}")
        value = _value(e.number) if e.number else None
        if value is None:
            continue
        if len(value) == 1:
            if top is not None and value[0] < top[0] and value[0] != 1:
                problems.append(f"section number goes back: {where} after {top}")
            top = value
            continue
        parent = value[:-1]
        if top is not None and parent[0] != top[0]:
            problems.append(f"sub-section outside its section: {where} in {top}")
        previous = siblings.get(parent)
        if previous is not None and value <= previous:
            problems.append(f"sub-section number goes back: {where} after {previous}")
        siblings[parent] = value
    by_title = Counter((e.number, e.title) for e in entries if e.title)
    pages_of = {key: {e.page for e in entries if (e.number, e.title) == key} for key in by_title}
    problems += [f"repeated on {len(p)} pages: {k}" for k, p in pages_of.items() if len(p) >= 3]
    return problems


@pytest.mark.parametrize("name", CONTRACTS)
def test_every_outline_is_sane(name):
    assert outline_problems(outline(name), parsed(name).pages) == []


# --- Document type -------------------------------------------------------------------------


@pytest.mark.parametrize("name", CONTRACTS)
def test_each_contract_is_typed_a_contract_with_or_without_a_helpful_name(name):
    doc_type, confidence = infer_document_type(USER_FILENAMES[name], parsed(name).text)
    assert doc_type is DocumentType.CONTRACT
    assert confidence >= 0.7
    doc_type, confidence = infer_document_type("scan0042.pdf", parsed(name).text)
    assert doc_type is DocumentType.CONTRACT
    assert confidence >= 0.5


# Openings of court documents in the usual US federal forms (written for this test, names invented).
COURT_OPENINGS = {
    DocumentType.PLEADING: (
        "Complaint - Smith v Jones.pdf",
        """UNITED STATES DISTRICT COURT
SOUTHERN DISTRICT OF NEW YORK

JOHN SMITH,
                    Plaintiff,
        v.                                          Case No. 1:19-cv-04521
ACME LOGISTICS, INC.,
                    Defendant.

COMPLAINT AND DEMAND FOR JURY TRIAL

Plaintiff John Smith, by and through his undersigned counsel, alleges as follows:

NATURE OF THE ACTION
1. This is an action for breach of contract and for unpaid overtime under the Fair Labor Standards
Act, 29 U.S.C. § 201 et seq.

JURISDICTION AND VENUE
2. This Court has subject matter jurisdiction under 28 U.S.C. § 1331 and § 1367.
3. Venue is proper in this District under 28 U.S.C. § 1391(b).

FIRST CAUSE OF ACTION
(Breach of Contract)
4. Plaintiff repeats and realleges each allegation above.
""",
    ),
    DocumentType.MOTION: (
        "Def Motion to Dismiss (ECF 23).pdf",
        """UNITED STATES DISTRICT COURT
NORTHERN DISTRICT OF ILLINOIS
EASTERN DIVISION

JANE DOE,                                   )
            Plaintiff,                      )   No. 1:20-cv-03312
      v.                                    )
MIDWEST BANK, N.A.,                         )   Judge Sara L. Ellis
            Defendant.                      )

DEFENDANT'S MOTION TO DISMISS PLAINTIFF'S AMENDED COMPLAINT

Defendant Midwest Bank, N.A. ("Midwest"), by its attorneys, respectfully moves this Court under
Federal Rule of Civil Procedure 12(b)(6) to dismiss the Amended Complaint with prejudice. In
support, Midwest states as follows:

1. The Electronic Fund Transfer Act does not reach the wire transfer at issue. See 15 U.S.C. § 1693a(7).
2. The grounds are set out in the accompanying Memorandum of Law in Support.
""",
    ),
    DocumentType.BRIEF: (
        "Appellant Opening Brief.pdf",
        """No. 21-1832

IN THE UNITED STATES COURT OF APPEALS
FOR THE SECOND CIRCUIT

UNITED STATES OF AMERICA,
                              Appellee,
                   v.
WEI QIN,
                              Defendant-Appellant.

On Appeal from the United States District Court for the Eastern District of New York

BRIEF FOR DEFENDANT-APPELLANT

TABLE OF CONTENTS
TABLE OF AUTHORITIES ......................................... ii
STATEMENT OF JURISDICTION ..................................... 1
STATEMENT OF THE ISSUES PRESENTED FOR REVIEW ................... 2
STATEMENT OF THE CASE ......................................... 3
SUMMARY OF ARGUMENT ........................................... 7
ARGUMENT ...................................................... 9
""",
    ),
    DocumentType.CASE_LAW: (
        "2019-04-02 Order.pdf",
        """UNITED STATES DISTRICT COURT
DISTRICT OF MASSACHUSETTS

IN RE: NEXIUM ANTITRUST LITIGATION            MDL No. 2409

ORDER

YOUNG, D.J.                                   April 2, 2019

The Court has considered the parties' joint motion to extend the deadline for expert reports
(ECF No. 412). For good cause shown, the motion is GRANTED. It is hereby ORDERED that:

1. Opening expert reports are due on or before May 15, 2019.
2. Rebuttal expert reports are due on or before June 14, 2019.

SO ORDERED.
""",
    ),
    DocumentType.DEPOSITION: (
        "Chen Depo Tr 2019-03-05.pdf",
        """                                                                 Page 14
 1   UNITED STATES DISTRICT COURT
 2   DISTRICT OF DELAWARE
 3
 4   VIDEOTAPED DEPOSITION OF ROBERT CHEN
 5   Wilmington, Delaware
 6   Tuesday, March 5, 2019
 7
 8            Q.   Mr. Chen, where were you employed in 2017?
 9            A.   At Acme Logistics, in the finance group.
10            Q.   Did you review the supply agreement before it was signed?
11            MS. PATEL: Objection. Form.
12            THE WITNESS: I saw a draft of it.
13            Q.   (BY MR. DAVIS) When did you see that draft?
14            A.   Sometime in the spring, I believe April.
""",
    ),
    DocumentType.DISCOVERY: (
        "Pl 1st RFPs to Bluewave.pdf",
        """UNITED STATES DISTRICT COURT
CENTRAL DISTRICT OF CALIFORNIA

ORION MEDICAL, INC.,                      Case No. 2:18-cv-07731-ODW
            Plaintiff,
      v.
BLUEWAVE DEVICES LLC,
            Defendant.

PLAINTIFF ORION MEDICAL, INC.'S FIRST SET OF REQUESTS FOR PRODUCTION OF DOCUMENTS

PROPOUNDING PARTY: Plaintiff Orion Medical, Inc.
RESPONDING PARTY: Defendant Bluewave Devices LLC
SET NO.: One

REQUEST FOR PRODUCTION NO. 1:
All communications between YOU and any distributor concerning the Model 7 pump.
""",
    ),
    DocumentType.CORRESPONDENCE: (
        "2019-09-12 Letter to Judge Engelmayer.pdf",
        """KIRKWOOD & LANE LLP
1200 Seventeenth Street NW
Washington, DC 20036

September 12, 2019

VIA ECF

The Honorable Paul A. Engelmayer
United States District Judge
Southern District of New York

Re: Smith v. Acme Logistics, Inc., No. 1:19-cv-04521 (PAE)

Dear Judge Engelmayer:

We write on behalf of Defendant Acme Logistics, Inc. to request a pre-motion conference regarding
Plaintiff's deficient responses to Defendant's First Set of Interrogatories.

Respectfully submitted,
""",
    ),
    DocumentType.STATUTE: (
        "15 USC 78j.pdf",
        """TITLE 15—COMMERCE AND TRADE
CHAPTER 2B—SECURITIES EXCHANGES

§78j. Manipulative and deceptive devices

It shall be unlawful for any person, directly or indirectly, by the use of any means or
instrumentality of interstate commerce or of the mails, or of any facility of any national
securities exchange—

(b) To use or employ, in connection with the purchase or sale of any security, any manipulative or
deceptive device or contrivance in contravention of such rules as the Commission may prescribe.

(June 6, 1934, ch. 404, title I, §10, 48 Stat. 891; Pub. L. 111–203, title IX, §929L, July 21, 2010,
124 Stat. 1860.)
""",
    ),
}


@pytest.mark.parametrize("expected", list(COURT_OPENINGS), ids=str)
@pytest.mark.parametrize("use_filename", [True, False], ids=["with-filename", "content-only"])
def test_court_document_openings_are_typed_as_a_lawyer_would(expected, use_filename):
    filename, text = COURT_OPENINGS[expected]
    doc_type, confidence = infer_document_type(filename if use_filename else "scan0042.pdf", text)
    assert doc_type is expected
    assert confidence >= (0.6 if use_filename else 0.5)


# --- Bates ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CONTRACTS)
def test_no_page_of_a_contract_gets_a_bates_number(name):
    # SEC exhibit labels, "Source: ACME CORP, 10-K, 12/2/2019" lines, page numbers, notice
    # addresses and redaction legends are all on these pages.
    assert [(p.number, find_bates_number(p.text)) for p in parsed(name).pages if find_bates_number(p.text)] == []


@pytest.mark.parametrize("stamp", ["ABC 000123", "SMITH-0001234", "DEF000045"])
@pytest.mark.parametrize("name", ["agapeatp_odm_supply_agreement", "airspan_distributor_agreement"])
def test_a_production_stamp_on_a_contract_page_is_found(name, stamp):
    for page in parsed(name).pages[:4]:
        assert find_bates_number(f"{page.text}\n\n{stamp}") == stamp  # on its own footer line
        assert find_bates_number(f"{page.text} {stamp}") == stamp  # run into the page's last line
        assert find_bates_number(f"{stamp}\n{page.text}") == stamp  # in the header


# --- Chunking ------------------------------------------------------------------------------

_KEYWORD_BEFORE = re.compile(r"(?:\b(?:Sections?|SECTIONS?|Articles?|ARTICLES?|Paragraphs?|Clauses?)|§§?|¶)\s*$")
_CODE_BEFORE = re.compile(r"\d+\s+(?:U\.S\.C\.|C\.F\.R\.)\s*§*\s*$")
_OPEN_QUOTE = re.compile(r"[\"“][A-Z][^\"”\n]{0,60}$")
_DEFINED_AFTER = re.compile(r"\(\s*(?:the\s+|an?\s+)?[\"“][^\"”\n]{1,60}[\"”]\s*\)")
_MEANS_AFTER = re.compile(r"(?:means|shall\s+mean)\b")
# "f. Force Majeure." or "1.2 Compensation." opening a clause of flattened text
_CLAUSE_TITLE_BEFORE = re.compile(
    r"(?:^|[.;:]\s+)(?:\(?[a-z][.)]|\d{1,2}(?:\.\d{1,2})*\.?)\s+[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|of|and|or|the)){0,6}\.$"
)


def boundary_problem(text: str, cut: int) -> str | None:
    """Why a chunk boundary at `cut` (a chunk ends before it or starts at it, whitespace aside)
    splits what belongs together; None when it does not."""
    before = text[:cut].rstrip()
    after = text[cut:].lstrip()
    if not before or not after:
        return None
    if len(before) == cut and len(text) - len(after) == cut:
        return "a word"  # also "Section 8." | "1": no gap between them
    line = before[before.rfind("\n") + 1 :][-120:]
    if _KEYWORD_BEFORE.search(line) and re.match(r"[\dIVXLC(]", after) and not line[-1].isdigit() and line[-1] != ".":
        return "a section reference"  # "Section" | "8.1", "§" | "1983"
    if _CODE_BEFORE.search(line) and after[0].isdigit():
        return "a citation"
    if _OPEN_QUOTE.search(line) and re.match(r"[^\"”\n]{0,60}[\"”]", after):
        return "a quoted term"
    if _DEFINED_AFTER.match(after):
        return "a name from its defined term"
    if re.search(r"[\"”]$", line) and _MEANS_AFTER.match(after):
        return "a defined term from its definition"
    if _CLAUSE_TITLE_BEFORE.search(line[-100:]) and not after.startswith(("(", "\n")):
        return "a clause title from its text"
    return None


def end_kind(text: str, end: int) -> str:
    """Where a chunk ends: at a paragraph end, a sentence end, a clause end, a line end or a word."""
    rest = text[end : end + 40]
    if not text[end:].strip() or re.match(r"[^\S\n]*\n\s*\n", rest):
        return "paragraph"
    if ends_sentence(text, end, text.rfind("\n", 0, end) + 1):
        return "sentence"
    if text[end - 1] in ";:":
        return "clause"
    return "line" if rest[:1] == "\n" else "word"


def start_kind(text: str, start: int) -> str:
    before = text[:start].rstrip()
    if not before or re.search(r"\n\s*\n\s*$", text[:start]):
        return "paragraph"
    if ends_sentence(before, len(before), before.rfind("\n") + 1):
        return "sentence"
    if before[-1] in ";:":
        return "clause"
    return "line" if "\n" in text[len(before) : start] else "word"


def chunk_report(pages: Sequence[ParsedPage], chunks: Sequence[ChunkSpan]) -> tuple[list[str], Counter[str]]:
    """Problems at every chunk boundary, and how chunk ends and starts fall."""
    texts = {p.number: p.text for p in pages}
    problems, kinds = [], Counter[str]()
    for c in chunks:
        text = texts[c.page]
        for cut, side in ((c.char_start, "start"), (c.char_end, "end")):
            problem = boundary_problem(text, cut)
            if problem:
                problems.append(f"p{c.page} {side} splits {problem}: {text[cut - 40 : cut]!r}|{text[cut : cut + 30]!r}")
        if c.char_end < len(text.rstrip()):
            kinds[f"end:{end_kind(text, c.char_end)}"] += 1
        elif c.page < len(pages):
            kinds["end:page"] += 1
        if text[: c.char_start].strip():
            kinds[f"start:{start_kind(text, c.char_start)}"] += 1
    return problems, kinds


@pytest.mark.parametrize("doc_type", SIZE_TYPES, ids=str)
@pytest.mark.parametrize("name", CONTRACTS)
def test_every_chunk_is_located_sized_and_cut_where_a_lawyer_would_cut(name, doc_type):
    for pages in (parsed(name).pages, one_page(name)):
        chunks = chunk_pages(pages, doc_type)
        check_invariants(pages, chunks, doc_type)
        problems, kinds = chunk_report(pages, chunks)
        assert problems == []
        # A chunk the chunker ends inside a page ends a paragraph or a sentence.
        assert {k for k in kinds if k.startswith("end:")} <= {"end:paragraph", "end:sentence", "end:page"}


def test_across_the_fifteen_contracts_outlines_stamps_and_chunk_cuts_hold_their_measured_floors():
    """The numbers behind these tests, in one table (shown when it fails). Measured at 1a93c44: 215/221 expected
    headings found, no boundary, outline or Bates problem; chunk ends inside a page 156 at a paragraph, 21 at a
    sentence (88% paragraph); 6 chunk starts inside a line (the overlap's first word)."""
    rows = []
    totals: Counter[str] = Counter()
    for name in CONTRACTS:
        doc = parsed(name)
        entries = outline(name)
        doc_type, confidence = infer_document_type(USER_FILENAMES[name], doc.text)
        _, blind = infer_document_type("scan0042.pdf", doc.text)
        stamps = sum(find_bates_number(p.text) is not None for p in doc.pages)
        problems = outline_problems(entries, doc.pages)
        numbered = sum(e.number is not None and bool(e.title) for e in entries)
        untitled = sum(e.number is not None and not e.title for e in entries)
        caps = sum(e.number is None for e in entries)
        for pages in (doc.pages, one_page(name)):
            chunk_problems, kinds = chunk_report(pages, chunk_pages(pages, DocumentType.CONTRACT))
            totals.update(kinds)
            totals["boundary problems"] += len(chunk_problems)
        totals["outline problems"] += len(problems)
        totals["false Bates pages"] += stamps
        rows.append(
            f"{name[:38]:38} {len(doc.pages):3}p {doc_type.value:8} {confidence:.2f}/{blind:.2f} "
            f"outline {numbered:3} titled {untitled:3} untitled {caps:2} caps, {len(problems)} problems"
        )
    for name, expected in EXPECTED_NUMBERED.items():
        found = Counter((e.number, e.title) for e in outline(name) if e.number is not None)
        totals["expected headings"] += len(expected)
        totals["expected headings found"] += sum((Counter(expected) & found).values())
    report = "\n".join([*rows, str(dict(sorted(totals.items())))])
    assert totals["boundary problems"] == totals["outline problems"] == totals["false Bates pages"] == 0, report
    assert totals["expected headings found"] >= 215 and totals["expected headings"] == 221, report
    inside = totals["end:paragraph"] + totals["end:sentence"]
    assert totals["end:paragraph"] >= 0.85 * inside and totals["start:word"] <= 6, report
