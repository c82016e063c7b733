"""Listings that fit the terminal (80 columns when it cannot be measured, e.g. in a pipe).

The shared renderers write one long line per document or case, which a terminal folds at an
arbitrary column. Here each over-long line is wrapped at spaces, its continuation indented under
the entry's text, and no word (a file name, an ID), quoted name or command to copy is ever cut."""

from __future__ import annotations

import re
import shutil
import textwrap

_KEEP = "\u00a0"  # textwrap never breaks at a no-break space
# Never split: a command to copy (they end the line), a quoted name, a label and its ID.
_UNBROKEN = re.compile(r'casetrack .*$|"[^"]*"|ID: ')
_ENTRY = re.compile(r"(\s*)(\d+\. |\* |- )?")  # leading spaces, then a list marker if any


def fit(text: str, width: int | None = None) -> str:
    width = width or shutil.get_terminal_size((80, 24)).columns
    lines: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            lines.append(line)
            continue
        match = _ENTRY.match(line)
        indent = match.group(1) if match else ""
        marker = match.group(2) if match and match.group(2) else "  "
        glued = _UNBROKEN.sub(lambda m: m.group(0).replace(" ", _KEEP), line[len(indent):])
        lines += [part.replace(_KEEP, " ") for part in textwrap.wrap(
            glued, width, initial_indent=indent, subsequent_indent=" " * (len(indent) + len(marker)),
            break_long_words=False, break_on_hyphens=False)]
    return "\n".join(lines)
