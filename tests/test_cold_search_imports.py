"""A cold `casetrack search` does only the work a search needs (issue 35 §3: under 2.5 s on a quiet machine; it
took 3.4 s, docs/benchmarks.md): it imports no file parser, no python-docx and no model-hub client, and it does not
embed the legal roles' descriptions again (they are kept in the data folder after the first search). The real
command in a fresh process, on a real case."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest

# What the search never needs: the parsers' libraries, the Word writer, the model hub's client.
UNNEEDED = ("docx", "huggingface_hub", "pdfplumber", "pypdf", "pypdfium2", "striprtf", "olefile",
            "casetrack.parse.pdf.document", "casetrack.parse.word.document", "casetrack.parse.mail.eml",
            "casetrack.parse.mail.msg")

PROBE = """
import atexit, json, sys
watched, data = json.loads(sys.argv[1]), sys.argv[2]
from casetrack.embed.pool import PooledEmbedder
embedded = []
original = PooledEmbedder.embed_documents
def counting(self, texts):
    embedded.append(len(texts))
    return original(self, texts)
PooledEmbedder.embed_documents = counting
def report():
    unneeded = [m for m in watched if m in sys.modules]
    sys.stderr.write("PROBE " + json.dumps({"unneeded": unneeded, "embedded": embedded}) + "\\n")
atexit.register(report)
sys.argv = ["casetrack", "--data-dir", data, "search", "governing law"]
from casetrack.cli.app import main
main()
"""


def _search(data: Path) -> tuple[str, dict[str, list[object]]]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(UNNEEDED), str(data)], capture_output=True,
                          text=True, timeout=240, env={**os.environ, "CASETRACK_LOG": "warn"})
    assert done.returncode == 0, done.stderr
    probe = next(line for line in done.stderr.splitlines() if line.startswith("PROBE "))
    return done.stdout, json.loads(probe[len("PROBE "):])


def test_a_cold_search_imports_no_parser_and_embeds_the_role_descriptions_once(data_dir: Path,
                                                                              tmp_path: Path) -> None:
    contract = tmp_path / "contract.txt"
    contract.write_text("MASTER SERVICES AGREEMENT\n\n3. GOVERNING LAW. This Agreement is governed by the laws of "
                        "the State of New York.\n", encoding="utf-8")
    app = CaseTrack.open(load_settings(data_dir))
    app.ingestor.ingest(app.create_case("Harbor"), IngestRequest(str(contract)))
    app.jobs.shutdown()

    first_text, first = _search(data_dir)
    again_text, again = _search(data_dir)
    assert "GOVERNING LAW" in first_text and "GOVERNING LAW" in again_text
    assert first["unneeded"] == [] and again["unneeded"] == []
    assert again["embedded"] == []  # the roles' vectors were read from the data folder, not embedded again
