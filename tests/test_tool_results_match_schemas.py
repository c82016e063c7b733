"""Every tool's structured result validates against the output schema it publishes (issue 38), on a small real
case: a few short documents ingested through the real service (keyword index, context graph, transcript, e-mail),
every tool called once through the SDK's in-memory client (`tests/every_tool.py`, the driver both share). The
end-to-end version over stdio, on the eval documents with their embeddings, is `tests/test_tool_surface.py` (slow)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from mcp import Client
from nacl.signing import SigningKey

from casetrack.config import load_settings
from casetrack.mcp.server import build_server
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import licensing
from tests.every_tool import Reading, Writing, call_every_tool
from tests.test_tool_surface import REPLY, SPEC_TOOLS
from tests.transcript_files import full_page_text, smith_pages

AGREEMENT = """SUPPLY AGREEMENT

1. Parties. This Supply Agreement is made on 1 March 2024 between Acme Corp ("Supplier") and Beta LLC ("Buyer").

2. Termination. Either party may terminate this Agreement on 30 days' written notice of termination.

3. Governing Law. This Agreement is governed by the laws of the State of New York.
"""
LETTER = """UNITED STATES COURT OF APPEALS FOR THE EIGHTH CIRCUIT

Re: Acme Corp v. Beta LLC, No. 23-1234

Dear Clerk,

Under 42 U.S.C. § 1983 and Miranda v. Arizona, 384 U.S. 436 (1966), Beta LLC asks the court to note that the
termination of the Supply Agreement on 15 April 2024 was without notice.

Respectfully submitted, Jane Roe
"""
MEMO = "MEMORANDUM\n\nThe supplier must give 30 days' notice of termination under the Supply Agreement."


def _documents(folder: Path) -> dict[str, Path]:
    folder.mkdir()
    files = {"agreement": folder / "Acme Supply Agreement.txt", "letter": folder / "Letter to the Clerk.txt",
             "memo": folder / "memo.txt", "transcript": folder / "Smith Dep.txt"}
    files["agreement"].write_text(AGREEMENT, encoding="utf-8")
    files["letter"].write_text(LETTER, encoding="utf-8")
    files["memo"].write_text(MEMO, encoding="utf-8")
    files["transcript"].write_text(full_page_text(smith_pages()), encoding="utf-8")
    files["mail"] = Path(shutil.copy(REPLY, folder / REPLY.name))
    return files


def _pro_app(data_dir: Path) -> CaseTrack:
    signer = SigningKey.generate()  # a Pro licence, so the Pro tools answer rather than refuse
    key = licensing.issue(licensing.Claims("PRO", None, 1, licensing.new_serial()), bytes(signer))
    return CaseTrack.open(replace(load_settings(data_dir, environ={}), license_key=key),
                     licence_public_key=bytes(signer.verify_key))


@pytest.mark.anyio
async def test_every_tool_answers_a_small_case_with_what_its_output_schema_promises(tmp_path: Path) -> None:
    files = _documents(tmp_path / "docs")
    incoming = tmp_path / "incoming"
    incoming.mkdir()
    (incoming / "note.txt").write_text("Dear Counsel,\n\nThe deposit of $5,000 is due on 1 March 2025.\n")
    agreement = files["agreement"].name
    reading = Reading(case="Small", document=agreement, other=files["letter"].name, query="notice of termination",
                      entity="Acme Corp", entities=["Acme Corp", "Beta LLC"],
                      draft=f'"Either party may terminate this Agreement" ({agreement}, p. 1).',
                      table_of_authorities={"text": LETTER}, authority="42 U.S.C. § 1983")
    writing = Writing(case="Small", documents=[files[n] for n in ("agreement", "letter", "memo", "transcript", "mail")],
                      memo=files["memo"], mail=files["mail"], transcript=files["transcript"], folder=incoming,
                      long_file=tmp_path / "deposition.txt")
    app = _pro_app(tmp_path / "CaseTrack")
    try:
        async with Client(build_server(app)) as client:
            schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
            assert set(schemas) == set(SPEC_TOOLS)
            called = await call_every_tool(client, reading, writing)
    finally:
        app.stop()
    assert set(called) == set(SPEC_TOOLS), sorted(set(SPEC_TOOLS) - set(called))
    for name, data in called.items():
        jsonschema.validate(data, schemas[name])  # the server checked its model, the client the schema; and here
