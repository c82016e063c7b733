"""The header and footer parts each section of a DOCX shows (see headers_footers for why
each is read once, at the start of its section's first page).

A section shows its default header, its first-page header when it sets w:titlePg, and its
even-page header when the document sets w:evenAndOddHeaders; the footers likewise. A section
without its own reference of a kind inherits the previous section's ("Link to Previous"),
so each part is returned for the first section showing it only.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import docx
from docx.oxml.ns import qn
from lxml import etree

from casetrack.parse.headers_footers import PAGE_NUMBER, is_page_field

# Headers before footers, and within each the first-page one before the one on every page: the
# order a reader meets them on the section's first page. Footers are put at the start of the
# page too, not after its body text, because DOCX pages are mostly estimated: where the first
# page ends is only known after the whole text is split, and the page start is where a search
# hit on the case number or Bates stamp is shown and cited.
_KINDS = (
    ("w:headerReference", "first"),
    ("w:headerReference", "default"),
    ("w:headerReference", "even"),
    ("w:footerReference", "first"),
    ("w:footerReference", "default"),
    ("w:footerReference", "even"),
)


def section_parts(
    document: docx.document.Document, section_properties: list[etree._Element]
) -> list[list[etree._Element]]:
    """For each w:sectPr (in body order), copies of the header/footer part roots it shows that no
    earlier section showed, with page-number fields replaced by PAGE_NUMBER."""
    settings = document.settings.element.find(qn("w:evenAndOddHeaders"))
    even_pages = _is_on(settings)
    related = document.part.related_parts
    read: set[str] = set()
    per_section: list[list[etree._Element]] = []
    for index, properties in enumerate(section_properties):
        shown = {"default"}
        if _is_on(properties.find(qn("w:titlePg"))):
            shown.add("first")
        if even_pages:
            shown.add("even")
        roots = []
        for tag, kind in _KINDS:
            if kind not in shown:
                continue
            relationship_id = _reference(section_properties[: index + 1], tag, kind)
            part = related.get(relationship_id) if relationship_id else None
            root = getattr(part, "element", None)
            if part is None or root is None or str(part.partname) in read:
                continue
            read.add(str(part.partname))
            roots.append(_without_page_numbers(root))
        per_section.append(roots)
    return per_section


def _reference(sections: list[etree._Element], tag: str, kind: str) -> str | None:
    """The relationship id of the part of this kind the last section shows, looking back
    through earlier sections for one it inherits."""
    for properties in reversed(sections):
        for reference in properties.iterfind(qn(tag)):
            if reference.get(qn("w:type"), "default") == kind:
                return reference.get(qn("r:id"))
    return None


def _without_page_numbers(root: etree._Element) -> etree._Element:
    """A copy of `root` where each PAGE/NUMPAGES field shows PAGE_NUMBER instead of its stored result.
    Simple fields (w:fldSimple) are replaced whole; complex fields (w:fldChar begin, w:instrText,
    separate, result runs, end) lose their result text and get the marker at their end."""
    root = copy.deepcopy(root)
    for simple in list(root.iter(qn("w:fldSimple"))):
        if is_page_field(simple.get(qn("w:instr"), "")) and simple.getparent() is not None:
            simple.getparent().replace(simple, _marker_run())
    fields: list[_Field] = []  # open complex fields, innermost last
    for element in list(root.iter(qn("w:fldChar"), qn("w:instrText"), qn("w:t"))):
        if element.tag == qn("w:fldChar"):
            kind = element.get(qn("w:fldCharType"))
            if kind == "begin":
                fields.append(_Field())
            elif kind == "separate" and fields:
                fields[-1].in_result = True
            elif kind == "end" and fields and is_page_field(fields.pop().instruction):
                element.addnext(_marker_text())
        elif element.tag == qn("w:instrText"):
            if fields:
                fields[-1].instruction += element.text or ""
        elif any(field.in_result and is_page_field(field.instruction) for field in fields):
            element.text = ""
    return root


@dataclass(slots=True)
class _Field:
    instruction: str = ""
    in_result: bool = False  # past the field's "separate" mark, in its stored result


def _marker_text() -> etree._Element:
    text = etree.Element(qn("w:t"))
    text.text = PAGE_NUMBER
    return text


def _marker_run() -> etree._Element:
    run = etree.Element(qn("w:r"))
    run.append(_marker_text())
    return run


def _is_on(element: etree._Element | None) -> bool:
    return element is not None and element.get(qn("w:val"), "true") not in ("0", "false", "off")
