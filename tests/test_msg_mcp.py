"""Outlook .msg files in a case folder, through a real server: ingested with the folder, typed as
correspondence, their headers as metadata, their passages (and the PDF a forwarded message carries)
found and cited, their sending dates on the timeline; a damaged one fails alone with its fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.parse.test_msg import BOUNCE, DRAFT, PDF_NAME

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_folder_of_outlook_messages_is_ingested_searched_and_dated(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "Mail"
    folder.mkdir()
    shutil.copy(BOUNCE, folder / "Delivery failure.msg")
    shutil.copy(DRAFT, folder / "Outer.msg")
    (folder / "Truncated.msg").write_bytes(BOUNCE.read_bytes()[:60_000])
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Mail review")
        report = await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=300)
        files = {f["path"]: f for f in report.structured_content["report"]["files"]}
        assert files["Delivery failure.msg"]["status"] == "ingested"
        assert files["Outer.msg"]["status"] == "ingested"
        assert files["Truncated.msg"]["status"] == "failed"
        assert "Outlook message is damaged or incomplete" in files["Truncated.msg"]["message"]

        documents = (await call_ok(client, "list_documents")).structured_content["documents"]
        assert {d["name"]: d["document_type"] for d in documents} == {
            "Delivery failure.msg": "correspondence", "Outer.msg": "correspondence"}  # fmt: skip
        shown = (await call_ok(client, "get_document", document_name="Delivery failure.msg")).structured_content
        details = shown["document"]
        assert details["format"] == "msg" and details["page_count"] == 6  # the bounce, the bounced message, 4 PDF pages
        assert details["metadata"]["from"] == "Mail Delivery Subsystem <mailer-daemon@tjdpf.org.cn>"
        assert details["metadata"]["attachment_pages"] == f"{PDF_NAME}: pages 3-6"

        found = await call_ok(client, "search_case", query="recipients is locked permanent error", top_k=3)
        hit = found.structured_content["results"][0]
        assert hit["source"]["document"] == "Delivery failure.msg" and hit["source"]["page"] == 1
        assert "The recipients is locked. (User Locked)" in hit["text"]
        assert hit["citation"].startswith("Delivery failure.msg, p. 1 (est.), para")  # e-mail pages are estimated

        found = await call_ok(client, "search_case", query="销售主管 强化训练营 课程大纲", top_k=3)
        hit = found.structured_content["results"][0]
        assert hit["source"]["attachment"] == PDF_NAME and hit["source"]["page"] >= 2
        assert f"(attachment {PDF_NAME}, p. {hit['source']['attachment_page']})" in hit["citation"]

        timeline = (await call_ok(client, "get_case_timeline")).structured_content["events"]
        sent = sorted((e["date"], e["document"]) for e in timeline if e["event"] == "sent")
        assert ("2017-11-27", "Delivery failure.msg") in sent and ("2016-11-15", "Outer.msg") in sent
        case_map = await call_ok(client, "get_case_map")
        assert "2016-11-15  Sent: " in text_of(case_map)
        assert "Correspondent: Meredith chen" in text_of(case_map)  # who the bounced message was from
        assert [n["roles"] for n in case_map.structured_content["correspondents"]] == [["sender"]]

        people = (await call_ok(client, "list_entities", entity_type="person")).structured_content
        [meredith] = [n for n in people["entities"] if n["name"] == "Meredith chen"]
        assert meredith["roles"] == ["sender"]
        mentions = await call_ok(client, "get_entity_mentions", entity_name="Meredith Chen")
        [mention] = mentions.structured_content["mentions"]
        assert mention["document"] == "Delivery failure.msg" and mention["text"] == "Meredith chen"
