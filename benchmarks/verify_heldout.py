"""How often verify_draft gets a quotation's status right, on documents it was not built on.

    uv run python benchmarks/verify_heldout.py --set benchmarks/heldout --set benchmarks/heldout_court
    uv run python benchmarks/verify_heldout.py --texts tests/chunk/data/unseen --texts tests/graph/data/opinions_heldout

Each set is ingested into a fresh case through the real service (parse, OCR, chunk, embed, store); a
draft quoting it rightly and wrongly is planted by benchmarks/verify_drafts.py (documents without fixed
pages are cited by the page CaseTrack estimates, found by a plain search of the stored page text), and
checked by `app.verifier.verify`. Prints, per kind of quotation, how many got the status they must, and
every miss. `--set` takes an eval-dev-style folder (docs/, text/); `--texts` a folder of .txt files, each
its own reference text.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.verify_drafts import SourceDoc, cite_name, draft_text, load_set, plant

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.store import documents as docstore
from casetrack.verify.keys import key_of


def text_set(folder: Path, limit: int) -> tuple[list[SourceDoc], list[Path]]:
    files = sorted(p for p in folder.glob("*.txt") if p.name != "README.md")[:limit]
    docs = [SourceDoc(p.name, cite_name(p.name), (p.read_text(encoding="utf-8"),), False) for p in files]
    return docs, files


def run(name: str, docs: list[SourceDoc], files: list[Path], seed: int) -> collections.Counter[tuple[str, str, bool]]:
    with tempfile.TemporaryDirectory(prefix="casetrack-verify-") as tmp:
        app = CaseTrack.open(load_settings(tmp, log_level="WARNING"))
        case = app.create_case(name)
        for path in files:
            app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(path)))
        with app.cases.store(case).reader() as db:
            page_keys = {d.name: [(p.number, key_of(p.text)) for p in docstore.pages(db, d.id)]
                         for d in docstore.list_documents(db)}

        def locate(file: str, sentence: str) -> int | None:
            wanted = key_of(sentence)
            return next((n for n, k in page_keys.get(file, []) if wanted in k), None)

        planted = plant(docs, seed=seed, locate=locate)
        verification = app.verifier.verify(case, read_draft(text=draft_text(planted, seed)))
        app.jobs.shutdown()
    outcome: collections.Counter[tuple[str, str, bool]] = collections.Counter()
    for p, q in zip(planted, verification.report.quotes, strict=True):
        right = p.right(q.status.value)
        outcome[(p.kind, q.status.value, right)] += 1
        if not right:
            print(f"  miss: {p.kind} expected {p.expected}, got {q.status.value} ({p.source}; cited {p.cite!r}): "
                  f"{p.quote[:90]!r}")
    print(f"{name}: {len(planted)} quotations checked in {verification.seconds:.2f} s")
    return outcome


def table(outcome: collections.Counter[tuple[str, str, bool]]) -> None:
    kinds = sorted({k for k, _, _ in outcome})
    print(f"{'kind':<16}{'quotations':>11}{'right':>7}   statuses")
    for kind in kinds:
        rows = {(s, r): n for (k, s, r), n in outcome.items() if k == kind}
        total, right = sum(rows.values()), sum(n for (_, r), n in rows.items() if r)
        statuses = ", ".join(f"{s} {n}" for (s, _), n in sorted(rows.items()))
        print(f"{kind:<16}{total:>11}{right:>7}   {statuses}")
    total, right = sum(outcome.values()), sum(n for (_, _, r), n in outcome.items() if r)
    false_verified = sum(n for (_, s, r), n in outcome.items() if s == "verified" and not r)
    print(f"{'all':<16}{total:>11}{right:>7}   {right / max(total, 1):.1%} right, {false_verified} false verified")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", action="append", default=[], type=Path, help="an eval-dev-style folder")
    parser.add_argument("--texts", action="append", default=[], type=Path, help="a folder of .txt documents")
    parser.add_argument("--limit", type=int, default=12, help="documents taken from each --texts folder")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    total: collections.Counter[tuple[str, str, bool]] = collections.Counter()
    for folder in args.set:
        docs = load_set(folder)
        total += run(folder.name, docs, [folder / "docs" / d.file for d in docs], args.seed)
    for folder in args.texts:
        docs, files = text_set(folder, args.limit)
        total += run(folder.name, docs, files, args.seed)
    table(total)


if __name__ == "__main__":
    main()
