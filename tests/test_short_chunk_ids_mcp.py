"""A chunk ID as results print it (its first 8 characters), through a real MCP client: every tool
taking a chunk ID finds the chunk by a unique beginning, and names the candidates when several chunks
begin the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_error, call_ok, mcp_session

pytestmark = pytest.mark.anyio

CLAUSES = [
    ("Definitions", "Capitalised terms have the meanings given to them in this Section and in the Schedules."),
    ("Term", "This Agreement begins on the Effective Date and continues for an initial term of three years."),
    ("Fees", "The Customer shall pay the fees set out in Schedule B within thirty days of each invoice."),
    ("Confidentiality", "Each party shall keep the other party's Confidential Information secret."),
    ("Warranties", "The Supplier warrants that the Services will be performed with reasonable skill and care."),
    ("Indemnity", "The Supplier shall indemnify the Customer against third-party claims of infringement."),
    ("Liability", "Neither party's aggregate liability shall exceed the fees paid in the preceding year."),
    ("Termination", "Either party may terminate this Agreement on ninety days' written notice to the other."),
    ("Force Majeure", "Neither party is liable for delay caused by events beyond its reasonable control."),
    ("Assignment", "Neither party may assign this Agreement without the prior written consent of the other."),
    ("Notices", "Notices shall be in writing and delivered by hand or by registered post to the addresses above."),
    ("Governing Law", "This Agreement is governed by the laws of the State of New York."),
    ("Disputes", "The parties submit to the exclusive jurisdiction of the courts of New York County."),
    ("Audit", "The Customer may audit the Supplier's records once a year on thirty days' notice."),
    ("Insurance", "The Supplier shall maintain professional indemnity insurance of at least five million dollars."),
    ("Subcontracting", "The Supplier may not subcontract the Services without the Customer's written consent."),
    ("Data Protection", "Each party shall comply with applicable data protection laws in processing personal data."),
    ("Entire Agreement", "This Agreement is the entire agreement of the parties about its subject matter."),
    ("Severability", "If any provision is held invalid, the remaining provisions continue in full force."),
    ("Counterparts", "This Agreement may be signed in counterparts, each of which is an original."),
]


def services_agreement(path: Path) -> Path:
    # Each section padded to a chunk of its own, so that the document has more chunks than an ID has
    # hexadecimal first characters: two of them must share a beginning.
    sections = [(f"{title} ({part})", text) for part in ("Services", "Licence") for title, text in CLAUSES]
    body = "\n\n".join(f"{n}. {title.upper()}\n\n{n}.1 {text} " + " ".join([text] * 12)
                       for n, (title, text) in enumerate(sections, 1))
    path.write_text("MASTER SERVICES AGREEMENT\n\n" + body + "\n")
    return path


@pytest.mark.slow  # end to end over real models: CI runs it with -m slow
async def test_a_chunk_is_found_by_the_start_of_its_id_and_a_shared_start_names_the_candidates(
        data_dir: Path, tmp_path: Path) -> None:
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Short IDs")
        await call_ok(client, "ingest_document", file_path=str(services_agreement(tmp_path / "msa.txt")),
                      wait_seconds=300)
        listed = await call_ok(client, "get_document_chunks", document_name="msa.txt")
        ids = [c["chunk_id"] for c in listed.structured_content["chunks"]]
        assert len(ids) > 16, len(ids)
        first = ids[0]

        shown = await call_ok(client, "get_chunk", chunk_id=first[:8])
        assert shown.structured_content["chunk_id"] == first
        context = await call_ok(client, "get_source_context", chunk_id=first[:8].upper())
        assert context.structured_content["chunk"]["chunk_id"] == first
        walked = await call_ok(client, "traverse_chunks", start_chunk_id=first[:8], count=2)
        assert walked.structured_content["chunks"][0]["chunk_id"] == first

        shared = next(a[:n] for n in range(6, 0, -1) for a in ids for b in ids
                      if a != b and a[:n] == b[:n])
        ambiguous = await call_error(client, "get_chunk", chunk_id=shared)
        assert f'Chunk ID "{shared}" is ambiguous' in ambiguous
        assert sum(ident in ambiguous for ident in ids if ident.startswith(shared)) >= 2
        # each candidate named with its citation (which pages share the beginning depends on the random ids)
        candidates = [line for line in ambiguous.splitlines() if line.startswith("  - ")]
        assert len(candidates) >= 2 and all("(msa.txt, p. " in line for line in candidates), ambiguous

        missing = await call_error(client, "get_chunk", chunk_id="zzzzzzzz")
        assert missing.startswith('Chunk not found: "zzzzzzzz".')
