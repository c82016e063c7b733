"""The stored graph extract's encoding (graph/records.py): rows of typed records against the keyed form stores
held before issue 38, on the eval-dev texts, in one run.

    uv run python benchmarks/graph_records.py [--runs 7] [--copies 30]

Each eval-dev text is extracted once (chunks as ingest makes them for a contract); then, CPU time, best of
--runs, for the whole set:

  encode        ExtractRecord -> stored bytes: rows (`extract_json`) or keyed (each record `_asdict()`, the JSON
                the writer before issue 38 stored, key order aside)
  decode        stored bytes -> ExtractRecord (`extract_of`: rows by `tuple.__new__`, keyed field by field)
  decode+graph  `build_graph` over --copies copies of the set, each extract decoded as it is merged (what the
                first graph call after a change does)
  helper        the helper process's answer (`mention_records`) pickled and unpickled, as it crosses
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from casetrack.chunk import chunk_pages, extract_structure
from casetrack.domain import Document, DocumentType, ExtractionMethod, ParsedPage
from casetrack.graph.records import SECTIONS, ExtractRecord, extract_json, extract_of
from casetrack.service.graph.case_graph import build_graph
from casetrack.service.ingest.graph_extract import build_extract, mention_records
from casetrack.store.records import dumps, loads

EVAL_TEXT = Path(__file__).resolve().parent / "eval_dev" / "text"


def keyed_json(extract: ExtractRecord) -> dict[str, object]:
    """The form stored before issue 38: each record a JSON object keyed by field name."""
    out: dict[str, object] = {section: [r._asdict() for r in getattr(extract, section)] for section in SECTIONS}
    return out if extract.error is None else {**out, "error": extract.error}


def best_ms(fn: Callable[[], object], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best * 1000


def document(doc_id: str) -> Document:
    return Document(id=doc_id, name=doc_id, original_path=None, file_hash=doc_id, file_size=1, file_mtime=0.0,
                    format="txt", document_type=DocumentType.OTHER, type_confidence=1.0, type_source="benchmark",
                    page_count=1, chunk_count=1, ocr_pages=0, skipped_pages=0, ocr_confidence=None, ingested_at=0.0,
                    embedded_at=0.0, embedders=())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--copies", type=int, default=30)
    args = parser.parse_args()
    extracts, answers = [], []
    for path in sorted(EVAL_TEXT.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        pages = [ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(text.split("\f"))]
        chunks = [(f"c{n}", s) for n, s in enumerate(chunk_pages(pages, DocumentType.CONTRACT))]
        answers.append(mention_records(pages))
        extracts.append(build_extract(pages, extract_structure(pages), chunks, answers[-1]))
    forms = {"rows": extract_json, "keyed": keyed_json}
    stored = {form: [dumps(to_json(e)) for e in extracts] for form, to_json in forms.items()}
    assert all(extract_of(loads(raw)) == e for raws in stored.values() for raw, e in zip(raws, extracts, strict=True))
    ids = [f"d{i:05d}" for i in range(args.copies * len(extracts))]
    docs = {i: document(i) for i in ids}
    mentions = sum(len(getattr(e, s)) for e in extracts for s in SECTIONS)
    print(f"{len(extracts)} documents, {mentions:,} records; best of {args.runs} runs (CPU)")
    print(f"{'step':<34}{'rows ms':>10}{'keyed ms':>10}{'rows/keyed':>12}")
    for step, run in (
        ("encode", lambda form: [dumps(forms[form](e)) for e in extracts]),
        ("decode", lambda form: [extract_of(loads(raw)) for raw in stored[form]]),
        (f"decode+graph x{args.copies}", lambda form: build_graph(1, docs, (
            (i, extract_of(loads(stored[form][k % len(extracts)]))) for k, i in enumerate(ids)))),
    ):
        rows, keyed = (best_ms(partial(run, form), args.runs) for form in forms)
        print(f"{step:<34}{rows:>10.1f}{keyed:>10.1f}{rows / keyed:>12.2f}")
    size = {form: sum(map(len, raws)) for form, raws in stored.items()}
    print(f"{'stored bytes':<34}{size['rows']:>10,}{size['keyed']:>10,}{size['rows'] / size['keyed']:>12.2f}")
    helper = best_ms(lambda: [pickle.loads(pickle.dumps(a)) for a in answers], args.runs)
    print(f"{'helper answer pickled+unpickled':<34}{helper:>10.1f}")


if __name__ == "__main__":
    main()
