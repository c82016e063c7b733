"""Embedding a long document's chunks holds no more memory at its worst than embedding a few (issue 20 §2).

Measured in a child process of its own (a fresh C heap), with the real packaged E7 and real contract text:
the kernel's high-water mark of its RSS (VmHWM, reset through /proc/self/clear_refs before each run) above
its RSS when the run started. Before the mmap threshold was fixed (embed/native_heap.py), 48 chunks peaked
379-422 MB above the loaded process against ~180 MB now: the heap kept each batch's freed activations, and
the swings grew with the number of batches (a 300-page PDF's 586 chunks: up to +650 MB)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EVAL_DEV

CONTRACT = EVAL_DEV / "docs" / "cuad_ebix_cobranding_agreement.pdf"

CHILD = r"""
import json, sys
from pathlib import Path
from casetrack.chunk import chunk_pages
from casetrack.config import load_settings
from casetrack.domain import DocumentType
from casetrack.parse import ParseOptions, parse_file
from casetrack.service.app import CaseTrack

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024

def peak_above_start(embedder, texts):
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # the high-water mark starts again from the current RSS
    start = status("VmRSS")
    embedder.embed_documents(texts)
    return status("VmHWM") - start

def main():
    app = CaseTrack.open(load_settings(Path(sys.argv[1])))
    pages = parse_file(Path(sys.argv[2]), ParseOptions()).pages
    texts = [span.text for span in chunk_pages(pages, DocumentType.CONTRACT)]
    texts = (texts * 4)[:48]
    embedder = app.pool.get("E7")
    embedder.embed_documents(texts[:2])  # the session and tokenizer loaded: not what is measured
    few = peak_above_start(embedder, texts[:8])
    many = peak_above_start(embedder, texts)
    print(json.dumps({"few": few, "many": many}))
    app.jobs.shutdown()

if __name__ == "__main__":
    main()
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's resettable VmHWM")
def test_embedding_48_chunks_takes_no_more_than_one_batch_of_memory_at_its_worst(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "data"), str(CONTRACT)],
                          capture_output=True, text=True, timeout=600, check=True)
    peaks = json.loads(done.stdout.strip().splitlines()[-1])
    few, many = peaks["few"] / 2**20, peaks["many"] / 2**20
    # 8 long chunks are 16 windows of 256 tokens: two full batches of E7's 2,048 tokens, ~180 MB of
    # activations at once. 48 chunks are 12 batches; each must give back what the one before took. Before
    # the fix: 8 chunks +324 MB, 48 chunks +379-422 MB (the heap kept freed activations); after: +180 / +183.
    assert many <= 250, f"48 chunks peaked {many:.0f} MB above the start (8 chunks: {few:.0f} MB)"
    assert many <= few * 1.2 + 30, f"48 chunks peaked {many:.0f} MB above the start, 8 chunks {few:.0f} MB"
