"""Hand labels for the seven held-out opinions in data/opinions/ (read by hand, written before any fix).

Each label names its place in the text by a snippet that occurs in the file (the first occurrence, or the
`nth`), so a miss is the extractor's, not the label's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LawLabel:
    file: str
    snippet: str  # as written
    key: str  # CaseTrack's canonical key for it


@dataclass(frozen=True)
class TreatmentLabel:
    file: str
    snippet: str  # the citation's volume-reporter-page, as written
    treatment: str
    why: str


@dataclass(frozen=True)
class DateLabel:
    file: str
    snippet: str  # the date as written
    iso: str
    events: tuple[str, ...]  # acceptable event types


# State statutes and rules (and the federal ones beside them) as lawyers write them.
LAWS: tuple[LawLabel, ...] = (
    LawLabel("opinion_AL.txt", "Ala. Code § 17-13-23", "Ala. Code § 17-13-23"),
    LawLabel("opinion_AL.txt", "Ala. Code § 16-9-4", "Ala. Code § 16-9-4"),
    LawLabel("opinion_AL.txt", "Ala. Code § 17-5-2(1)", "Ala. Code § 17-5-2"),
    LawLabel("opinion_AL.txt", "Ala. Code § 17-13-5(a)", "Ala. Code § 17-13-5"),
    LawLabel("opinion_AL.txt", "Ala. Code § 17-9-3(a)(2)", "Ala. Code § 17-9-3"),
    LawLabel("opinion_AL.txt", "section 17-13-5(b) of the Code of Alabama", "Ala. Code § 17-13-5"),
    LawLabel("opinion_AL.txt", "section 16-9-4 of the Code of Alabama", "Ala. Code § 16-9-4"),
    LawLabel("opinions_AL2.txt", "Ala. Code § 28-2-1", "Ala. Code § 28-2-1"),
    LawLabel("opinions_AL2.txt", "Ala. Code § 8-1A-5(a)", "Ala. Code § 8-1A-5"),
    LawLabel("opinions_AL2.txt", "Ala. Code § 8-1A-18(a)", "Ala. Code § 8-1A-18"),
    LawLabel("opinions_AL2.txt", "ALA. Code § 28-2A-1(d)", "Ala. Code § 28-2A-1"),
    LawLabel("opinions_AL2.txt", "section 28-2-1 of the Code of Alabama", "Ala. Code § 28-2-1"),
    LawLabel("opinions_KY.txt", "KRS 117.235", "Ky. Rev. Stat. § 117.235"),
    LawLabel("opinions_KY.txt", "KRS 117.265(5)", "Ky. Rev. Stat. § 117.265"),
    LawLabel("opinions_KY.txt", "KRS 117.235(3)(c)", "Ky. Rev. Stat. § 117.235"),
    LawLabel("opinions_KY.txt", "KRS 424.290(1)", "Ky. Rev. Stat. § 424.290"),
    LawLabel("opinions_KY.txt", "Ariz. Rev. Stat. § 16-312", "Ariz. Rev. Stat. § 16-312"),
    LawLabel("opinions_KY.txt", "Tex. Elec. Code § 146.031", "Tex. Elec. Code § 146.031"),
    LawLabel("case_NC.txt", "N.C. Gen. Stat. § 163-166.3(c)", "N.C. Gen. Stat. § 163-166.3"),
    LawLabel("case_NC.txt", "N.C. Gen. Stat. § 163-273(a)(1)", "N.C. Gen. Stat. § 163-273"),
    LawLabel("case_NC.txt", "N.C. Gen. Stat. § 114-11.6", "N.C. Gen. Stat. § 114-11.6"),
    LawLabel("case_NC.txt", "N.C. Gen. Stat. §163-166.3(c)", "N.C. Gen. Stat. § 163-166.3"),
    LawLabel("case_NC.txt", "N.C. Gen. Stat. § 163-22(c)", "N.C. Gen. Stat. § 163-22"),
    LawLabel("case_NC.txt", "42 U.S.C. § 1988", "42 U.S.C. § 1988"),
    LawLabel("case_NC.txt", "Federal Rule of Civil Procedure 12(b)(1)", "Fed. R. Civ. P. 12(b)(1)"),
    LawLabel("case_NC.txt", "Federal Rule of Civil Procedure 15(d)", "Fed. R. Civ. P. 15(d)"),
    LawLabel("case_NC.txt", "Fed.R.Civ.P. 25(d)", "Fed. R. Civ. P. 25(d)"),
    LawLabel("case_Democracy.txt", "N.C. Gen. Stat. § 163-230.2(e)(2)", "N.C. Gen. Stat. § 163-230.2"),
    LawLabel("case_Democracy.txt", "N.C. Gen. Stat. § 163-231(b)(1)", "N.C. Gen. Stat. § 163-231"),
    LawLabel("case_Democracy.txt", "163-231(b)(1), ( id.", "N.C. Gen. Stat. § 163-231"),
    LawLabel("case_Democracy.txt", "52 U.S.C. § 10508", "52 U.S.C. § 10508"),
    LawLabel("case_Democracy.txt", "Fed. R. Civ. P. 15(c)(1)(B)", "Fed. R. Civ. P. 15(c)(1)(B)"),
    LawLabel("statute_NC.txt", "G.S. 163-230.1", "N.C. Gen. Stat. § 163-230.1"),
    LawLabel("statute_NC.txt", "G.S. 20-37.7", "N.C. Gen. Stat. § 20-37.7"),
    LawLabel("statute_NC.txt", "G.S. 163-82.14 (d)", "N.C. Gen. Stat. § 163-82.14"),
    LawLabel("statute_NC.txt", "G.S. 163-226.3", "N.C. Gen. Stat. § 163-226.3"),
    LawLabel("statute_NC.txt", "26 U.S.C. § 7502 (f)(2)", "26 U.S.C. § 7502"),
    LawLabel("opinion.txt", "Tex. Educ. Code Ann. §51.803", "Tex. Educ. Code Ann. § 51.803"),
)

# Real citing sentences; the treatment a careful reader gives the cited authority.
TREATMENTS: tuple[TreatmentLabel, ...] = (
    TreatmentLabel("opinion_AL.txt", "459 So.2d 876", "discussed", "the party relies on 'the holding in Harris'"),
    TreatmentLabel("opinion_AL.txt", "100 Fla. 1112", "followed", "'has best been defined by ... in Chamberlain'"),
    TreatmentLabel("opinion_AL.txt", "565 So.2d 247", "overruled", "'overruled on other grounds by Davis'"),
    TreatmentLabel("opinion_AL.txt", "592 So.2d 546", "cited", "Davis only overrules Megginson"),
    TreatmentLabel("opinion_AL.txt", "293 Ala. 298", "cited", "'See gen., Foster' with a parenthetical"),
    TreatmentLabel("opinions_KY.txt", "132 S.W.2d 772", "cited", "'See Asher v. Arnett'"),
    TreatmentLabel("opinions_KY.txt", "957 S.W.2d 213", "discussed", "'in Ellis v. Meeks, the Supreme Court held'"),
    TreatmentLabel("opinions_KY.txt", "391 S.W.3d 713", "cited", "after a quotation of the rule"),
    TreatmentLabel("case_NC.txt", "298 U.S. 178", "cited", "'See McNutt'"),
    TreatmentLabel("case_NC.txt", "568 U.S. 398", "cited", "'Cf. Clapper'"),
    TreatmentLabel("case_NC.txt", "355 F.Supp.3d 355", "distinguished",
                   "'each case ... found standing ... as an afterthought'; the next sentence: little persuasive value"),
    TreatmentLabel("case_NC.txt", "721 F.3d 226", "cited", "support after a statement of law"),
    TreatmentLabel("case_NC.txt", "520 U.S. 154", "cited", "after a quotation"),
    TreatmentLabel("case_Democracy.txt", "447 F. Supp. 2d 1314", "distinguished", "'But see League of Women Voters'"),
    TreatmentLabel("case_Democracy.txt", "907 F.3d 1167", "cited", "'See Knox' with a (finding ...) parenthetical"),
    TreatmentLabel("case_Democracy.txt", "476 F. Supp. 3d 158", "cited", "'see Democracy N.C.'"),
    TreatmentLabel("case_Democracy.txt", "491 U.S. 397", "cited", "after a quotation"),
    TreatmentLabel("opinion.txt", "78 F. 3d 932", "discussed", "'It ruled ...' then Hopwood"),
    TreatmentLabel("opinion.txt", "323 U. S. 214", "discussed", "'first articulated the ... standard in Korematsu'"),
    TreatmentLabel("opinion.txt", "339 U. S. 637", "discussed", "'rejected ... in McLaurin ..., where we held'"),
    TreatmentLabel("opinion.txt", "416 U. S. 312", "cited", "'See DeFunis' (Douglas, J., dissenting)"),
    TreatmentLabel("opinion.txt", "476 U. S. 267", "cited", "'If ... Wygant' as the source of a quotation"),
    TreatmentLabel("opinion.txt", "539 U. S. 306 (2003), and hold", "discussed",
                   "a concurrence: 'I would overrule Grutter' (it is not overruled)"),
)

# The judges a reader finds in each document (surnames), and the courts (CaseTrack keys) it names.
JUDGES: dict[str, tuple[str, ...]] = {
    "opinion.txt": ("Kennedy", "Scalia", "Thomas", "Ginsburg", "Kagan", "Roberts", "Breyer", "Alito", "Sotomayor"),
    "case_Democracy.txt": ("Osteen",),
    "opinion_AL.txt": ("Armstead", "Martin"),
    "opinions_AL2.txt": ("Woodroof", "Steindorff", "Beard"),
}
COURTS: dict[str, tuple[str, ...]] = {
    "opinion.txt": ("scotus", "ca5", "txwd", "state:ia:supreme"),
    "case_NC.txt": ("nced", "ca4", "ca6", "scotus"),
    "case_Democracy.txt": ("ncmd", "ca4", "ca5", "ca9"),
    "opinion_AL.txt": ("state:al:supreme", "state:fl:supreme"),
    "opinions_KY.txt": ("state:ak:supreme",),
}
# Caption parties (a name as written) per court document.
PARTIES: dict[str, tuple[str, ...]] = {
    "opinion.txt": ("Abigail Noel Fisher", "University of Texas at Austin"),
    "case_NC.txt": ("Susan Jane Hogarth", "Karen Brinson Bell", "Alan Hirsch", "Jeff Carmon", "Stacy Eggers IV",
                    "Kevin N. Lewis", "Siobhan O'Duffy Millen", "Danielle Brinton", "Olivia McCall", "Erica Porter",
                    "Angela Hawkins", "Greg Flynn", "Gerry Cohen", "Keith Weatherly", "Lorrin Freeman",
                    "Jeff Jackson"),
    "case_Democracy.txt": ("Democracy North Carolina", "League of Women Voters of North Carolina", "John P. Clark",
                           "Lelia Bentley", "Regina Whitney Edwards", "Robert K. Priddy II", "Susan Schaffer",
                           "Walter Hutchins", "North Carolina State Board of Elections", "Damon Circosta",
                           "Stella Anderson", "Stacy Eggers IV", "Jeff Carmon III", "Tommy Tucker",
                           "Karen Brinson Bell", "Philip E. Berger", "Timothy K. Moore"),
}

DATES: tuple[DateLabel, ...] = (
    DateLabel("opinion.txt", "Argued October 10, 2012", "2012-10-10", ("hearing",)),
    DateLabel("opinion.txt", "Decided June 24, 2013", "2013-06-24", ("decided",)),
    DateLabel("case_NC.txt", "Date: March 28, 2025", "2025-03-28", ("decided",)),
    DateLabel("case_NC.txt", "filed August 22, 2024", "2024-08-22", ("filed",)),
    DateLabel("case_NC.txt", "hearing October 7, 2024", "2024-10-07", ("hearing",)),
    DateLabel("case_NC.txt", "On November 5, 2024, plaintiff filed", "2024-11-05", ("filed",)),
    DateLabel("case_NC.txt", "motion November 6, 2024", "2024-11-06", ("decided",)),
    DateLabel("case_NC.txt", "dated March 13, 2024", "2024-03-13", ("other", "signed")),
    DateLabel("case_NC.txt", "filed September 17, 2024", "2024-09-17", ("filed",)),
    DateLabel("case_NC.txt", "October 15, 2024, order", "2024-10-15", ("decided",)),
    DateLabel("case_Democracy.txt", "Signed March 10, 2022", "2022-03-10", ("decided", "signed")),
    DateLabel("case_Democracy.txt", "Complaint on May 22, 2020", "2020-05-22", ("filed",)),
    DateLabel("case_Democracy.txt", "Complaint on June 5, 2020", "2020-06-05", ("filed",)),
    DateLabel("case_Democracy.txt", "On June 10, 2020, Legislative Defendants moved", "2020-06-10", ("filed",)),
    DateLabel("case_Democracy.txt", "July 20 through July 22, 2020", "2020-07-22", ("hearing",)),
    DateLabel("case_Democracy.txt", "Complaint on March 18, 2021", "2021-03-18", ("filed",)),
    DateLabel("case_Democracy.txt", "Complaint on July 8, 2021", "2021-07-08", ("filed",)),
    DateLabel("case_Democracy.txt", "effect since January 1, 2020", "2020-01-01", ("effective",)),
    DateLabel("case_Democracy.txt", "signed into law on June 12, 2020", "2020-06-12", ("signed",)),
    DateLabel("opinion_AL.txt", "August 13, 2018\nHonorable", "2018-08-13", ("decided", "signed", "other")),
    DateLabel("opinion_AL.txt", "on July 2, 2018", "2018-07-02", ("other", "signed")),
    DateLabel("opinion_AL.txt", "dated July 10, 2002", "2002-07-10", ("decided", "signed", "other")),
    # "(Alaska Oct. 29, 2010)" closes a citation: the cited decision's date, no event of this opinion (relabelled
    # from "decided" when caption and date typing were scored on the held-out set).
    DateLabel("opinions_KY.txt", "Oct. 29, 2010", "2010-10-29", ("cited",)),
    DateLabel("statute_NC.txt", "eff. 1/1/2024", "2024-01-01", ("effective",)),
    DateLabel("statute_NC.txt", "eff. 6/12/2020", "2020-06-12", ("effective",)),
)


@dataclass(frozen=True)
class IdLabel:
    file: str
    snippet: str  # text holding the Id. citation, unique in the file
    keys: tuple[str, ...]  # what it refers to (any of parallel citations); () for the record, no authority
    why: str


# Where eyecite's own resolution of an Id. is wrong (it knows no rules, page markers or record citations):
# what the Id. refers to, read by hand. Every other Id. is expected to resolve as eyecite resolves it.
ID_TRUTH: tuple[IdLabel, ...] = (
    *(IdLabel("case_NC.txt", s, (), "the complaint, cited just before") for s in (
        "( Id. ¶¶ 30, 50-51)", "( Id. ¶¶ 52-53)", "( Id. ¶¶ 98-99, 101)", "( Id. ¶ 12)", "( Id. ¶ 27)",
        "social media post. ( Id. )")),
    IdLabel("case_NC.txt", "See id. at *5-6", ("2020 WL 6488704",), "N.C. A. Philip Randolph Inst., just cited"),
    IdLabel("case_NC.txt", "Id. § 163-278.", ("N.C. Gen. Stat. § 163-278",), "the code, another section"),
    IdLabel("case_NC.txt", "Id. §§ 163-273(b)", ("N.C. Gen. Stat. § 163-273",), "the code, another section"),
    *(IdLabel("case_Democracy.txt", s, (), "the Fourth Amended Complaint, cited just before") for s in (
        "( id. ¶¶ 59–60), and", "( id. ¶¶ 41–54)", "core mission.\" ( Id. )", "absentee ballots.\" ( Id. )",
        "future elections.\" ( Id. ) Plaintiffs", "( See id. ¶¶ 32–36.)", "assist, ( id. ¶¶ 59–60)",
        "( Id. ¶ 23.)", "( Id. ¶ 24.)", "( Id. ¶¶ 24–25.)", "( Id. ¶ 27.)", "( Id. ¶ 35.)")),
    IdLabel("case_Democracy.txt", "occurrence[s].\" Id.", ("Fed. R. Civ. P. 15(c)(1)(B)",), "the rule just quoted"),
    IdLabel("case_Democracy.txt", "Id. at 815", ("462 F. Supp. 3d 792",), "Priorities USA; Buckley is in (quoting)"),
    IdLabel("case_Democracy.txt", "Id. at 191", ("911 F.3d 183",), "Deal; Cooksey is in (quoting)"),
    IdLabel("case_Democracy.txt", "Id. (citing Two", ("556 U.S. 662", "129 S. Ct. 1937", "173 L. Ed. 2d 868"),
            "Iqbal; Twombly is in (quoting)"),
    IdLabel("case_Democracy.txt", "strict scrutiny applied. Id.", ("462 F. Supp. 3d 792",),
            "Priorities USA; [590 F.Supp.3d 863] is a page marker"),
    IdLabel("case_Democracy.txt", "Id. at 614–15", ("867 F.3d 604",), "OCA-Greater Hous.; after a page marker"),
    IdLabel("case_Democracy.txt", "Id. at 615", ("867 F.3d 604",), "OCA-Greater Hous."),
    IdLabel("case_Democracy.txt", "Id. § 10310(c)(1)", ("52 U.S.C. § 10310",), "the code, another section"),
)

ID_TRUTH += (
    IdLabel("opinion.txt", "legitimate.’ ”\n    Ibid.", ("488 U.S. 469",), "Croson, just cited"),
    IdLabel("opinion.txt", "Id., at 297–298", ("539 U.S. 244",), "Gratz, cited just before at 303–304"),
    IdLabel("opinion.txt", "Id., at\n298", ("539 U.S. 244",), "Gratz; the page head 'Cite as: 570 U. S.' between"),
    *(IdLabel("opinion.txt", s, (), "a brief, cited just before") for s in (
        "See id., at 31", "id., at 25 (", "id., at 97–98", "id., at 96", "1991.4 Ibid.")),
    *(IdLabel("opinion.txt", s, ("466 U.S. 429",), "Palmore v. Sidoti, 466 U. S.\\n429") for s in (
        "Id., at 433", "give them effect.” Ibid.")),
    *(IdLabel("opinions_KY.txt", s, ("No. S-14054",), "an unpublished slip opinion cited by docket number")
      for s in ("Id., at 3-4", "Id., at 5-6", "Id., at 6")),
    IdLabel("opinions_KY.txt", "statute. Id. [2]", ("Ky. Rev. Stat. § 117.265",), "KRS 117.265(6), just cited"),
    *(IdLabel("opinions_KY.txt", s, ("OAG 92-73",), "an attorney-general opinion, just cited") for s in (
        "manner.'\" Id.", "purpose.\" Id.", "characteristics. Id.")),
    IdLabel("opinion_AL.txt", "Id. at 1118", ("100 Fla. 1112", "130 So. 721"), "Chamberlain, just quoted"),
    IdLabel("case_Democracy.txt", "as true. Id. Further", ("556 U.S. 662", "129 S. Ct. 1937", "173 L. Ed. 2d 868"),
            "Iqbal again; Twombly is in (citing)"),
    IdLabel("case_Democracy.txt", "speculative.’ \" Id. (quoting Gasner", ("713 F.3d 745",),
            "Doe; Miller is in (quoting)"),
)

ID_TRUTH += (
    *(IdLabel("opinion.txt", s, ("539 U.S. 306",), "Grutter, cited just before (eyecite leaves it unresolved)")
      for s in ("diversity,” id.,\nat 330", "admissions.” Id., at 325.", "discrimina-\ntion. Id., at 325.",
                "scrutiny. Id., at 353.", "application.” Id., at 337.\n  Narrow")),
    IdLabel("case_Democracy.txt", "online. Id. § 7.(a)", ("2020 N.C. Sess. Laws 2020",), "H.B. 1169's session law"),
)
