"""What the held-out transcript set holds: its documents and its hand-labelled queries (read by make_set.py).

Four transcripts of three witnesses and a hearing, in the layouts a litigation file holds them: two real
depositions of Giuffre v. Maxwell, No. 15-cv-07433 (S.D.N.Y.), public court records (the excerpts the heldout_lit
set holds, from the same filed text): Ghislaine Maxwell's printed CONDENSED, four transcript pages to a PDF sheet
(make_set.py lays them out), and Johanna Sjoberg's full-page as a PDF; and two SYNTHETIC transcripts written for
CaseTrack's tests (tests/transcript_files.py): John Smith's deposition, condensed, and a motion hearing as a text
file. No other real transcript was found in the time there was (the code index's hits for transcript phrases are
motions quoting testimony, and synthetic test data); the synthetic ones are marked so in the manifest.

The queries were written by reading these texts, before any search was run on this set; they ask as a
litigator does: by page:line ("Maxwell Dep. 17:5-8", "Hr'g Tr. 12:4"), by what was said, by who objected, by
exhibit. An answer is a passage of the reference text (whitespace ignored), or "first … last".
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import EFILES, EFILES_AT
from heldout_build import GIUFFRE_PUBLIC as PUBLIC
from heldout_build import HandQuery as Q
from heldout_build import SourcedDoc as Doc

SYNTHETIC = "Synthetic: written for CaseTrack's tests (tests/transcript_files.py); no real person or case."

DOCS = (
    Doc("maxwell_dep", "Maxwell Dep 2016-04-22 (condensed).pdf", "deposition",
        "Videotaped deposition of Ghislaine Maxwell, April 22, 2016, excerpts (ECF No. 1320-5): transcript pages "
        "1-2, 13, 16-17, 19, 22, 31, 37-40, 46, 53-55, laid out four to a sheet", EFILES, EFILES_AT,
        "complete_extraction/all_documents/1320-5.txt (as benchmarks/heldout_lit/source/maxwell_dep.txt)", PUBLIC),
    Doc("sjoberg_dep", "Sjoberg Deposition 2016-05-18.pdf", "deposition",
        "Deposition of Johanna Sjoberg, May 18, 2016 (ECF No. 1320-12): transcript pages 1-16, full page", EFILES,
        EFILES_AT, "complete_extraction/all_documents/1320-12.txt (as benchmarks/heldout_lit/source/sjoberg_dep.txt)",
        PUBLIC),
    Doc("smith_dep", "Smith Dep 2021-03-03 (condensed).pdf", "deposition",
        "Deposition of John Smith, March 3, 2021 (synthetic), laid out four to a sheet", "casetrack", "",
        "tests/transcript_files.py", SYNTHETIC),
    Doc("hearing", "Motion hearing transcript 2021-03-10.txt", "other",
        "Transcript of a motion hearing, March 10, 2021 (synthetic)", "casetrack", "", "tests/transcript_files.py",
        SYNTHETIC),
)

QUERIES = (
    Q("maxwell_dep", "citation", "Maxwell Dep. 17:5-8", (
        "5 Q. Are you a member at Mar-a-Lago?\n6 A. No.\n7 Q. Have you visited Mar-a-Lago?\n8 A. Yes.",)),
    Q("maxwell_dep", "semantic", "did Maxwell ever hire an employee who was a minor", (
        "6 Q. When you say adult employee, did … 9 A. Never.",)),
    Q("maxwell_dep", "semantic", "what Maxwell says she was doing while Roberts was first in the house", (
        "14 A. I spoke to her mother outside of … 18 house.",)),
    Q("maxwell_dep", "entity", "how did Maxwell come to know Nadia Marcinkova", (
        "22 Q. How did you meet Nadia Marcinkova? … 24 Jeffrey's and I recall meeting her at some",)),
    Q("maxwell_dep", "objection", "Pagliuca instructs the witness not to answer", (
        "3 MR. PAGLIUCA: I'm instructing her\n4 not to answer.",)),
    Q("maxwell_dep", "keyword", "spa home visits massage therapists", (
        "22 A. From time to time I would visit … 25 man or woman if they did home visits.",)),
    Q("maxwell_dep", "citation", "Maxwell Tr. 38:2-5", (
        "2 Q. Was she under 18 when you first met … 5 I first met her.",)),
    Q("sjoberg_dep", "semantic", "where was Sjoberg when Maxwell first approached her", (
        "9 A. She approached me while I was on campus at\n10 Palm Beach Atlantic College.",)),
    Q("sjoberg_dep", "keyword", "hourly pay offered for the house job, Sjoberg", ("9 A. Twenty dollars an hour.",)),
    Q("sjoberg_dep", "citation", "Sjoberg Dep. 13:6-8", (
        "6 A. Well, the next time she called me, she … 8 hour rubbing feet.",)),
    Q("sjoberg_dep", "semantic", "what errands Sjoberg ran on her first day of work at the house", (
        "20 A. Sure. I remember answering the phones and … 23 Depot to get ink.",)),
    Q("sjoberg_dep", "entity", "Emmy Taylor in the Sjoberg deposition", (
        "19 A. At that point, I met Emmy Taylor, and she … 22 showing me how to massage.",)),
    Q("sjoberg_dep", "exhibit", "which exhibit is the subpoena served on Sjoberg", (
        "19 Exhibit 2 is the subpoena that we served on you.",)),
    Q("sjoberg_dep", "objection", "Menninger objects that the question is leading", (
        "11 MS. MENNINGER: Objection, leading.",)),
    Q("sjoberg_dep", "date", "when did Sjoberg first meet Maxwell", (
        "6 A. 2001. March probably. End of\n7 February/beginning of March.",)),
    Q("smith_dep", "semantic", "who signed the bill of lading for the cedar pallets", (
        "17 A. I signed it myself, on the morning the\n18 load left the yard.",)),
    Q("smith_dep", "semantic", "was the load inspected before it left the yard", (
        "20 A. Nobody inspected it. The inspector was\n21 out sick that whole week.",)),
    Q("smith_dep", "citation", "Smith Dep. 6:7-9", (
        "7 Q. Was the count right?\n8 A. No. The March invoice charged for four\n9 hundred and twenty pallets.",)),
    Q("smith_dep", "exhibit", "Smith Exhibit 2 in the exhibit index", ("Smith Exhibit 2 The March invoice, No. 4471",)),
    Q("smith_dep", "entity", "who approved the purchase order for the pallets", (
        "9 THE WITNESS: I think Mr. Ortiz approved it.",)),
    Q("smith_dep", "semantic", "on cross-examination, who loaded the truck", (
        "3 Q. Mr. Smith, you did not load the truck … 5 A. No, the yard crew loaded it.",)),
    Q("hearing", "citation", "Hr'g Tr. 12:4", (
        "4  THE COURT: The motion to compel is granted as to the March invoices and denied as to the rest.",)),
    Q("hearing", "date", "date of the motion hearing before Judge Alvarez", ("9  March 10, 2021",)),
)
