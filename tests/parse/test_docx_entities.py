"""A Word document that declares XML entities (crafted: Word never writes them) discloses nothing, loses
none of its own text, and says which entities were not read."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx

from casetrack.parse import parse_file

_DOCTYPE = '<!DOCTYPE w:document [<!ENTITY secret SYSTEM "{url}"><!ENTITY greeting "Hello">]>'


def docx_with_entities(path: Path, url: str) -> Path:
    """A .docx whose one paragraph refers to an external entity (`url`) and an internal one."""
    plain = path.with_name("plain.docx")
    document = docx.Document()
    document.add_paragraph("MARKER-BEFORE and MARKER-AFTER.")
    document.save(str(plain))
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/document.xml":
                xml = data.decode()
                declaration_end = xml.index("?>") + 2
                xml = xml[:declaration_end] + _DOCTYPE.format(url=url) + xml[declaration_end:]
                xml = xml.replace("MARKER-BEFORE and MARKER-AFTER.",
                                  "Before the reference &secret; after the reference, &greeting; to the end.")
                data = xml.encode()
            target.writestr(item, data)
    return path


def test_text_after_an_external_entity_is_read_and_the_document_names_what_was_not(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    parsed = parse_file(docx_with_entities(tmp_path / "crafted.docx", secret.as_uri()))
    assert "Before the reference  after the reference,  to the end." in parsed.text  # nothing after it dropped
    assert "TOP-SECRET-CONTENT" not in parsed.text  # and nothing disclosed
    (warning,) = parsed.warnings
    assert warning.startswith("This document's XML declares 2 entities that were not read: "
                              f"secret (external: {secret.as_uri()}), greeting.")
    assert "Nothing was fetched or disclosed" in warning


def test_an_ordinary_word_document_has_no_entity_warning(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("The parties agree.")
    document.save(str(tmp_path / "plain.docx"))
    assert parse_file(tmp_path / "plain.docx").warnings == ()
