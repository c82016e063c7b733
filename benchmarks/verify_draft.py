"""verify_draft on a 30-page brief with 80 quotations against a 20,000-chunk case, next to a floor from the
same run.

    uv run python benchmarks/verify_draft.py            # 20,000 chunks
    uv run python benchmarks/verify_draft.py 100000     # other sizes

The case is benchmarks/search.py's synthetic case (written through the real store: 100 chunks on 25
pages per document, eval-dev text plus synthetic identifiers). The brief quotes it: 50 passages cited
to their document and page, 10 cited to a wrong page, 10 with one word changed, 5 with an ellipsis and
5 invented, among paragraphs of prose, on 30 pages (form feeds).

Reported: the first check (cold: the case's match keys and fingerprints built from the store), a second
check of the same brief (warm), and the floor: an exact `str.find` of every quotation in the case's
text held in memory (80 scans, none of them able to say where a changed quotation came from), and one
full scan alone.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.search import print_table, rss_mb, write_case

from casetrack.config import load_settings
from casetrack.graph.citations.eyecite_fast import eyecite
from casetrack.service.app import CaseTrack
from casetrack.service.verify.drafts import read_draft
from casetrack.store import documents as docstore

PAGES, QUOTES = 30, 80
MIX = (("correct", 50), ("wrong_page", 10), ("changed", 10), ("ellipsis", 5), ("invented", 5))
rng = random.Random(3)
_MARKS = str.maketrans({c: " " for c in "\"\u201c\u201d[]"})


def passage(text: str, words: int) -> str:
    """`words` whole words of `text` from a random word start (the brief's own marks, quotation marks and
    brackets, left out: they would make quotations of their own)."""
    tokens = text.translate(_MARKS).split()
    start = rng.randrange(0, max(1, len(tokens) - words))
    return " ".join(tokens[start:start + words])


def brief(pages: dict[tuple[str, int], str], names: dict[str, str]) -> tuple[str, list[str]]:
    """The brief's text (pages split by form feeds) and its quotations."""
    places = list(pages)
    quotes, lines = [], []
    for kind, count in MIX:
        for _ in range(count):
            doc, page = rng.choice(places)
            text = passage(pages[(doc, page)], rng.randrange(12, 30))
            cited = page
            if kind == "wrong_page":
                cited = page % 25 + 1
            elif kind == "changed":
                words = text.split()
                words[len(words) // 2] = "notwithstanding"
                text = " ".join(words)
            elif kind == "ellipsis":
                words = text.split()
                text = " ".join(words[:5]) + " . . . " + " ".join(words[-5:])
            elif kind == "invented":
                text = "the parties solemnly agree that every invoice shall be paid in seashells at low tide"
            quotes.append(text)
            lines.append(f'The record shows that "{text}" ({names[doc]}, p. {cited}).')
    rng.shuffle(lines)
    prose = list(pages.values())
    per_page = -(-len(lines) // PAGES)
    draft_pages = []
    for p in range(PAGES):
        body = lines[p * per_page:(p + 1) * per_page]
        filler = passage(rng.choice(prose), 250)
        draft_pages.append("\n\n".join([filler, *body]))
    return "\f".join(draft_pages), quotes


def run(n: int) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory(prefix="casetrack-bench-") as tmp:
        app = CaseTrack.open(load_settings(tmp, log_level="WARNING"))
        _, write_s = write_case(app, n)
        case = app.active_case()
        with app.cases.store(case).reader() as db:
            names = {d.id: d.name for d in docstore.list_documents(db)}
            pages = {(doc, p.number): p.text for doc, p in docstore.all_pages(db)}
        text, quotes = brief(pages, names)
        draft = read_draft(text=text)
        case_text = "\n".join(pages.values())
        t = time.perf_counter()
        eyecite()  # imported once per process (the server has it after its first ingest)
        eyecite_s = time.perf_counter() - t
        before = rss_mb()
        t = time.perf_counter()
        cold = app.verifier.verify(case, draft)
        cold_s = time.perf_counter() - t
        after = rss_mb()
        held = app.verifier.held_bytes()
        t = time.perf_counter()
        warm = app.verifier.verify(case, draft)
        warm_s = time.perf_counter() - t
        t = time.perf_counter()
        for quote in quotes:
            case_text.find(quote)
        floor_s = time.perf_counter() - t
        t = time.perf_counter()
        case_text.find("\x00 a needle no case holds \x00")
        scan_s = time.perf_counter() - t
        statuses: dict[str, int] = {}
        for q in warm.report.quotes:
            statuses[q.status.value] = statuses.get(q.status.value, 0) + 1
        assert len(cold.report.quotes) == QUOTES, len(cold.report.quotes)
    return [
        ("case", f"{n:,} chunks, {len(pages):,} pages, {len(case_text) / 2**20:.1f} M characters "
                 f"(written in {write_s:.0f} s)"),
        ("brief", f"{warm.report.draft_pages} pages, {len(warm.report.quotes)} quotations: "
                  + ", ".join(f"{s} {c}" for s, c in sorted(statuses.items()))),
        ("eyecite's first import in the process (not in the rows below)", f"{eyecite_s:.2f} s"),
        ("verify, cold (match keys built from the store)", f"{cold_s:.2f} s"),
        ("verify, warm (keys cached for the store generation)", f"{warm_s:.2f} s"),
        ("floor: exact str.find of each quotation in the case text", f"{floor_s:.2f} s"),
        ("one full scan of the case text", f"{scan_s * 1000:.1f} ms"),
        ("ratio cold / warm to the floor", f"x{cold_s / floor_s:.2f} / x{warm_s / floor_s:.2f}"),
        ("match keys held (key + fingerprints); RSS growth", f"{held / 2**20:.0f} MB; +{after - before:.0f} MB"),
    ]


def main() -> None:
    for n in [int(a) for a in sys.argv[1:]] or [20_000]:
        print_table(f"verify_draft, {n:,} chunks, {QUOTES} quotations", run(n))


if __name__ == "__main__":
    main()
