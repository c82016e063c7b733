"""Transcripts for tests (issue 37), made as reporters print them: a deposition of John Smith taken March 3, 2021,
its transcript pages of 25 numbered rows (title, appearances, an index of examinations and exhibits with dot
leaders, direct and cross examinations under "BY MS. JONES:" and "BY MR. BROWN:", an objection, exhibits marked
for identification, the reporter's certificate), printed condensed (four transcript pages to a PDF sheet, in two
columns, under the reporting firm's footer) or one page to a page; and a motion hearing's transcript as a text
file, one printed page per form feed."""

from __future__ import annotations

from pathlib import Path

from tests.badfiles import text_pdf_bytes

FIRM = "ACME COURT REPORTING, INC. (555) 555-0100 www.acmereporting.example"
# (page, first row): rows of text from that row on
SMITH: dict[int, list[str]] = {
    1: ["UNITED STATES DISTRICT COURT", "DISTRICT OF DELAWARE", "", "HARBOR FREIGHT LINES, LLC,", "Plaintiff,",
        "v. Civil Action No. 20-1234", "CONTINENTAL PALLET CO.,", "Defendant.", "",
        "VIDEOTAPED DEPOSITION OF JOHN SMITH", "Wilmington, Delaware", "Wednesday, March 3, 2021", "",
        "Reported by: Dana Reyes, RPR"],
    2: ["A P P E A R A N C E S:", "", "On behalf of the Plaintiff:", "MS. ELLEN JONES, ESQUIRE", "Jones & Park LLP",
        "", "On behalf of the Defendant:", "MR. PETER BROWN, ESQUIRE", "Brown Legal Group"],
    3: ["I N D E X", "", "WITNESS EXAMINATION PAGE", "JOHN SMITH", "By Ms. Jones ........................ 4",
        "By Mr. Brown ........................ 7", "", "E X H I B I T S", "",
        "NO. DESCRIPTION PAGE", "Smith Exhibit 1 Purchase order of January 5, 2020 .......... 5",
        "Smith Exhibit 2 The March invoice, No. 4471 ............. 6"],
    4: ["JOHN SMITH,", "having been first duly sworn, testified as follows:", "", "DIRECT EXAMINATION",
        "BY MS. JONES:", "Q. Good morning, Mr. Smith. Would you state your", "name for the record?",
        "A. John Allen Smith.", "Q. Where are you employed?", "A. Continental Pallet Company, in the",
        "shipping department.", "Q. How long have you worked there?", "A. Eleven years this June.",
        "Q. Who signed the bill of lading for the cedar", "pallets?", "A. I signed it myself, on the morning the",
        "load left the yard.", "Q. Did anyone inspect the load before it left?",
        "A. Nobody inspected it. The inspector was", "out sick that whole week.", "Q. Did you tell anyone that?",
        "A. I told my supervisor, Ms. Kaur."],
    5: ["(Smith Exhibit 1 marked for identification.)", "BY MS. JONES:",
        "Q. I am handing you what has been marked Smith", "Exhibit 1. Do you recognize it?",
        "A. It is the purchase order for the cedar", "pallets.", "Q. Who approved it?",
        "MR. BROWN: Objection. Form.", "THE WITNESS: I think Mr. Ortiz approved it.", "BY MS. JONES:",
        "Q. Is that his signature at the bottom?", "A. Yes, that is his signature.",
        "Q. How many pallets did the order call for?", "A. Four hundred, all heat treated.",
        "Q. Were they all heat treated?", "A. I can't say. I never saw the stamps.", "", "",
        "Q. Did the order give a delivery date?", "A. The fifteenth of January."],
    6: ["(Smith Exhibit 2 marked for identification.)", "Q. Now, Exhibit 2. What is it?",
        "A. That is the March invoice for the same load.", "Q. Who prepared the March invoice?",
        "A. Our billing office prepared it, and I", "checked the pallet count against my log.",
        "Q. Was the count right?", "A. No. The March invoice charged for four", "hundred and twenty pallets.",
        "Q. Did you raise the overcharge with anyone?", "MR. BROWN: Objection. Assumes facts.",
        "THE WITNESS: I flagged it to billing by e-mail", "the next day, but nobody changed it.",
        "MS. JONES: Let's go off the record.", "THE VIDEOGRAPHER: Off the record at 10:41 a.m.",
        "(A recess was taken.)"],
    7: ["CROSS-EXAMINATION", "BY MR. BROWN:", "Q. Mr. Smith, you did not load the truck", "yourself, did you?",
        "A. No, the yard crew loaded it.", "Q. And you were in the office that morning?",
        "A. Most of it, yes.", "MR. BROWN: No further questions.", "MS. JONES: Nothing further.",
        "(The deposition concluded at 11:20 a.m.)"],
    8: ["REPORTER'S CERTIFICATE", "", "I, Dana Reyes, Registered Professional Reporter,", "certify that the witness",
        "was duly sworn by me and that the foregoing is a", "true record of the testimony given.", "",
        "Dana Reyes, RPR"],
}
SMITH_AT = {4: 2}  # the first row of a page's text, when not row 1 (others start at row 1)
HEARING_LINE = "THE COURT: The motion to compel is granted as to the March invoices and denied as to the rest."


def transcript_page(page: int, rows: list[str], first: int = 1) -> list[str]:
    """25 printed rows of a transcript page: its text from row `first`, the rest blank."""
    out = [""] * 25
    for i, text in enumerate(rows):
        out[first - 1 + i] = text
    return out


def smith_pages() -> dict[int, list[str]]:
    return {page: transcript_page(page, rows, SMITH_AT.get(page, 1)) for page, rows in SMITH.items()}


def condensed_pdf(path: Path, pages: dict[int, list[str]] | None = None) -> Path:
    """Four transcript pages to a sheet, two columns of two, each panel under "Page N" with its line numbers in a
    gutter, the firm's footer across the sheet."""
    pages = pages or smith_pages()
    numbers = sorted(pages)
    sheets = []
    for start in range(0, len(numbers), 4):
        lines: list[tuple[float, float, str]] = []
        for slot, page in enumerate(numbers[start:start + 4]):
            x, top = (36 if slot < 2 else 318), (760 if slot % 2 == 0 else 400)
            lines.append((x + 200, top, f"Page {page}"))
            for row, text in enumerate(pages[page], start=1):
                y = top - 14 - row * 13
                lines.append((x, y, f"{row:>2}"))
                if text:
                    lines.append((x + 16, y, text))
        lines.append((100, 20, FIRM))
        sheets.append(lines)
    path.write_bytes(text_pdf_bytes(sheets, font_size=7))
    return path


def full_page_text(pages: dict[int, list[str]], furniture: str = FIRM) -> str:
    """One transcript page per form feed: its number alone at the top, its rows, the firm's footer."""
    out = []
    for page in sorted(pages):
        rows = [f"{row:>2}  {text}".rstrip() for row, text in enumerate(pages[page], start=1)]
        out.append("\n".join([f"{page:>60}", "", *rows, "", furniture]))
    return "\f".join(out) + "\n"


def hearing_pages() -> dict[int, list[str]]:
    """A motion hearing of March 10, 2021: the court's ruling at 12:4."""
    pages: dict[int, list[str]] = {1: transcript_page(1, [
        "UNITED STATES DISTRICT COURT", "DISTRICT OF DELAWARE", "", "HARBOR FREIGHT LINES, LLC v.",
        "CONTINENTAL PALLET CO., Civil Action No. 20-1234", "", "TRANSCRIPT OF MOTION HEARING",
        "BEFORE THE HONORABLE RUTH ALVAREZ", "March 10, 2021"])}
    for page in range(2, 15):
        rows = []
        for row in range(1, 26):
            speaker = ("THE COURT: Go on, counsel." if row % 3 == 0 else
                       f"MS. JONES: Your Honor, the documents on page {page} of our exhibit list bear on it."
                       if row % 3 == 1 else "MR. BROWN: We produced what we had, Your Honor.")
            rows.append(HEARING_LINE if (page, row) == (12, 4) else speaker)
        pages[page] = rows
    return pages


TRIAL_LINE = "A. The March invoice was wrong, and I said so in writing."


def trial_pages() -> dict[int, list[str]]:
    """The second volume of a jury trial's transcript (June 8, 2021): Maria Kaur on direct, her answer at 3:5."""
    pages = {1: transcript_page(1, [
        "UNITED STATES DISTRICT COURT", "DISTRICT OF DELAWARE", "", "HARBOR FREIGHT LINES, LLC v.",
        "CONTINENTAL PALLET CO., Civil Action No. 20-1234", "", "TRANSCRIPT OF JURY TRIAL", "VOLUME II",
        "June 8, 2021", "BEFORE THE HONORABLE RUTH ALVAREZ"])}
    pages[2] = transcript_page(2, [
        "MARIA KAUR, called by the Plaintiff, having been", "duly sworn, testified as follows:",
        "DIRECT EXAMINATION", "BY MS. JONES:", "Q. Ms. Kaur, what is your position?",
        "A. I supervise shipping at Continental.", "Q. Did Mr. Smith speak to you about the cedar load?",
        "A. He did, that afternoon."])
    pages[3] = transcript_page(3, [
        "Q. What did you do about the invoice?", "MR. BROWN: Objection, Your Honor. Relevance.",
        "THE COURT: Overruled. You may answer.", "Q. Go ahead.", TRIAL_LINE,
        "Q. Did anyone answer you?", "A. No one did."])
    return pages


ERRATA = ["ERRATA SHEET", "Witness: John Smith, deposition of March 3, 2021", "",
          'Page 5, Line 14: "Four hundred" should read "Three hundred" Reason: misspoke',
          "", "Signed: John Smith, April 2, 2021"]


def smith_with_errata() -> dict[int, list[str]]:
    """Smith's deposition with the errata sheet he signed after reading it (transcript page 9)."""
    return {**smith_pages(), 9: transcript_page(9, ERRATA)}
