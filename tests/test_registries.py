"""Adding a file format or an embedder is one spec entry plus its code (issue 23).

The test copies CaseTrack's source, adds ONE `FormatSpec` to `parse/formats.py` (with a toy parser
in a new module) and ONE `ModelSpec` to `embed/specs.py` (a tiny ONNX graph this test builds), edits
nothing else, and runs the copy in a fresh process: the toy file is ingested, listed and found; the
toy model embeds every chunk, ranks in search under its own signal, shows in get_status under its
label; the tool description and the unsupported-format message name the new format."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.embed.conftest import build_graph, write_tokenizer

SRC = Path(__file__).resolve().parents[1] / "src" / "casetrack"

TOY_PARSER = '''"""A toy format for the registry test: one page per block separated by a line of dashes."""

from pathlib import Path

from casetrack.domain import ExtractionMethod, ParsedDocument, ParsedPage
from casetrack.parse.options import ParseOptions


def parse_toy(path: Path, options: ParseOptions) -> ParsedDocument:
    blocks = path.read_text(encoding="utf-8").split("\\n-----\\n")
    pages = tuple(ParsedPage(number=n, text=b.strip(), method=ExtractionMethod.NATIVE)
                  for n, b in enumerate(blocks, start=1))
    return ParsedDocument(format="toy", pages=pages)
'''

TOY_FORMAT = '    FormatSpec("toy", "Toy notes", (".toy",), frozenset({"text"}), "toy:parse_toy"),\n'
TOY_MODEL = '''        ModelSpec(
            id="E99", name="toy-dense", purpose="registry test", kind=Kind.DENSE_MEAN, dim=16,
            tier=LicenseTier.FREE, licence="MIT", label="E99-Toy", role=SearchRole.RANK, weight=0.5,
            repo="local/toy", revision=None, model_file=MODEL_FILE, max_tokens=64,
        ),
'''

SCRIPT = '''
import asyncio, json, sys, tempfile
from pathlib import Path
from casetrack.config import load_settings
from casetrack.embed.sources import import_models
from casetrack.errors import UnsupportedFormat
from casetrack.mcp.server import build_server
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest, check_file

data, model, notes = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
app = CaseTrack.open(load_settings(data, environ={}))
imported = [o.ok for o in import_models(model, app.settings.models_dir)]
app = CaseTrack.open(load_settings(data, environ={}))  # a fresh start finds the imported model
case = app.create_case("Toy")
done = app.ingestor.ingest(case, IngestRequest(str(notes)))
listing = app.documents.listing(app.case(), "name", 10, 0)
hits = app.search.search(app.case(), "the escrow release date", 3).hits
tools = asyncio.run(build_server(app).list_tools())
try:
    check_file(str(notes.with_suffix(".xyz")))
except Exception as exc:
    refusal = exc.message
print(json.dumps({
    "imported": imported,
    "document": [done.document.name, done.document.format, done.document.page_count, list(done.document.embedders)],
    "listed": [d.name for d in listing.documents],
    "top": [hits[0].chunk.text, hits[0].chunk.provenance.cite(), sorted(hits[0].ranks)],
    "status": [e.label for e in app.embedder_states() if e.id == "E99"],
    "description": next(t.description for t in tools if t.name == "ingest_document"),
    "refusal": refusal,
}))
'''


def _copy_with_toy_specs(root: Path) -> Path:
    tree = root / "src"
    shutil.copytree(SRC, tree / "casetrack", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "casetrack" / "parse" / "toy.py").write_text(TOY_PARSER, encoding="utf-8")
    formats = tree / "casetrack" / "parse" / "formats.py"
    text = formats.read_text(encoding="utf-8")
    closing = text.index("\n)\n", text.index("FORMATS: tuple[FormatSpec, ...] = ("))
    formats.write_text(text[:closing + 1] + TOY_FORMAT + text[closing + 1:], encoding="utf-8")
    specs = tree / "casetrack" / "embed" / "specs.py"
    text = specs.read_text(encoding="utf-8")
    end = text.index("    )\n}\n", text.index("MODELS: dict[str, ModelSpec]"))
    specs.write_text(text[:end] + TOY_MODEL + text[end:], encoding="utf-8")
    return tree


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
def test_one_format_spec_and_one_model_spec_are_all_a_new_format_and_model_need(tmp_path: Path) -> None:
    tree = _copy_with_toy_specs(tmp_path)
    model = tmp_path / "E99"
    model.mkdir()
    build_graph(model / "model.onnx", dim=16)
    write_tokenizer(model / "tokenizer.json")
    notes = tmp_path / "meeting.toy"
    notes.write_text("Call with the buyer about the price.\n-----\nThe escrow release date is 1 March 2025.\n",
                     encoding="utf-8")
    notes.with_suffix(".xyz").write_text("not a format CaseTrack reads", encoding="utf-8")
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "CASETRACK_NO_UPDATE_CHECK": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "data"), str(model), str(notes)],
                          capture_output=True, text=True, env=env, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["imported"] == [True]
    assert result["document"] == ["meeting.toy", "toy", 2, ["E7", "E99", "E13"]]
    assert result["listed"] == ["meeting.toy"]
    text, citation, signals = result["top"]
    assert "escrow release date" in text and citation.startswith("meeting.toy, p. 2")
    assert "e99" in signals  # the new model ranked the passage under its own signal
    assert result["status"] == ["E99-Toy (toy-dense)"]
    assert "Toy notes" in result["description"]
    assert result["refusal"].startswith("Unsupported file format: .xyz") and "Toy notes" in result["refusal"]
