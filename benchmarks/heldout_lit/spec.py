"""What the held-out litigation set holds: its documents and its hand-labelled queries (read by make_set.py).

Litigation papers of one federal case, as a litigator's case folder holds them: the complaint, two deposition
transcripts (excerpts, with their printed page numbers and line numbers 1-25), a motion, a response to a
non-party's motion to quash, and a scanned cover letter to the judge. All are filings in Giuffre v. Maxwell,
No. 15-cv-07433 (S.D.N.Y.), public court records (the complaint of 2015; the rest unsealed by the court's order
of December 18, 2023 and filed on January 3-4, 2024). The queries were written by reading these texts, before
any search was run on them, and give references as a litigator types them, which is often not how the papers
print them: deposition page:line ("Maxwell Dep. 17:19", "page 31 lines 9-18"), "¶ 24" / "paragraph 16" /
"para. 30" of the complaint, "Rule 30(a)(2)(A)(ii)", "2d Cir." for "2dCir.", "79-h(c)" for "79–h(c)",
"506 F.Supp. 546" for "506 F. Supp. 546", "$20 an hour" for "Twenty dollars an hour".

An answer is a passage of the document's source text as it stands there (whitespace is ignored when it
is looked up), or "first words … last words" (the span runs from the first to the last, both included).
Each answer must occur once in the document's reference text (make_set.py checks).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import EFILES, EFILES_AT
from heldout_build import GIUFFRE_PUBLIC as PUBLIC
from heldout_build import HandQuery as Q
from heldout_build import SourcedDoc as Doc

DOCS = (
    Doc("complaint", "Giuffre v Maxwell - Complaint (SDNY 15-cv-07433) ECF 1.pdf", "pleading",
        "Giuffre v. Maxwell, No. 15-cv-07433 (S.D.N.Y.), Complaint (ECF No. 1, filed September 21, 2015)", EFILES,
        "d80d4d36b5fc9a5a49e4f83cb11bfe33e1e6d1bc", "complete_extraction/all_documents/001_complaint.txt", PUBLIC),
    Doc("maxwell_dep", "Maxwell Deposition 2016-04-22 excerpts - Composite Exhibit A.pdf", "deposition",
        "Videotaped deposition of Ghislaine Maxwell, April 22, 2016, excerpts filed as Composite Exhibit A "
        "(ECF No. 1320-5, filed January 3, 2024): transcript pages 1-2, 13, 16-17, 19, 22, 31, 37-40, 46, 53-55",
        EFILES, EFILES_AT, "complete_extraction/all_documents/1320-5.txt (the first 24 of 56 filed pages)", PUBLIC),
    Doc("sjoberg_dep", "Sjoberg Deposition 2016-05-18 - Exhibit 5 (first 16 pages).pdf", "deposition",
        "Deposition of Johanna Sjoberg, May 18, 2016, filed as Exhibit 5 (ECF No. 1320-12, filed January 3, 2024): "
        "transcript pages 1-16", EFILES, EFILES_AT,
        "complete_extraction/all_documents/1320-12.txt (the first 17 of 179 filed pages)", PUBLIC),
    Doc("motion_1320_10", "Pl Motion to Exceed Ten Deposition Limit - ECF 1320-10.docx", "motion",
        "Plaintiff's Non-Redacted Motion to Exceed Presumptive Ten Deposition Limit (2016), filed as ECF No. "
        "1320-10 on January 3, 2024: cover, tables, introduction and the start of the factual background",
        EFILES, EFILES_AT, "complete_extraction/all_documents/1320-10.txt (the first 6 of 28 filed pages)", PUBLIC),
    Doc("churcher_response", "Def Response to Churcher Motion to Quash Subpoena - ECF 1325-1.txt", "brief",
        "Defendant's Response to Non-Party Sharon Churcher's Motion to Quash Subpoena, filed as ECF No. 1325-1 on "
        "January 4, 2024: caption, contents, introduction and argument through Part I.B", EFILES, EFILES_AT,
        "complete_extraction/all_documents/1325-1.txt (the first 7 of 21 filed pages)", PUBLIC),
    Doc("letter_1320", "Letter to Judge Preska re unsealed documents 2024-01-03 - scan.pdf", "correspondence",
        "Letter of Sigrid S. McCawley to Judge Preska filing the documents ordered unsealed (ECF No. 1320, "
        "January 3, 2024), printed and scanned", EFILES, EFILES_AT, "complete_extraction/all_documents/1320.txt",
        PUBLIC),
)

QUERIES = (
    # The complaint (PDF)
    Q("complaint", "citation", "28 USC 1332 diversity jurisdiction Giuffre complaint", (
        "3. This Court has jurisdiction over this dispute pursuant to 28 U.S.C. §1332 … exclusive of interest and "
        "costs.",)),
    Q("complaint", "citation", "¶ 24 of the complaint", (
        "24. On December 23, 2014, Giuffre incorporated an organization called Victims … a Florida "
        "not-for-profit corporation.",)),
    Q("complaint", "citation", "complaint paragraph 16 CVRA petition 18 U.S.C. § 3771", (
        "16. On July 7, 2008, a young woman identified as Jane Doe No. 1 … The litigation remains ongoing.",)),
    Q("complaint", "clause", "para. 30 of the complaint, the statement of January 3, 2015", (
        "30. On or about January 3, 2015, speaking through her authorized agent … That Giuffre’s “claims are "
        "obvious lies.”",)),
    Q("complaint", "semantic", "What relief does the plaintiff ask for in the complaint?", (
        "WHEREFORE, Plaintiff Giuffre respectfully requests judgment … such other and further relief as the Court "
        "may deem just and proper.",)),
    Q("complaint", "keyword", "jury demand Giuffre complaint", (
        "Plaintiff hereby demands a trial by jury on all causes of action asserted within this\npleading.",)),
    Q("complaint", "entity", "Which lawyers signed the complaint for the plaintiff?", (
        "/s/ David Boies … /s/ Ellen Brockman",)),
    Q("complaint", "date", "When was the Giuffre v. Maxwell complaint dated?", ("Dated September 21, 2015.",)),
    Q("complaint", "semantic", "where the complaint says Maxwell left for London to avoid being deposed", (
        "21. To avoid her deposition, Maxwell claimed that her mother fell deathly ill … Maxwell had returned to\n"
        "New York.",)),
    Q("complaint", "entity", "who was the agent Maxwell used to call Giuffre a liar", (
        "29. As part of Maxwell’s campaign she directed her agent, Ross Gow … accuse Giuffre of lying.",)),
    Q("complaint", "clause", "libel per se allegation in Count I of the complaint", (
        "10. Maxwell’s false statements constitute libel per se inasmuch as they exposed … the minds of "
        "right-thinking persons.",
        "11. Maxwell’s false statements also constitute libel per se … that she seeks to serve.")),
    Q("complaint", "semantic", "why does the plaintiff say punitive damages are warranted", (
        "20. Maxwell’s campaign to spread her false statements internationally was unusual … exemplary and\n"
        "punitive damages are appropriate.",)),
    Q("complaint", "date", "When did Epstein enter the non-prosecution agreement?", (
        "11. In September 2007, Epstein entered into a Non-Prosecution Agreement (“NPA”)",)),
    Q("complaint", "semantic", "citizenship of the parties alleged in the complaint", (
        "6. Plaintiff Giuffre is an individual who is a citizen of the State of Colorado.",
        "7. Defendant Maxwell, who is domiciled in the Southern District of New York, is\nnot a citizen of the "
        "state of Colorado.")),
    Q("complaint", "date", "when did a reporter on East 65th Street ask Maxwell about the allegations", (
        "37. On or about January 4, 2015, Maxwell continued her campaign … East 65th Street in Manhattan",)),
    Q("complaint", "semantic", "does the complaint say Maxwell got immunity under the NPA", (
        "13. As a co-conspirator of Epstein, Maxwell was consequently granted immunity in\nthe Southern District "
        "of Florida through the NPA.",)),

    # Maxwell deposition excerpts (PDF)
    Q("maxwell_dep", "citation", "Maxwell Dep. 17:19", (
        "19 Q. Did you introduce Ms. Roberts to\n20 Jeffrey Epstein?\n21 A. I don't recall how she actually met\n"
        "22 Mr. Epstein.",)),
    Q("maxwell_dep", "citation", "Maxwell deposition page 31 lines 9-18", (
        "9 A. My job included hiring many people. … 18 Jeffrey.",)),
    Q("maxwell_dep", "semantic", "where did Maxwell say she found the massage therapists", (
        "22 A. From time to time I would visit … 25 man or woman if they did home visits.",)),
    Q("maxwell_dep", "entity", "who was counsel for the defendant at the Maxwell deposition", (
        "HADDON MORGAN FOREMAN … LAURA A. MENNINGER, ESQUIRE",)),
    Q("maxwell_dep", "entity", "court reporter at Ghislaine Maxwell's deposition", (
        "before Leslie Fagin, a Court\nReporter and Notary Public in the State\nof New York.",)),
    Q("maxwell_dep", "date", "When and where was Ghislaine Maxwell deposed?", (
        "held at the law offices of BOIES … April 22, 2016, 9:04 a.m.",)),
    Q("maxwell_dep", "semantic", "where defense counsel instructs the witness not to answer", (
        "3 MR. PAGLIUCA: I'm instructing her\n4 not to answer.",)),
    Q("maxwell_dep", "semantic", "the examiner warns the court will bring the witness back for another deposition", (
        "8 Q. I'm in charge of the deposition. I … 13 deposition to answer these questions.",)),
    Q("maxwell_dep", "semantic", "Maxwell calls Virginia Roberts a liar and a fantasist", (
        "She has lied repeatedly,\n4 often and is just an awful fantasist.",)),
    Q("maxwell_dep", "keyword", "Mar-a-Lago in 2000", (
        "9 Q. Did you visit Mar-a-Lago in the\n10 year 2000?\n11 A. I'm pretty sure I did.",)),
    Q("maxwell_dep", "semantic", "how Virginia Roberts came to the Palm Beach house according to Maxwell's testimony", (
        "9 A. Ms. Roberts held her to be a\n10 masseuse and her mother drove her to the\n11 house.",)),
    Q("maxwell_dep", "entity", "Nadia Marcinkova in the Maxwell deposition", (
        "19 Q. Can you tell me, do you know an\n20 individual by the name of Nadia Marcinkova?\n21 A. I do.",)),
    Q("maxwell_dep", "semantic", "did Maxwell deny hiring anyone under 18", (
        "6 Q. When you say adult employee, did … 9 A. Never.",)),
    Q("maxwell_dep", "clause", "defense counsel's position that she will not answer questions about adult "
      "consensual sex", (
        "24 Again, she is not answering\n25 questions that relate to adult consent",)),
    Q("maxwell_dep", "keyword", "Annie Farmer statement to police", (
        "17 Q. Are you familiar with a person by … 23 A. I have not heard that.",)),
    Q("maxwell_dep", "citation", "G. Maxwell Dep. at 55:5-16", (
        "5 Q. Ms. Maxwell, are you aware of any … 16 that.",)),

    # Sjoberg deposition (PDF)
    Q("sjoberg_dep", "entity", "Who examined Johanna Sjoberg first?", (
        "5 E X A M I N A T I O N\n6 BY MS. McCAWLEY:",
        "3 Examination by Ms. McCawley ................... 5")),
    Q("sjoberg_dep", "entity", "court reporter at the Sjoberg deposition", (
        "before Kelli Ann Willis, a Registered\nProfessional Reporter",
        "The court\n10 reporter is Kelli Ann Willis.")),
    Q("sjoberg_dep", "entity", "who represented the deponent at the Sjoberg deposition", (
        "SINCLAIR LOUIS & ZAVERTNIK, P.A.\nAttorneys for Deponent … MARSHALL DORE LOUIS, ESQ.",
        "22 MR. LOUIS: I'm Dore Louis from Sinclair … 24 deponent.")),
    Q("sjoberg_dep", "date", "When did Sjoberg first meet Maxwell?", (
        "6 A. 2001. March probably. End of\n7 February/beginning of March.",)),
    Q("sjoberg_dep", "semantic", "where the witness says Maxwell approached her at her college", (
        "9 A. She approached me while I was on campus at\n10 Palm Beach Atlantic College.",)),
    Q("sjoberg_dep", "keyword", "$20 an hour", ("9 A. Twenty dollars an hour.",)),
    Q("sjoberg_dep", "keyword", "$100/hour to rub feet", (
        "7 asked me if I wanted to come over and make $100 an\n8 hour rubbing feet.",)),
    Q("sjoberg_dep", "citation", "Sjoberg Dep. 15:13", ("13 A. That was Easter of 2001.",)),
    Q("sjoberg_dep", "keyword", "Sjoberg Exhibit 3 flight log", (
        "11 Deposition Exhibit 3 ........................... 16\nFlight log",
        "13 And these are flight logs from pilot David\n14 Rogers that have been produced in this case.")),
    Q("sjoberg_dep", "citation", "Bates GIUFFRE000748", (
        "10 Q. These are Giuffre 000748 and 000758 … 12 document itself is 000721 through 789.",)),
    Q("sjoberg_dep", "semantic", "what did Maxwell call Emmy Taylor", (
        "3 Q. Did Maxwell ever refer to Emmy by any\n4 particular term?\n5 A. She called her her slave.",)),
    Q("sjoberg_dep", "semantic", "the witness's first impression of Epstein", (
        "17 A. I remember him being in a bathrobe. … 22 smart. That was my first impression.",)),
    Q("sjoberg_dep", "semantic", "what she did on her first day working at the house", (
        "20 A. Sure. I remember answering the phones and … 23 Depot to get ink.",)),
    Q("sjoberg_dep", "entity", "videographer at the Sjoberg deposition", (
        "ALSO PRESENT: Ryan Kick, Videographer", "9 The videographer is Ryan Kick.")),
    Q("sjoberg_dep", "keyword", "Menninger objection leading", ("11 MS. MENNINGER: Objection, leading.\n12 Sorry.",)),
    Q("sjoberg_dep", "semantic", "had the witness ever been deposed before", (
        "4 Have you ever been deposed before?\n5 A. No.",)),
    Q("sjoberg_dep", "citation", "Case No. 15–cv–07433 (RWS) caption of the Sjoberg deposition", (
        "CASE NO. 15-CV-07433-RWS",)),

    # Plaintiff's motion to exceed the ten-deposition limit (DOCX)
    Q("motion_1320_10", "citation", "motion under Fed. R. Civ. P. 30(a)(2)(A)(ii)", (
        "PLAINTIFF’S NON-REDACTED MOTION TO EXCEED PRESUMPTIVE TEN\nDEPOSITION LIMIT IN FEDERAL RULE CIVIL "
        "PROCEDURE 30(A)(2)(a)(ii)",)),
    Q("motion_1320_10", "citation", "LiButti v. United States, 107 F.3d 110 (2d Cir. 1997)", (
        "LiButti v. United States,\n107 F.3d 110 (2d Cir. 1997)",)),
    Q("motion_1320_10", "citation", "Raniola v. Bratton, 243 F.3d 610 (2d Cir. 2001)", (
        "Raniola v. Bratton,\n243 F.3d 610 (2dCir. 2001)",)),
    Q("motion_1320_10", "citation", "Weatherford 2013 WL 5762923", (
        "In re Weatherford International Sec. Litigation,\nNo. 11 CIV. 1646 (LAK) (JCF), 2013 WL 5762923 "
        "(S.D.N.Y. Oct. 24, 2013)",)),
    Q("motion_1320_10", "semantic", "How many more depositions does the plaintiff want leave to take?", (
        "At this time, she seeks leave to take sevenadditional\ndepositions, as articulatedbelow.",)),
    Q("motion_1320_10", "semantic", "why the plaintiff cannot compel the witnesses to come to trial", (
        "Moreover, because Mr. Epstein and Defendant were travelling … witnesses to appear via a trial subpoena.",)),
    Q("motion_1320_10", "entity", "Paul Cassell's affiliation on the motion", (
        "Paul G. Cassell (Pro Hac Vice)\nS.J. Quinney College of Law\nUniversity of Utah",)),
    Q("motion_1320_10", "date", "When did defense counsel write that they would not appear at the depositions?", (
        "“If you intend to seek more than 10 depositions or to … May 27, 2016 e-mail Correspondence from Laura "
        "Menninger to\nBradley Edwards.",)),
    Q("motion_1320_10", "date", "date set for the Maria Alessi deposition", (
        "of Maria Alessi set for\nWednesday, June 1, 2016",)),
    Q("motion_1320_10", "semantic", "the defendant would not admit the GM initials on the flight logs were hers", (
        "Defendant would not even admit that the initials\n“GM” which are on the private plane flight logs over 300 "
        "times",)),
    Q("motion_1320_10", "keyword", "Johanna Sjoberg 3 1/2 hours", ("2. Johanna Sjoberg (3 ½ Hours)",)),
    Q("motion_1320_10", "semantic", "did the parties agree to split the time at third-party depositions", (
        "the parties have agreed that they will split the time for all third\nparty witnesses … at most 3 ½ hours "
        "at those\nadditional depositions.",)),

    # Defendant's response to Churcher's motion to quash (TXT)
    Q("churcher_response", "citation", "N.Y. Civil Rights Law 79-h(c) qualified protection", (
        "to the extent that any information sought is covered by the qualified protection of\nCivil Rights Law "
        "§ 79–h(c)1",)),
    Q("churcher_response", "citation", "Solargen Elec. Motor Car Corp. v. Am. Motors Corp., 506 F.Supp. 546", (
        "Solargen Elec. Motor Car Corp. v. Am. Motors Corp., 506 F. Supp. 546, 551 (N.D.N.Y. 1981)",)),
    Q("churcher_response", "citation", "People v. Dupree, 88 Misc.2d 791", (
        "People v. Dupree, 88 Misc. 2d 791, 796, 388 N.Y.S.2d 1000, 1003 (Sup. Ct. 1976)",)),
    Q("churcher_response", "semantic", "text of the press release alleged to be defamatory", (
        "“Each time the story is re told … as they are defamatory.”",)),
    Q("churcher_response", "semantic", "why Maxwell says the journalist shield law does not let Churcher avoid the "
      "subpoena", (
        "Sharon Churcher’s attempt to avoid the subpoena for deposition and production of … must fail for three "
        "reasons.",)),
    Q("churcher_response", "clause", "What does Maxwell ask the court to do with the motion to quash?", (
        "For these reason, the Motion to Quash should be denied … as modified herein.",)),
    Q("churcher_response", "entity", "Who is counsel for the defendant on the response to the Churcher motion?", (
        "Laura A. Menninger\nJeffrey S. Pagliuca\nHADDON, MORGAN, AND FOREMAN, P.C.",)),
    Q("churcher_response", "date", "When did Churcher e-mail the plaintiff about a story to tell the FBI?", (
        "Shortly thereafter, on March 20, 2011,\nChurcher emailed Plaintiff",)),
    Q("churcher_response", "semantic", "the reporter encouraged her to write a book once the Mail on Sunday "
      "exclusivity ended", (
        "Churcher encouraged Plaintiff to write\na book … was over in May 2011.",)),
    Q("churcher_response", "clause", "the shield law does not apply to a journalist's personal observations", (
        "“Section 79-h is not applicable where the\njournalist is called upon … personal observations”",
        "(“the\nprivilege does not exist if the newsman is called on to testify what he personally observed.”)")),
    Q("churcher_response", "entity", "which of plaintiff's lawyers strategized about the Vanity Fair article", (
        "She strategized with Plaintiff and Plaintiff’s counsel, Brad Edwards, on how to use a\npotential Vanity "
        "Fair article as book publicity",)),

    # The scanned cover letter
    Q("letter_1320", "date", "When did the court order the documents unsealed?", (
        "Pursuant to the Court’s December 18, 2023, unsealing order",)),
    Q("letter_1320", "entity", "which judge was the January 3, 2024 letter addressed to", (
        "The Honorable Loretta A. Preska",)),
    Q("letter_1320", "semantic", "which Does are left out of the unsealed filing", (
        "This filing also excludes\ndocuments pertaining to Does 105 … while the Court’s review of those documents "
        "is\nongoing.",)),
    Q("letter_1320", "citation", "Giuffre v. Maxwell, No. 15-cv-07433 (LAP) letter", (
        "Re: Giuffre v. Maxwell, Case No. 15-cv-7433-LAP",)),
)
