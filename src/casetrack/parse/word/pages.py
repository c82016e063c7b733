"""Word paragraphs into pages. Word files have no fixed pages; the pages are where the document
records a break (manual, section, or Word's last-rendered mark), with pages estimated where a
span between breaks is longer than a printed page. A pasted scan is a page of its own where it
is shown, replaced by its OCR pages (`docx_pictures`) once they are read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from lxml import etree

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.parse.headers_footers import not_on_the_page
from casetrack.parse.normalize import APPROXIMATE_PAGE_CHARS, normalize_page_text, split_approximate_pages

# A span between recorded breaks longer than this is more than one printed page: estimate inside it.
MAX_CHARS_BETWEEN_BREAKS = 2 * APPROXIMATE_PAGE_CHARS


@dataclass(frozen=True, slots=True)
class ShownPicture:
    """A picture where the body shows it: the relationship id of its image part, and its blip (or VML
    imagedata) element, whose ancestors say how large it is shown there."""

    key: str
    element: etree._Element


class PageBuilder:
    """Collects paragraphs into pages; a break on an empty page is ignored, because Word
    records the same break twice (a manual break followed by a rendered-break mark).
    A section's header/footer paragraphs wait for its first body text, so they open the page
    that text is on (after any page break recorded before it), as a tuple among the paragraphs."""

    def __init__(self, line_width: int | None = None) -> None:
        self._line_width = line_width  # characters a body line prints at (parse/word/lines.py)
        self._pages: list[list[str | tuple[str, ...] | ShownPicture]] = [[]]
        self._pending: list[str] = []
        self._placed: set[str] = set()
        self._recorded_break = False  # whether the document records any page break (a scan's page is not one)

    def start_section(self, headers_and_footers: list[str]) -> None:
        self._pending.extend(headers_and_footers)  # a section without body text passes them on

    def add(self, paragraph: str) -> None:
        if paragraph.strip():
            if self._pending:
                self._pages[-1].append(tuple(self._pending))
                self._pending = []
            self._pages[-1].append(paragraph)

    def page_break(self) -> None:
        self._recorded_break = True
        self._new_page()

    def picture(self, picture: ShownPicture) -> None:
        """A page-sized picture: a page of its own here (a picture shown twice, only where it is first)."""
        if picture.key not in self._placed:
            self._placed.add(picture.key)
            self._new_page()
            self._pages[-1].append(picture)
            self._pages.append([])

    def _new_page(self) -> None:
        if self._pages[-1]:
            self._pages.append([])

    def paragraphs(self) -> list[list[str | ShownPicture]]:
        """Per page, the paragraphs, each header/footer block reduced to those the page does not
        already say (a header repeating the caption's case number is not read twice)."""
        if self._pending:
            self._pages[-1].append(tuple(self._pending))
            self._pending = []
        pages = []
        for items in self._pages:
            paragraphs: list[str | ShownPicture] = []
            for index, item in enumerate(items):
                if isinstance(item, str | ShownPicture):  # a picture is alone on its page
                    paragraphs.append(item)
                else:
                    following = "\n\n".join(later for later in items[index + 1 :] if isinstance(later, str))
                    paragraphs.extend(not_on_the_page(item, following))
            pages.append(paragraphs)
        return pages

    def pages(self, pictures: Mapping[str, Sequence[ParsedPage]] | None = None) -> tuple[ParsedPage, ...]:
        """The pages; each page-sized picture placed is replaced by its OCR pages from `pictures` (by relationship
        id), or left out when `pictures` is None or lacks it."""
        blocks: list[str | ShownPicture] = []
        for paragraphs in self.paragraphs():
            if len(paragraphs) == 1 and isinstance(paragraphs[0], ShownPicture):
                blocks.append(paragraphs[0])
            elif paragraphs:
                blocks.append(normalize_page_text("\n\n".join(p for p in paragraphs if isinstance(p, str))))
        read = pictures or {}
        blocks = [b for b in blocks if isinstance(b, str) or b.key in read]
        texts = [b for b in blocks if isinstance(b, str)]
        if len(blocks) == len(texts) <= 1:  # no recorded break and no scan: estimate every page
            estimated = split_approximate_pages(texts[0] if texts else "")
            return tuple(self._page(number, text, approximate=True) for number, text in enumerate(estimated, start=1))
        pages: list[ParsedPage] = []
        approximate = not self._recorded_break  # once one page is estimated, every later page number is too
        for block in blocks:
            if isinstance(block, ShownPicture):  # whether Word prints it on a page of its own is not recorded
                approximate = True
                pages.extend(replace(page, number=len(pages) + 1, approximate=True) for page in read[block.key])
                continue
            parts = split_approximate_pages(block) if len(block) > MAX_CHARS_BETWEEN_BREAKS else [block]
            approximate = approximate or len(parts) > 1
            pages.extend(self._page(len(pages) + 1, part, approximate=approximate) for part in parts)
        return tuple(pages)

    def _page(self, number: int, text: str, *, approximate: bool) -> ParsedPage:
        return ParsedPage(number=number, text=text, method=ExtractionMethod.NATIVE, approximate=approximate,
                          line_width=self._line_width)
