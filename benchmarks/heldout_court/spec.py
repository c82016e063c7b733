"""What the held-out court set holds: its documents and its hand-labelled queries (read by make_set.py).

An answer is a passage of the document's source text, written as it stands there (line breaks
and hyphens at line ends included, so it is found in the reference text with whitespace
ignored), or shortened to "first words … last words" (the span runs from the first to the last,
both included). Each answer must occur once in the reference text (make_set.py checks).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import HandQuery as Q
from heldout_build import SourcedDoc as Doc

EYECITE = "freelawproject/eyecite"
JURISCRAPER = "freelawproject/juriscraper"
PUBLIC = ("US government work (court opinion or order, agency decision, state attorney-general opinion or "
          "statute): public domain. Repository code ({}) is not used.")


def _eyecite(key: str, file: str, doc_type: str, title: str, path: str,
             commit: str = "211aa81417fdb3ea5b81ed575be344a42cf95ec7") -> Doc:
    return Doc(key, file, doc_type, title, EYECITE, commit, path, PUBLIC.format("BSD-2-Clause"))


def _juriscraper(key: str, file: str, doc_type: str, title: str, path: str, commit: str) -> Doc:
    return Doc(key, file, doc_type, title, JURISCRAPER, commit, path, PUBLIC.format("BSD-2-Clause"))


DOCS = (
    _eyecite("fisher", "Fisher v. University of Texas at Austin - US Supreme Court slip opinion (2013).pdf",
             "case_law", "the Fisher opinion (Fisher v. University of Texas at Austin, 570 U.S. 297 (2013))",
             "tests/assets/opinion.txt", commit="0711f05c2cd7429f0979e97552548e06de26ba92"),
    _eyecite("democracy_nc", "Democracy North Carolina v. NC State Board of Elections - MDNC opinion and order "
             "2022-03-10.pdf", "case_law",
             "the Democracy North Carolina order (590 F. Supp. 3d 850, M.D.N.C. 2022)",
             "tests/assets/case_Democracy.txt"),
    _eyecite("hogarth", "Hogarth v. Bell - EDNC order on motions to dismiss 2025-03-28.docx", "court_order",
             "the Hogarth v. Bell order (E.D.N.C. 2025)", "tests/assets/case_NC.txt"),
    _eyecite("al_ago_2018_046", "Alabama AG Opinion 2018-046 (Choctaw County probate judge).pdf", "legal_opinion",
             "the Alabama attorney general opinion 2018-046", "tests/assets/opinion_AL.txt"),
    _eyecite("al_ago_2015_059", "Alabama AG Opinion 2015-059 p1 scan.png", "legal_opinion",
             "the Alabama attorney general opinion 2015-059 (first page scan)", "tests/assets/opinions_AL2.txt"),
    _eyecite("ky_oag_18_011", "Kentucky OAG 18-011 write-in candidate lists.pdf", "legal_opinion",
             "the Kentucky attorney general opinion OAG 18-011", "tests/assets/opinions_KY.txt"),
    _eyecite("nc_gs_163_230_2", "NC Gen Stat 163-230.2 absentee ballot requests.txt", "statute",
             "N.C. Gen. Stat. § 163-230.2", "tests/assets/statute_NC.txt"),
    _juriscraper("bva", "BVA decision 2025-09-30 docket 250716-566207.txt", "agency_decision",
                 "the Board of Veterans' Appeals decision (docket 250716-566207)",
                 "tests/examples/opinions/united_states/bva_subexample_1.txt",
                 "66de8250ab6f73289236d3fdc9a95591e8d0a9e7"),
    _juriscraper("bia", "Matter of Laguerre 28 I&N Dec 437 (BIA 2022).pdf", "agency_decision",
                 "Matter of Laguerre, 28 I&N Dec. 437 (BIA 2022)",
                 "tests/examples/opinions/united_states/bia_extract_from_text.txt",
                 "22790de5e54d7f90be27e70ec41674b1aea8fb5a"),
)

QUERIES = (
    # Fisher v. University of Texas at Austin (Supreme Court slip opinion, PDF)
    Q("fisher", "citation", "In the Fisher opinion, which Fifth Circuit case struck down the University's earlier "
      "race-based admissions?", ("Hopwood\nv. Texas, 78 F. 3d 932, 955 (1996)",)),
    Q("fisher", "citation", "Wygant v. Jackson Board of Education, 476 U.S. 267", (
        "Wygant v.\nJackson Bd. of Ed., 476 U. S. 267, 280, n. 6 (1986)",)),
    Q("fisher", "date", "When was the Fisher case argued before the Supreme Court?", ("Argued October 10, 2012",)),
    Q("fisher", "entity", "Which justice took no part in deciding the Fisher case?", (
        "JUSTICE KAGAN took no part in the consideration or\ndecision of this case.",)),
    Q("fisher", "entity", "Who wrote the opinion of the Court in Fisher v. University of Texas?", (
        "JUSTICE KENNEDY delivered the opinion of the Court.",)),
    Q("fisher", "semantic", "Per the Fisher opinion, must judges take the school's word that its way of weighing "
      "applicants' ethnicity goes no further than needed?", (
        "The University must prove that the means chosen … receives no\ndeference.",)),
    Q("fisher", "semantic", "What is left for the lower appellate court to figure out after the Supreme Court sent "
      "the Fisher case back?", (
        "the Court of Appeals\nmust assess whether the University has offered sufficient … narrowly tailored to "
        "obtain the educational benefits of\ndiversity.",)),
    Q("fisher", "keyword", "Tex. Educ. Code Ann. §51.803 in the Fisher opinion", (
        "Top\nTen Percent Law, codified at Tex. Educ. Code Ann. §51.803\n(West 2009)",)),
    Q("fisher", "clause", "Holding of the Fisher v. University of Texas Supreme Court opinion", (
        "Held: Because the Fifth Circuit did not hold the University to the de- … to the University was incor-\n"
        " rect.",)),
    Q("fisher", "semantic", "According to the dissent in the Fisher case, what really motivates automatic admission "
      "of the top graduates of every Texas high school?", (
        "It is race consciousness, not blindness to race, that\ndrives such plans.",)),
    # Democracy North Carolina v. North Carolina State Board of Elections (M.D.N.C. 2022, PDF)
    Q("democracy_nc", "date", "When was the Democracy North Carolina order signed?", ("Signed March 10, 2022",)),
    Q("democracy_nc", "entity", "Which judge wrote the Democracy North Carolina memorandum opinion?", (
        "OSTEEN, JR., District Judge",)),
    Q("democracy_nc", "entity", "Who are the defendant-intervenors in Democracy North Carolina v. State Board of "
      "Elections?", (
        "Philip E. Berger, in his official capacity as President Pro Tempore of the North Carolina Senate, and "
        "Timothy K. Moore, in his official capacity as Speaker of the North Carolina House of Representatives, "
        "Defendant-Intervenors.",)),
    Q("democracy_nc", "keyword", "civil action 1:20CV457 Middle District of North Carolina", (
        "Docket Number(s): 1:20CV457", "1:20CV457\nUnited States District Court, M.D. North Carolina.")),
    Q("democracy_nc", "clause", "Which level of scrutiny governs the First Amendment claim in the Democracy North "
      "Carolina order?", (
        "the Anderson - Burdick balancing test, see Anderson v. Celebrezze … instead of strict scrutiny, likely "
        "applies.",)),
    Q("democracy_nc", "semantic", "Why was the Democracy North Carolina plaintiffs' notice-and-hearing claim about "
      "ballot errors thrown out?", (
        "Because there is a sufficient cure procedure currently in place in North Carolina, this court finds any "
        "injury to Plaintiffs is not ripe for review.",)),
    Q("democracy_nc", "citation", "52 U.S.C. § 10508 assistance by a person of the voter's choice", (
        "Under Section 208 of the Voting Rights Act, \"[a]ny voter who requires assistance to vote by reason of "
        "blindness … 52 U.S.C. § 10508.",)),
    Q("democracy_nc", "semantic", "In the Democracy North Carolina order, who does the visually impaired plaintiff "
      "want helping him with his ballot besides his spouse?", (
        "Individual Plaintiff Walter Hutchins is a North Carolina citizen who is legally blind and lives in a "
        "nursing home.",
        "Plaintiff Hutchins alleges he wants the assistance of his nursing home staff—even if his wife can help "
        "him too—in voting in future elections.")),
    Q("democracy_nc", "date", "When did the legislature pass House Bill 1169, according to the Democracy North "
      "Carolina opinion?", ("On June 11, 2020, the North Carolina General Assembly passed House Bill 1169",)),
    # Hogarth v. Bell (E.D.N.C. 2025, DOCX)
    Q("hogarth", "date", "When did Susan Hogarth file her complaint?", ("In complaint filed August 22, 2024",)),
    Q("hogarth", "entity", "Which defendant did the court drop from the Hogarth v. Bell case, and on what ground?", (
        "Jeff Jackson is hereby DISMISSED from this action pursuant to the Eleventh Amendment.",)),
    Q("hogarth", "keyword", "§ 163-166.3(c) in the Hogarth order", (
        "(c) Photographing Voted Ballot Prohibited.-No person shall photograph, videotape, or otherwise record the "
        "image of a voted official ballot for any purpose not otherwise permitted under law.",)),
    Q("hogarth", "semantic", "In the Hogarth order, why wasn't the district attorney's sworn pledge to hold off "
      "charging the voter enough to end the case against her?", (
        "This declaration does not defeat the threat of prosecution. … thus creating a circular credible threat "
        "of prosecution.",)),
    Q("hogarth", "semantic", "How long did the voter spend taking her picture in the booth at the March primary, "
      "per the Hogarth order?", ("Taking the photo took approximately 45 seconds.",)),
    Q("hogarth", "clause", "Standard of review for a facial Rule 12(b)(1) challenge in Hogarth v. Bell", (
        "Where a defendant raises a “facial challenge[] to standing … Rule 12(b)(6) challenge.”",)),
    Q("hogarth", "date", "How long do the remaining Hogarth defendants have to answer the complaint?", (
        "remaining defendants shall have 14 days from the date of this order to file an answer",)),
    Q("hogarth", "entity", "Who sent Hogarth the letter warning her that photographing her ballot was a crime?", (
        "Plaintiff received a letter dated March 13, 2024, from defendant Danielle Brinton",)),
    # Alabama AG opinion 2018-046 (PDF)
    Q("al_ago_2018_046", "entity", "To whom was Alabama attorney general opinion 2018-046 addressed?", (
        "Honorable Michael Armstead\nChoctaw County Probate Judge",)),
    Q("al_ago_2018_046", "citation", "Which Florida case did the Alabama attorney general rely on for what a vacancy "
      "in nomination means?", ("State ex rel. Chamberlain v. Tyler, 100 Fla. 1112, 130 So. 721 (1930)",)),
    Q("al_ago_2018_046", "semantic", "Can the Choctaw County Republicans put someone on the November ballot for "
      "school superintendent after fielding nobody in the primary?", (
        "A political party may not substitute a candidate on the general election ballot for the office of "
        "Choctaw County Superintendent of Education when the party failed to place the name of a candidate in "
        "nomination for that office.",
        "A political party may not substitute an individual on the general election ballot")),
    Q("al_ago_2018_046", "keyword", "Ala. Code 17-13-23 filling a vacancy in the nomination", (
        "Section 17-13-23 of the Code of Alabama authorizes a party to fill a vacancy in the nomination.",)),
    Q("al_ago_2018_046", "date", "When did the Choctaw County executive committee disqualify the Republican "
      "candidate for superintendent?", ("on February 8, 2018, the Executive Committee disqualified",)),
    # Alabama AG opinion 2015-059 (first page, scanned PNG)
    Q("al_ago_2015_059", "entity", "Which probate judge asked for Alabama attorney general opinion 2015-059?", (
        "Honorable Charles C. Woodroof\nLimestone County Probate Judge",)),
    Q("al_ago_2015_059", "semantic", "Under the Limestone County alcohol referendum opinion, may organizers print "
      "out names gathered on a tablet or website and turn them in?", (
        "Electronic signatures obtained online and/or on electronic signature pads, if\nprinted and submitted with "
        "said petition, are not valid signatures as required\nby section 28-2-1 of the Code.",)),
    Q("al_ago_2015_059", "date", "Date of the Alabama attorney general opinion on the Limestone County wet/dry "
      "petition", ("Date: Aug. 13, 2015", "August 13, 2015\nHonorable Charles C. Woodroof")),
    # Kentucky OAG 18-011 (PDF)
    Q("ky_oag_18_011", "entity", "Who wrote the Kentucky attorney general opinion on write-in candidate lists?", (
        "Written by : Marc G. Farris, Assistant Attorney General",)),
    Q("ky_oag_18_011", "semantic", "In Kentucky OAG 18-011, is handing voters the roster of approved write-in names "
      "a form of campaigning at the polls?", (
        "For these reasons, we believe that neither distributing nor displaying the list of certified write-in "
        "candidates would violate the prohibition on electioneering.",)),
    Q("ky_oag_18_011", "citation", "Ellis v. Meeks, 957 S.W.2d 213", (
        "For instance, in Ellis v. Meeks, the Supreme Court held that shaking hands … 957 S.W.2d 213, 216 "
        "(Ky. 1997).",)),
    Q("ky_oag_18_011", "keyword", "KRS 117.265(6) two election officers of opposing parties", (
        "The next statutory subsection, KRS 117.265(6), provides that \"[t]wo (2) election officers of opposing "
        "parties shall upon the request of any voter instruct the voter on how to cast a write-in vote.\"",)),
    Q("ky_oag_18_011", "semantic", "According to the Kentucky attorney general, must precinct workers hang the "
      "write-in list up on the wall?", (
        "We do not believe that the statute requires posting the list of candidates, because doing so would not "
        "be providing instruction \"upon request,\" as contemplated by the statute.",)),
    Q("ky_oag_18_011", "citation", "Which Alaska case did the Kentucky attorney general find directly on point?", (
        "State of Alaska, Div. of Elections v. Alaska Democratic Party, No. S-14054, slip op. (Alaska Oct. 29, "
        "2010)",)),
    # N.C. Gen. Stat. § 163-230.2 (TXT)
    Q("nc_gs_163_230_2", "clause", "Who is allowed to turn in a voter's absentee ballot request under North Carolina "
      "statute 163-230.2?", (
        "(c) Return of Request. … (3) A member of a multipartisan team trained and authorized by the county board "
        "of elections pursuant to G.S. 163-226.3 .",)),
    Q("nc_gs_163_230_2", "semantic", "Does the North Carolina absentee request statute make the voter give a phone "
      "number?", (
        "(8) The telephone number and e-mail address of the voter; however, no request shall be denied for "
        "failure to include this information",)),
    Q("nc_gs_163_230_2", "semantic", "Under G.S. 163-230.2, what if a voter who cannot see has no relative or "
      "guardian to help fill in the form?", (
        "(e1) Assistance by Others. - If a voter is in need of assistance … the voter may request some other "
        "person to give assistance, notwithstanding any other provision of this section.",)),
    Q("nc_gs_163_230_2", "date", "When did the 2023 amendment to G.S. 163-230.2 take effect?", (
        "Amended by 2023 N.C. Sess. Laws 140 , s. 35 , eff. 1/1/2024 .",)),
    # Board of Veterans' Appeals decision (TXT)
    Q("bva", "date", "What effective date did the Board of Veterans' Appeals grant for TDIU?", (
        "Entitlement to an effective date of November 10, 2022, for the grant of a total disability rating based "
        "on individual unemployability due to service-connected disabilities (TDIU) is granted.",)),
    Q("bva", "entity", "Which Veterans Law Judge signed the BVA decision?", ("M. HYLAND\n\nVeterans Law Judge",)),
    Q("bva", "semantic", "Why wasn't the veteran's post-traumatic stress condition rated above 50 percent by the "
      "Board?", (
        "More importantly, the Veteran's reported symptoms do not appear to result in occupational and social "
        "impairment with deficiencies in most areas.",
        "1. Throughout the period on appeal, the Veteran's PTSD symptoms manifested in occupational and social "
        "impairment with reduced reliability and productivity.")),
    Q("bva", "citation", "Which case did the veterans board cite for TDIU being part of an increased rating appeal?", (
        "The Court has held that entitlement to TDIU is an element of all appeals of an increased evaluation when "
        "such claim is raised by the record or asserted by the veteran.  Rice v. Shinseki, 22 Vet. App. 447, "
        "454-55 (2009).",)),
    Q("bva", "keyword", "38 C.F.R. § 3.400(o)(2) one year before the date of claim", (
        "An effective date of an award of increased compensation can be assigned up to one year prior to the date "
        "of claim … 38 C.F.R. § 3.400(o)(2).",)),
    # Matter of Laguerre, 28 I&N Dec. 437 (BIA 2022) (PDF)
    Q("bia", "date", "When was Matter of Laguerre decided?", ("Decided January 20, 2022",)),
    Q("bia", "entity", "Who represented the respondent in Matter of Laguerre?", (
        "FOR RESPONDENT: Timothy R. Block, Esquire, Edison, New Jersey",)),
    Q("bia", "clause", "Holding of Matter of Laguerre on whether N.J. Stat. 2C:35-10(a)(1) is divisible", (
        "Because the identity of the “controlled dangerous substance” possessed is an element of the crime … to "
        "determine whether that substance is a controlled substance under Federal law.",)),
    Q("bia", "citation", "United States v. Henderson, 841 F.3d 623 (3d Cir. 2016)", (
        "the Pennsylvania drug statute that was found to be divisible in United States v. Henderson, 841 F.3d 623 "
        "(3d Cir. 2016)",)),
    Q("bia", "semantic", "What frustration did the concurring board member voice about the method the Laguerre "
      "appeal required?", (
        "I write separately to note the inordinate complexity of the legal question we have just answered.",)),
    Q("bia", "clause", "Standard of review the Board applied in Matter of Laguerre", (
        "Whether the respondent’s drug conviction renders him removable as charged is a legal question we review "
        "de novo.",)),
    Q("bia", "semantic", "In Matter of Laguerre, which drug did the charging papers name?", (
        "The indictment in the respondent’s case reflects that he was charged with possessing the controlled "
        "dangerous substance of cocaine.",)),
)
