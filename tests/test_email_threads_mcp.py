"""E-mails of one thread are a response chain: find_related_documents links a message to its
replies and forwards (the subject once "RE:"/"FW:" are set aside, in date order), through a real
server, and leaves an e-mail on another subject or a pleading of the same words out of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session
from tests.parse.test_eml_attachments import message, write

pytestmark = pytest.mark.anyio


def mail(tmp_path: Path, name: str, subject: str, date: str, body: str) -> Path:
    m = message(body)
    m.replace_header("Subject", subject)
    m.replace_header("Date", date)
    return write(tmp_path, m, name)


async def test_replies_and_forwards_of_one_e_mail_form_its_thread(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "Mail"
    folder.mkdir()
    mail(folder, "offer.eml", "Settlement offer", "Tue, 04 Mar 2025 10:15:00 -0500",
         "Widget LLC offers $250,000 to settle all claims.\n")
    mail(folder, "reply.eml", "RE: Settlement offer", "Wed, 05 Mar 2025 08:00:00 -0500",
         "The client rejects the offer and will counter at $400,000.\n")
    mail(folder, "forward.eml", "Fwd: RE: Settlement offer", "Thu, 06 Mar 2025 16:30:00 +0100",
         "Forwarding the exchange for the file.\n")
    mail(folder, "other.eml", "Deposition schedule", "Fri, 07 Mar 2025 09:00:00 -0500",
         "Depositions of the Widget engineers are set for April.\n")
    (folder / "Settlement offer.txt").write_text("NOTICE OF SETTLEMENT OFFER\n\nPlaintiff offers to settle.\n")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Widget")
        await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=300)

        found = await call_ok(client, "find_related_documents", document_name="reply.eml",
                              relationship_type="response_chain")
        related = {r["document"]: r["reasons"] for r in found.structured_content["related"]}
        assert set(related) == {"offer.eml", "forward.eml"}  # not the other subject, not the text file
        assert related["offer.eml"] == ['e-mail thread "Settlement offer": reply.eml follows offer.eml']
        assert related["forward.eml"] == ['e-mail thread "Settlement offer": forward.eml follows reply.eml']

        everything = await call_ok(client, "find_related_documents", document_name="offer.eml")
        chains = [r for r in everything.structured_content["related"] if "response_chain" in r["relationships"]]
        assert {r["document"] for r in chains} == {"reply.eml", "forward.eml"}
