"""What the held-out mixed set holds: its documents and its hand-labelled queries (read by make_set.py).

Kinds of documents the other sets lack or barely have: statutes (one as a scanned page), court e-mails
(CM/ECF notices of electronic filing, one plain text, one HTML), a Supreme Court slip opinion with its
syllabus and a dissent, and an agency precedent decision. The queries were written by reading these
texts, before any search was run on them, and name references the way a lawyer types them, which is
often not the way the document prints them ("546 U.S. 481" for "546 U. S. 481", "No. 24-351" for
"No. 24–351", "8 CFR 1003.1(d)(3)(ii)" for "8 C.F.R. § 1003.1(d)(3)(ii)", "8:23-cr-00025" for
"8:23-cr-25").

An answer is a passage of the document's source text as it stands there (whitespace is ignored when it
is looked up), or "first words … last words" (the span runs from the first to the last, both included).
Each answer must occur once in the document's reference text (make_set.py checks).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import HandQuery as Q
from heldout_build import SourcedDoc as Doc

PUBLIC = ("US government work (court opinion, agency decision, statute or court notice): public domain. "
          "Repository code is not used.")
USCODE = "codexstanford/markdonw-chunck-of-the-usa-code"
JURISCRAPER = "freelawproject/juriscraper"
INDEX_ONLY = "(not named by the code index; see README)"


DOCS = (
    Doc("konan", "Postal Service v. Konan - Supreme Court slip opinion.pdf", "case_law",
        "United States Postal Service v. Konan, No. 24-351 (U.S. Feb. 24, 2026), slip opinion: syllabus, opinion "
        "of the Court, and the dissent's first pages", INDEX_ONLY, "", "code index file id 61336875296 (the "
        "'cached opinion text' section, characters 13,787-55,492)", PUBLIC),
    Doc("bia_alday", "Matter of Alday-Dominguez (BIA 2017).docx", "agency_decision",
        "Matter of Alday-Dominguez, 27 I&N Dec. 48 (BIA 2017)", JURISCRAPER,
        "22790de5e54d7f90be27e70ec41674b1aea8fb5a",
        "tests/examples/opinions/united_states/bia_extract_from_text_2.txt", PUBLIC),
    Doc("usc_552", "FOIA exemptions and agency reports - statute text.txt", "statute",
        "5 U.S.C. § 552(b)-(e) (Freedom of Information Act: exemptions, exclusions, annual reports)", USCODE,
        "7dd04482ddc0cf6fc5b3e4fa889eaa799f22cedb", "chuncks/title-05/chunck-172.md", PUBLIC),
    Doc("usc_1332", "diversity jurisdiction statute - scan.pdf", "statute",
        "28 U.S.C. § 1332(a)-(b) (diversity of citizenship; amount in controversy), a scanned printout", USCODE,
        "923a637bc642440c166dd34de9cbb8fa3052f3ab", "chuncks/title-28/chunck-541.md", PUBLIC),
    Doc("nef_flmd", "ECF notice 2025-04-08 Heartbeat of Miami.eml", "correspondence",
        "CM/ECF notice of electronic filing, M.D. Fla., Heartbeat of Miami, Inc. v. Jane's Revenge, order on "
        "a motion for extension of time (plain-text e-mail)", JURISCRAPER,
        "2f1d2f3a8ed5e221b70ce8155625245cc1f7377b", "tests/examples/pacer/nef/s3/flmd_1_plain.txt", PUBLIC),
    Doc("nef_almd", "ECF notice 2021-08-09 Stapler.eml", "correspondence",
        "CM/ECF notice of electronic filing, M.D. Ala., Stapler v. Automatic Food Service, Inc., a notice "
        "(HTML e-mail)", JURISCRAPER, "21e8b1fb239610c521d727071b5dd8b882868277",
        "tests/examples/pacer/nef/s3/almd_1.txt", PUBLIC),
)

QUERIES = (
    # United States Postal Service v. Konan (slip opinion, PDF)
    Q("konan", "citation", "Dolan v. Postal Service, 546 U.S. 481", (
        "Dolan v. Postal Service,\n    546 U. S. 481, 489.",
        "Dolan\nv. Postal Service, 546 U. S. 481, 484 (2006)",
        "lan v. Postal Service, 546 U. S. 481, 492 (2006)")),
    Q("konan", "citation", "Levasseur v. United States Postal Service, 543 F.3d 23 (1st Cir. 2008)", (
        "Levasseur v.\nUnited States Postal Serv., 543 F. 3d 23, 23–24 (CA1 2008)",)),
    Q("konan", "citation", "Wisconsin Central Ltd. v. United States, 585 US 274", (
        "Wisconsin Central Ltd.\n    v. United States, 585 U. S. 274, 277.",
        "Wisconsin Central Ltd. v. United\nStates, 585 U. S. 274, 277 (2018)")),
    Q("konan", "date", "When was No. 24-351 argued and decided?", (
        "Argued October 8, 2025—Decided February 24, 2026",)),
    Q("konan", "entity", "Who wrote the majority opinion in the Konan case?", (
        "JUSTICE THOMAS delivered the opinion of the Court.",
        "THOMAS, J., delivered the opinion of the Court, in which ROBERTS, C. J.,\nand ALITO, KAVANAUGH, and "
        "BARRETT, JJ., joined.")),
    Q("konan", "entity", "Which justices disagreed with the result in Postal Service v. Konan?", (
        "JUSTICE SOTOMAYOR, with whom JUSTICE KAGAN,\nJUSTICE GORSUCH, and JUSTICE JACKSON join, dissenting.",
        "SOTOMAYOR, J., filed\na dissenting opinion, in which KAGAN, GORSUCH, and JACKSON, JJ.,\njoined.")),
    Q("konan", "clause", "Holding of the Supreme Court on the postal exception in Konan", (
        "Held: The United States retains sovereign immunity for claims arising … result of the Postal Service’s "
        "intentional failure to deliver the mail.",
        "We hold that the postal exception covers suits against the\nUnited States for the intentional "
        "nondelivery of mail.")),
    Q("konan", "clause", "What did the Supreme Court do with the Fifth Circuit's judgment in the Konan case?", (
        "We vacate the judgment of the Court of\nAppeals and remand the case for further proceedings con-\nsistent "
        "with this opinion.",
        "96 F. 4th 799, vacated and remanded.")),
    Q("konan", "clause", "On review of the dismissal, how did the Court treat Konan's allegations?", (
        "This case arises from the dismissal of a complaint, so we\naccept the complaint’s allegations as true",)),
    Q("konan", "semantic", "Why did Congress not want people suing the government over mail problems, according "
      "to the Konan majority?", (
        "Given the\nfrequency of postal workers’ interactions with citizens,\nthose suits would arise so often "
        "that they would create a\nsignificant burden for the Government and the courts.",)),
    Q("konan", "semantic", "How many grievances does the mail service receive in a year, per the Konan opinion?", (
        "The\nPostal Service reports receiving approximately 335,000 cus-\ntomer complaints per year.",)),
    Q("konan", "semantic", "What happened when Konan asked the post office to keep her mail so she could pick it "
      "up herself?", (
        "But\nthe postal employees did not give her the mail because Ko-\nnan failed to provide identification "
        "for the addressees.",)),
    Q("konan", "keyword", "six emeralds worth $152,190 stolen from the mail", (
        "theft from mail of six emeralds valued at\n$152,190 in 1967 dollars",)),
    Q("konan", "date", "When did Konan sue the United States?", (
        "In January 2022, Konan sued the United States in fed-\neral court.",)),
    Q("konan", "semantic", "According to the dissenting justices in Konan, what kind of claims should stay outside "
      "the postal exception?", (
        "Today, I would have affirmed the Fifth Cir-\ncuit’s well-reasoned decision … holding a person’s mail "
        "for malicious reasons.",)),
    Q("konan", "semantic", "Why does the Konan majority refuse to treat the first definition in a dictionary as "
      "the main one?", (
        "The definitions Konan pointed to were listed\nfirst because they were the oldest, not because they "
        "were\nprimary.",
        "the\n  dictionary definitions Konan pointed to were listed first because they\n  were the oldest, not "
        "because they were primary.")),
    Q("konan", "entity", "Where are the houses Konan rents out?", (
        "Lebene Konan owns two houses a block apart in Euless,\nTexas—one on Saratoga Drive and the other on "
        "Trenton\nLane.",)),
    Q("konan", "citation", "652 F.Supp.3d 721 (N.D. Tex. 2023)", (
        "652 F. Supp.\n3d 721, 731 (ND Tex. 2023)",
        "652 F. Supp.\n3d 721, 731–732 (ND Tex. 2023)",
        "652\nF. Supp. 3d 721, 725 (ND Tex. 2023)")),
    # Matter of Alday-Dominguez, 27 I&N Dec. 48 (BIA 2017) (DOCX)
    Q("bia_alday", "date", "When was Matter of Alday-Dominguez decided?", ("Decided June 1, 2017",)),
    Q("bia_alday", "citation", "Lopez-Valencia v. Lynch, 798 F. 3d 863", (
        "Lopez-Valencia v. Lynch, 798 F.3d 863 (9th Cir. 2015)",)),
    Q("bia_alday", "clause", "What standard of review did the Board apply to whether receiving stolen property is an "
      "aggravated felony?", (
        "Whether receiving stolen property under California law is an aggravated felony theft offense is a "
        "question of law that we review de novo.",)),
    Q("bia_alday", "citation", "8 CFR 1003.1(d)(3)(ii)", ("8 C.F.R. § 1003.1(d)(3)(ii) (2016)",)),
    Q("bia_alday", "clause", "Holding of Matter of Alday-Dominguez", (
        "The aggravated felony receipt of stolen property provision in section 101(a)(43)(G) … does not require "
        "that unlawfully received property be obtained by means of common law theft or larceny.",
        "we hold that the receipt of stolen property provision in section 101(a)(43)(G) does not require that "
        "unlawfully received property be obtained by means of theft.")),
    Q("bia_alday", "clause", "What order did the Board enter on the DHS appeal in Alday-Dominguez?", (
        "ORDER: The appeal of the Department of Homeland Security is sustained, the decision of the Immigration "
        "Judge is vacated, and the removal proceedings are reinstated.",)),
    Q("bia_alday", "entity", "Which Board member wrote the Alday-Dominguez decision?", ("PAULEY, Board Member:",)),
    Q("bia_alday", "date", "When was Alday-Dominguez convicted of receiving stolen property?", (
        "He was convicted on March 11, 2011, of receiving stolen property",)),
    Q("bia_alday", "semantic", "Why did the immigration board reject the argument that only goods obtained by theft "
      "count for the receipt offense?", (
        "The parenthetical does not say that it only includes “receipt of property obtained by theft” or some "
        "comparable formulation. Rather, it refers to “receipt of stolen property.”",)),
    Q("bia_alday", "citation", "United States v. Turley, 352 US 407 (1957)", (
        "United States v. Turley, 352 U.S.",)),
    Q("bia_alday", "entity", "Who represented the Department of Homeland Security in Alday-Dominguez?", (
        "FOR THE DEPARTMENT OF HOMELAND SECURITY: Robert Wities, Senior Attorney",)),
    Q("bia_alday", "keyword", "Cal. Penal Code § 496(a) buys or receives any property that has been stolen", (
        "Every person who buys or receives any property that has been stolen",)),
    Q("bia_alday", "semantic", "What did the Supreme Court hold about the meaning of stolen, as the BIA decision "
      "reads it?", (
        "The Supreme Court has held in a different, albeit relevant, context that the term “stolen” is not a "
        "common law term",)),
    # 5 U.S.C. § 552(b)-(e) (TXT)
    Q("usc_552", "keyword", "5 U.S.C. § 552(b)(6) personnel and medical files", (
        "(6) personnel and medical files and similar files the disclosure of which would constitute a clearly "
        "unwarranted invasion of personal privacy;",)),
    Q("usc_552", "semantic", "Can an agency hold back its internal memos that would be privileged in a lawsuit, and "
      "does that stop after some years?", (
        "(5) inter-agency or intra-agency memorandums or letters … 25 years or more before the date on which the "
        "records were requested;",)),
    Q("usc_552", "semantic", "What has to happen to the parts of a requested record that are not exempt?", (
        "Any reasonably segregable portion of a record shall be provided to any person requesting such record "
        "after deletion of the portions which are exempt under this subsection.",)),
    Q("usc_552", "date", "By what date each year must agencies send their FOIA report to the Attorney General?", (
        "(1) On or before February 1 of each year, each agency shall submit to the Attorney General of the "
        "United States",)),
    Q("usc_552", "keyword", "OPEN FOIA Act of 2009", (
        "(B) if enacted after the date of enactment of the OPEN FOIA Act of 2009, specifically cites to this "
        "paragraph.",)),
    Q("usc_552", "semantic", "When may the FBI treat classified counterterrorism files as if the records law did "
      "not reach them?", (
        "(3) Whenever a request is made which involves access to records maintained by the Federal Bureau of "
        "Investigation … treat the records as not subject to the requirements of this section.",)),
    Q("usc_552", "semantic", "Does the public records statute let an agency keep information from Congress?", (
        "This section is not authority to withhold information from Congress.",)),
    Q("usc_552", "keyword", "§ 552(e)(1)(G) responses in 20-day increments up to 200 days", (
        "(i) the number of requests for records to which the agency has responded with a determination within a "
        "period up to and including 20 days, and in 20-day increments up to and including 200 days;",)),
    Q("usc_552", "semantic", "Under the statute, where must the Attorney General make the agencies' reports "
      "available?", (
        "(4) The Attorney General of the United States shall make each report which has been made available by "
        "electronic means available at a single electronic access point.",)),
    # 28 U.S.C. § 1332(a)-(b), scanned (image-only PDF)
    Q("usc_1332", "keyword", "matter in controversy exceeds $75,000 exclusive of interest and costs", (
        "(a) The district courts shall have original jurisdiction of all civil actions where the matter in "
        "controversy exceeds the sum or value of $75,000, exclusive of interest and costs, and is between",)),
    Q("usc_1332", "semantic", "Can a federal court hear a suit between a state citizen and a green-card holder who "
      "lives in the same state?", (
        "(2) citizens of a State and citizens or subjects of a foreign state, except that … domiciled in the same "
        "State;",)),
    Q("usc_1332", "semantic", "What can happen to a plaintiff in federal court who ends up recovering less than the "
      "jurisdictional amount?", (
        "(b) Except when express provision therefor is otherwise made … may impose costs on the plaintiff.",)),
    Q("usc_1332", "citation", "28 U.S.C. § 1332(a)(4) foreign state as plaintiff", (
        "(4) a foreign state, defined in section 1603(a) of this title , as plaintiff and citizens of a State or "
        "of different States.",)),
    # CM/ECF notice, M.D. Fla. (plain-text e-mail)
    Q("nef_flmd", "keyword", "8:23-cr-00025 criminal conviction appeal", (
        "appeal of her related criminal conviction in case No. 8:23-cr-25-VMC-AEP.",)),
    Q("nef_flmd", "entity", "Which judge signed the order granting the extension in the Heartbeat of Miami case?", (
        "Signed by Judge Kathryn Kimball Mizelle on 4/8/2025.",)),
    Q("nef_flmd", "semantic", "By when must the defendant send her letters saying sorry?", (
        "Defendant Gabriella Oropesa must submit letters of apology in accordance\nwith the [86] Judgment no "
        "later than 14 days after the conclusion of the\nappeal of her related criminal conviction",)),
    Q("nef_flmd", "date", "When was the Heartbeat of Miami case closed?", ("WARNING: CASE CLOSED on 02/21/2024",)),
    # CM/ECF notice, M.D. Ala. (HTML e-mail)
    Q("nef_almd", "entity", "Who filed document 9 in Stapler v. Automatic Food Service, and what was it?", (
        "NOTICE  by Automatic Food Service, Inc.\n re [7]    MOTION for Extension of Time to File Answer",)),
    Q("nef_almd", "date", "When was the notice in the Stapler case entered and filed?", (
        "The following transaction was entered  by Geisler, Kimberly  on 8/9/2021\nat 11:53 AM CDT and filed on "
        "8/9/2021",)),
    Q("nef_almd", "keyword", "case 3:21-cv-437 case number", ("Case Number: … 3:21-cv-00437-ECM-SRW",)),
)
