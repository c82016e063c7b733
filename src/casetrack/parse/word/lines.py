"""How many characters a line of a Word document holds as it prints.

A Word paragraph is one line of text however long: Word decides where its lines break when it
lays out the page, from the page's width and the font. Citing a 300-word paragraph as "l. 1" would
send a reader to one line of a paragraph that prints on twelve, so its lines are counted as they
print at this width (chunk/layout.py), and cited as estimated: fonts, indents and tables move the
real breaks a little.
"""

from __future__ import annotations

import docx
from docx.oxml.ns import qn

from casetrack.parse.normalize import DEFAULT_LINE_WIDTH

# The average width of a character of running English text, in ems: Times New Roman 0.40, Calibri
# 0.41, Arial 0.44 (measured on the metric-compatible Liberation fonts over a contract's text);
# fixed-pitch fonts (Courier, pleading templates) 0.6.
SERIF_EM, PROPORTIONAL_EM, FIXED_PITCH_EM = 0.40, 0.42, 0.6
_EMS = (
    (("courier", "mono", "consolas", "typewriter", "pica"), FIXED_PITCH_EM),
    (("times", "garamond", "georgia", "cambria", "century", "book antiqua", "palatino"), SERIF_EM),
)
_DEFAULT_FONT_PT = 11.0
_EMU_PER_POINT = 12700
MIN_LINE_WIDTH, MAX_LINE_WIDTH = 30, 200  # outside these a page or font size is not believable


def printed_line_width(document: docx.document.Document) -> int:
    """Characters a body line of `document` holds: its first section's text width over the average
    character width of its Normal font. DEFAULT_LINE_WIDTH when the document does not say."""
    try:
        section = document.sections[0]
        width = section.page_width - section.left_margin - section.right_margin  # type: ignore[operator]
    except (IndexError, TypeError):  # no section, or one without a page size or margins
        return DEFAULT_LINE_WIDTH
    size, name = _normal_font(document)
    em = next((em for names, em in _EMS if any(part in name.lower() for part in names)), PROPORTIONAL_EM)
    chars = int(width / _EMU_PER_POINT / (size * em))
    return chars if MIN_LINE_WIDTH <= chars <= MAX_LINE_WIDTH else DEFAULT_LINE_WIDTH


def _normal_font(document: docx.document.Document) -> tuple[float, str]:
    """(size in points, font name) of the Normal style, else of the document's defaults."""
    size, name = None, ""
    try:
        font = document.styles["Normal"].font
        size = font.size.pt if font.size else None
        name = font.name or ""
    except KeyError:  # a document without a Normal style
        pass
    defaults = document.styles.element.find(qn("w:docDefaults"))
    run = defaults.find(f"{qn('w:rPrDefault')}/{qn('w:rPr')}") if defaults is not None else None
    if run is not None:
        half_points = run.find(qn("w:sz"))
        if size is None and half_points is not None and (value := half_points.get(qn("w:val"), "")).isdigit():
            size = int(value) / 2
        fonts = run.find(qn("w:rFonts"))
        if not name and fonts is not None:
            name = fonts.get(qn("w:ascii")) or ""
    return (size if size and size > 0 else _DEFAULT_FONT_PT), name
