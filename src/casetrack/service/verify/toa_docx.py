"""A table of authorities written as a Word file, in a brief's usual form: headings, entries with a hanging
indent, dot leaders to the page numbers at the right margin."""

from __future__ import annotations

from pathlib import Path

import docx
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_TAB_ALIGNMENT, WD_TAB_LEADER
from docx.shared import Inches, Pt

from casetrack.errors import InvalidInput, quoted
from casetrack.verify.authorities.toa import HEADING_ORDER, TableOfAuthorities

RIGHT_MARGIN_TAB = Inches(6.5)
SUFFIX = " - Table of Authorities.docx"


def toa_path_for(draft: Path | None, output_path: str | None, folder: Path | None = None) -> Path:
    """Where the table goes: `output_path` (where the user asked), else in `folder` (the server passes its data
    folder's tables/: a draft's path may come from anywhere, and its folder, a client's share or a watched
    folder, is no place to write unasked), else next to the draft (the command line, where the user typed the
    draft's path). A file already there is never replaced (a number is added to the name). Raises InvalidInput
    for an output_path that is no .docx or whose folder does not exist, or pasted text with nowhere to go."""
    if output_path:
        target = Path(output_path).expanduser()
        if target.suffix.lower() != ".docx":
            raise InvalidInput(f"output_path must name a .docx file (got {quoted(target.name)}).")
    elif folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ((draft.stem if draft is not None else "Pasted draft") + SUFFIX)
    elif draft is not None:
        target = draft.with_name(draft.stem + SUFFIX)
    else:
        raise InvalidInput("A pasted draft has no folder to save the table in: give the draft as a file (file_path) "
                           "to save the table beside it.")
    if not target.parent.is_dir():
        raise InvalidInput(f"The folder {quoted(target.parent, 300)} does not exist; give an output_path in an "
                           "existing folder.")
    n, free = 2, target
    while free.exists():
        free = target.with_name(f"{target.stem} ({n}){target.suffix}")
        n += 1
    return free


def write_toa_docx(table: TableOfAuthorities, target: Path) -> Path:
    document = docx.Document()
    title = document.add_paragraph()
    title.alignment = WD_ALIGN_PARAGRAPH.CENTER
    run = title.add_run("TABLE OF AUTHORITIES")
    run.bold = True
    run.font.size = Pt(12)
    for heading in HEADING_ORDER:
        entries = table.under(heading)
        if not entries:
            continue
        head = document.add_paragraph()
        head.paragraph_format.tab_stops.add_tab_stop(RIGHT_MARGIN_TAB, WD_TAB_ALIGNMENT.RIGHT)
        label = head.add_run(heading)
        label.bold = True
        head.add_run("\tPage(s)").underline = True
        for entry in entries:
            paragraph = document.add_paragraph()
            fmt = paragraph.paragraph_format
            fmt.left_indent = Inches(0.5)
            fmt.first_line_indent = Inches(-0.5)
            fmt.tab_stops.add_tab_stop(RIGHT_MARGIN_TAB, WD_TAB_ALIGNMENT.RIGHT, WD_TAB_LEADER.DOTS)
            paragraph.add_run(entry.authority)
            pages = paragraph.add_run(f"\t{entry.pages_text}")
            pages.italic = entry.passim
    if table.pages_estimated:
        document.add_paragraph("Page numbers are estimates: the draft has no fixed pages.").runs[0].italic = True
    document.save(str(target))
    return target
