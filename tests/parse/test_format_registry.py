"""The format registry names each parser as data ("module:function", imported by dispatch on first use), so a
name that no longer points at a parser (a module moved, a function renamed) must fail here, not when a user's
first file of that format arrives."""

from __future__ import annotations

import inspect

from casetrack.domain import ParsedDocument
from casetrack.parse.dispatch import parser_of
from casetrack.parse.formats import FORMATS, MAIL_FORMATS


def test_every_format_names_a_parser_that_takes_a_path_and_options() -> None:
    for spec in FORMATS:
        parser = parser_of(spec)
        assert callable(parser), spec.parser
        parameters = list(inspect.signature(parser).parameters)
        assert parameters[:2] == ["path", "options"], (spec.parser, parameters)
        assert inspect.signature(parser).return_annotation in (ParsedDocument, "ParsedDocument"), spec.parser


def test_format_ids_are_what_documents_record_and_mail_is_eml_and_msg() -> None:
    assert {spec.id for spec in FORMATS} == {"pdf", "docx", "doc", "odt", "txt", "rtf", "eml", "msg", "image"}
    assert {"eml", "msg"} == MAIL_FORMATS
