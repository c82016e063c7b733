"""XML entities declared inside a Word document. Word never writes a DTD, so a document that declares
entities was made by hand or crafted: an external one (`<!ENTITY x SYSTEM "file:///etc/passwd">`) is
the classic way to make an XML reader disclose a file or call a server. The parser resolves none
(python-docx's parser: resolve_entities=False, no network, no DTD loading), so nothing is disclosed;
the text around each reference is read, and the document says which entities were not.
"""

from __future__ import annotations

import docx
from lxml import etree

MAX_NAMED = 5


def declared_entities(document: docx.document.Document) -> list[str]:
    """Each entity declared in the document's XML parts, described for a user (name, and what an external
    one points to), each once."""
    found: dict[str, str] = {}
    for part in document.part.package.iter_parts():
        element = getattr(part, "_element", None)
        if not isinstance(element, etree._Element):
            continue
        dtd = element.getroottree().docinfo.internalDTD
        for entity in dtd.iterentities() if dtd is not None else ():
            where = entity.system_url
            found.setdefault(entity.name, f"{entity.name} (external: {where})" if where else entity.name)
    return list(found.values())


def entity_warning(document: docx.document.Document) -> str | None:
    """The warning naming the entities the document declares and CaseTrack did not read, else None."""
    entities = declared_entities(document)
    if not entities:
        return None
    shown = ", ".join(entities[:MAX_NAMED]) + (f" and {len(entities) - MAX_NAMED} more" if len(entities) > MAX_NAMED
                                                else "")
    return (f"This document's XML declares {len(entities)} entit{'y' if len(entities) == 1 else 'ies'} that were not "
            f"read: {shown}. Word never writes these; a document built to make a program disclose files or contact "
            "a server uses them. Nothing was fetched or disclosed; the text around them was read. If the document "
            "came from outside, treat it with suspicion.")
