"""The paragraphs a Word file sets off by indentation: its block quotations, as their text.

Page text keeps no indentation, so a draft's block quotations would be told from its body text only by
the words around them; a Word file says it outright. A paragraph counts when it is indented at least
`MIN_INDENT` on the left (its own setting or its style's), or its style is a quotation style.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.shared import Inches
from lxml import etree

MIN_INDENT = Inches(0.4)
_QUOTE_STYLE = re.compile(r"quot|block", re.IGNORECASE)


def indented_paragraphs(path: Path) -> list[str]:
    """The text of each set-off paragraph of the .docx at `path` (none when it cannot be read: the caller has
    already parsed it, and that is where a broken file is reported)."""
    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, etree.XMLSyntaxError):
        return []
    out = []
    for paragraph in document.paragraphs:
        style = paragraph.style
        indent = paragraph.paragraph_format.left_indent
        if indent is None and style is not None:
            indent = style.paragraph_format.left_indent
        quoted_style = style is not None and bool(_QUOTE_STYLE.search(style.name or ""))
        if (indent is not None and indent >= MIN_INDENT) or quoted_style:
            text = paragraph.text.strip()
            if text:
                out.append(text)
    return out
