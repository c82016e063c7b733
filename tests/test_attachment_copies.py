"""A file in the case twice, once on its own and once attached to an e-mail, is kept twice and the
user is told so, whichever came first: real ingestion into a real case store."""

from __future__ import annotations

import hashlib
from pathlib import Path

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.indexing import Indexer
from casetrack.service.ingest import Ingestor, IngestRequest
from tests.parse.test_eml_attachments import LETTER, message, write


def test_a_file_stored_alone_and_as_an_attachment_is_named_both_ways(tmp_path: Path) -> None:
    app = CaseTrack(load_settings(tmp_path / "data"))
    ingestor = Ingestor(app.settings, app.cases, Indexer(None))
    m = message("The filed letter is attached.\n")
    m.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="28j letter.pdf")
    mail = write(tmp_path, m, "Filed.eml")

    letter_first = app.create_case("Letter first")
    alone = ingestor.ingest(letter_first, IngestRequest(str(LETTER))).document
    assert alone.warnings == ()
    carried = ingestor.ingest(letter_first, IngestRequest(str(mail))).document
    assert carried.metadata["attachment_sha256"] == f"{hashlib.sha256(LETTER.read_bytes()).hexdigest()}  28j letter.pdf"
    assert carried.warnings == (f"Attachment 28j letter.pdf is also in this case as {LETTER.name} (the same file): "
                                "its passages appear twice.",)

    mail_first = app.create_case("Mail first")
    assert ingestor.ingest(mail_first, IngestRequest(str(mail))).document.warnings == ()
    later = ingestor.ingest(mail_first, IngestRequest(str(LETTER))).document
    assert later.warnings == ("This file is also in this case as attachment 28j letter.pdf of Filed.eml: its "
                              "passages appear twice.",)
