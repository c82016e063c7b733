"""A file attached to an e-mail is chunked for its own type, exactly as when it is ingested on its own: a
contract sent with a cover e-mail gets clause-sized contract chunks, not the letter-sized ones of the e-mail."""

from __future__ import annotations

import re
from pathlib import Path

from casetrack.chunk import chunk_pages, infer_document_type, sizes_for
from casetrack.domain import DocumentType
from casetrack.parse import parse_file
from tests.parse.evaldev import EVAL_DEV
from tests.parse.test_eml_attachments import message, write

LABEL = re.compile(r"^\[Attachment 1: Distributor\.pdf, page \d+ of 8\]\n\n")  # opens each attached page
CONTRACT = EVAL_DEV / "docs" / "cuad_netgear_distributor_agreement.pdf"


def test_an_attached_contract_is_chunked_as_the_contract_is_on_its_own(tmp_path: Path) -> None:
    m = message("Please find the signed distributor agreement attached.\n\nJane\n")
    m.add_attachment(CONTRACT.read_bytes(), maintype="application", subtype="pdf", filename="Distributor.pdf")
    mail = parse_file(write(tmp_path, m, "Signed agreement.eml"))
    alone = parse_file(CONTRACT)
    mail_type = infer_document_type("Signed agreement.eml", mail.own_text)[0]
    alone_type = infer_document_type(CONTRACT.name, alone.text)[0]
    assert alone_type is DocumentType.CONTRACT and sizes_for(mail_type) != sizes_for(alone_type)  # the test's premise

    by_page = {page.number: page for page in mail.pages}
    attached = [LABEL.sub("", c.text) for c in chunk_pages(mail.pages, mail_type) if by_page[c.page].attachment]
    own = [c.text for c in chunk_pages(alone.pages, alone_type)]
    assert len(attached) == len(own)  # 21 contract-sized chunks (sized as the e-mail: 25)
    # the same passages, but for a few the label opening each attached page moves that page's first break (19 of
    # 21 here; sized as the e-mail, 1 of 25)
    assert sum(text in own for text in attached) >= 0.8 * len(own)
    # the message itself keeps its own type's sizes
    [body] = [c for c in chunk_pages(mail.pages, mail_type) if not by_page[c.page].attachment]
    assert body.text.startswith("From:") or "distributor agreement attached" in body.text
