"""E-mails of one thread are a response chain: find_related_documents links a message to its
replies and forwards (the subject once "RE:"/"FW:" are set aside, in date order), through a real
server, and leaves an e-mail on another subject or a pleading of the same words out of it. A second
copy of one message (same Message-ID) and an attachment that could not be read are named in the
folder report's warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.parse.test_eml_attachments import message, write

pytestmark = pytest.mark.anyio


def mail(tmp_path: Path, name: str, subject: str, date: str, body: str, message_id: str = "",
         mailbox: str = "") -> Path:
    m = message(body)
    m.replace_header("Subject", subject)
    m.replace_header("Date", date)
    if message_id:
        m["Message-ID"] = message_id
    if mailbox:
        m["X-Folder"] = mailbox  # where the copy was kept: a copy's bytes differ, its Message-ID does not
    return write(tmp_path, m, name)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_replies_and_forwards_of_one_e_mail_form_its_thread(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "Mail"
    folder.mkdir()
    for name, mailbox in (("offer.eml", "Inbox"), ("offer (sent copy).eml", "Sent Items")):
        mail(folder, name, "Settlement offer", "Tue, 04 Mar 2025 10:15:00 -0500",
             "Widget LLC offers $250,000 to settle all claims.\n", "<offer-1@widget.example>", mailbox)
    mail(folder, "reply.eml", "RE: Settlement offer", "Wed, 05 Mar 2025 08:00:00 -0500",
         "The client rejects the offer and will counter at $400,000.\n")
    mail(folder, "forward.eml", "Fwd: RE: Settlement offer", "Thu, 06 Mar 2025 16:30:00 +0100",
         "Forwarding the exchange for the file.\n")
    mail(folder, "other.eml", "Deposition schedule", "Fri, 07 Mar 2025 09:00:00 -0500",
         "Depositions of the Widget engineers are set for April.\n")
    (folder / "Settlement offer.txt").write_text("NOTICE OF SETTLEMENT OFFER\n\nPlaintiff offers to settle.\n")
    exhibits = message("The exhibit list is attached.\n")
    exhibits.add_attachment(b"%PDF-1.4 truncated", maintype="application", subtype="pdf", filename="exhibits.pdf")
    write(folder, exhibits, "exhibits.eml")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Widget")
        report = await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=300)
        shown = text_of(report)
        assert "  Warnings:\n" in shown
        assert "  - exhibits.eml: Attachment exhibits.pdf was not read." in shown
        files = {f["path"]: f for f in report.structured_content["report"]["files"]}
        [copy_warning] = [w for name in ("offer.eml", "offer (sent copy).eml") for w in files[name]["warnings"]]
        assert copy_warning.startswith("This e-mail is already in the case as offer")  # whichever came second
        assert "(the same Message-ID" in copy_warning and "Both are kept." in copy_warning

        found = await call_ok(client, "find_related_documents", document_name="reply.eml",
                              relationship_type="response_chain")
        related = {r["document"]: r["reasons"] for r in found.structured_content["related"]}
        # not the other subject, not the text file, not the e-mail with the exhibits
        assert set(related) == {"offer.eml", "offer (sent copy).eml", "forward.eml"}
        assert related["offer.eml"] == ['e-mail thread "Settlement offer": reply.eml follows offer.eml']
        assert related["forward.eml"] == ['e-mail thread "Settlement offer": forward.eml follows reply.eml']

        everything = await call_ok(client, "find_related_documents", document_name="offer.eml")
        chains = {r["document"]: r["reasons"] for r in everything.structured_content["related"]
                  if "response_chain" in r["relationships"]}
        assert set(chains) == {"reply.eml", "forward.eml", "offer (sent copy).eml"}
        assert 'e-mail thread: same subject "Settlement offer"' in chains["offer (sent copy).eml"]  # sent together
