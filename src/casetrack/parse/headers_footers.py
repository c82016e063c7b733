"""Header and footer text, shared by the DOCX and RTF parsers.

A pleading's header or footer carries what a paralegal searches for first: the case number,
the short title, "CONFIDENTIAL — SUBJECT TO PROTECTIVE ORDER", a Bates stamp. Word and RTF
files store each header once per section, not once per page, and their pages are mostly
estimated, so the parsers read each distinct header/footer paragraph once, at the start of
the first page of the section that shows it: repeating it on every page would flood a search
with identical hits, while once is enough to find the document and cite the page.

Page-number fields (PAGE, NUMPAGES, SECTIONPAGES) are replaced by PAGE_NUMBER before the text
is read: their stored result is the number of whatever page Word last rendered, so it is
dropped, together with the "Page ... of ..." words around it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from casetrack.parse.normalize import APPROXIMATE_PAGE_CHARS

PAGE_NUMBER = "\ue002"  # private-use character standing where a page-number field was
PAGE_FIELDS = frozenset({"PAGE", "NUMPAGES", "SECTIONPAGES"})

_PAGE_NUMBER_WORDS = re.compile(rf"(?:\bpage\s*)?{PAGE_NUMBER}(?:\s*(?:of|/)\s*{PAGE_NUMBER})?", re.IGNORECASE)
# What is left of a line that held only page numbering: "Page 3 of 12", "- 3 -", "Page", "of".
_SCAFFOLDING = re.compile(r"(?:page\s*)?\d*\s*(?:(?:of|/)\s*\d*)?", re.IGNORECASE)
_SEPARATORS = " \t|-\u2013\u2014\u00b7\u2022,:"  # left at a line's ends when the page number beside them goes


def is_page_field(instruction: str) -> bool:
    """Whether a field instruction such as " PAGE \\* MERGEFORMAT " inserts a page number."""
    words = instruction.split()
    return bool(words) and words[0].upper() in PAGE_FIELDS


def clean_paragraph(paragraph: str) -> str:
    """A header/footer paragraph without its page numbering; "" when nothing else is left.
    Lines are whitespace-collapsed: headers align their parts with tabs and runs of spaces."""
    lines = []
    for line in paragraph.split("\n"):
        had_page_number = PAGE_NUMBER in line
        line = " ".join(_PAGE_NUMBER_WORDS.sub(" ", line).replace(PAGE_NUMBER, " ").split())
        if had_page_number:
            line = line.strip(_SEPARATORS)
        if any(char.isalnum() for char in line) and not _SCAFFOLDING.fullmatch(line):
            lines.append(line)
    return "\n".join(lines)


class HeaderFooterReader:
    """Decides which header/footer paragraphs a document's text gets: each distinct one once
    (a first-page header repeating the default header's case number is read once), and not
    when the page it would open already says the same thing (a pleading whose header repeats
    its title or case number right above the caption)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def new(self, paragraphs: Iterable[str]) -> list[str]:
        """The cleaned paragraphs not read before, in order; marks them as read."""
        fresh = []
        for paragraph in paragraphs:
            cleaned = clean_paragraph(paragraph)
            key = _key(cleaned)
            if key and key not in self._seen:
                self._seen.add(key)
                fresh.append(cleaned)
        return fresh


def not_on_the_page(paragraphs: Iterable[str], following_text: str) -> list[str]:
    """The paragraphs whose text is not already a line or paragraph of the page that follows
    (judged on one estimated page's worth of text, since later pages may be estimated)."""
    window = following_text[:APPROXIMATE_PAGE_CHARS]
    present = {_key(line) for line in window.split("\n")} | {_key(block) for block in window.split("\n\n")}
    return [paragraph for paragraph in paragraphs if _key(paragraph) not in present]


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()
