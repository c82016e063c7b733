"""Fit the search score's calibration (src/casetrack/search/score_model.json; docs/scores.md) on every labelled set.

    uv run python benchmarks/score_calibration.py --embed-cache /tmp/e7 --rows /tmp/rows.jsonl   # collect, fit
    uv run python benchmarks/score_calibration.py --rows /tmp/rows.jsonl --reuse                 # fit again only
    uv run python benchmarks/score_calibration.py ... --write        # also write the shipped model

Each set (eval_retrieval.SETS) is ingested into a fresh case; every one of its questions is searched (top 10,
the real service), and so is every `--foreign`-th question of the other sets, which no passage of this case
answers. Each result is a row: its evidence (search.calibration.Evidence, as the service computed it) and
whether it answers (its own set's question, and the result a hit by search.evaluation.is_hit: the labelled
document and the answer's page or span; a foreign question's results never do).

A logistic model of P(answers | evidence, place in the list) is fitted by Newton's method with a small L2
penalty, twice: with the E7 cosine ("meaning") and without it ("lexical", when E7 is not ready).
Cross-validated by set, leave one set out (its documents and questions are never seen by the fold that scores
it): the reliability table prints, per bin of predicted probability, the rows, the mean prediction and the
observed rate of answers, beside the same table for the pipeline's fused score that was shown before; each
search's scores are made to descend with its order first, as the service shows them
(search.calibration.descending; benchmarks/score_order.py compares the ways of showing them).
Nothing about a set is special-cased: its labels only.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from embed_cache import cache_embeddings
from eval_retrieval import SETS, TOP_K, Query, ingest_all, load_queries, locate, make_app

from casetrack.search.calibration import MODEL_FILE, descending
from casetrack.search.evaluation import Reference, Returned, is_hit

MEANING = ("cosine", "coverage", "fused", "place")
LEXICAL = ("coverage", "fused", "place")
BINS = np.linspace(0.0, 1.0, 11)


def collect(root: Path, foreign: Sequence[Query], tmp: Path) -> list[dict[str, object]]:
    """One row per result of every question of `root` and of `foreign`, searched in a case of `root`'s documents."""
    queries = load_queries(root)
    refs = {p.name[: -len(".txt")]: Reference.of(p.read_text(encoding="utf-8")) for p in (root / "text").glob("*.txt")}
    app = make_app(tmp, "free")
    case, seconds = ingest_all(app, root)
    print(f"{root.name}: ingested in {seconds:.0f} s; {len(queries)} questions, {len(foreign)} foreign",
          file=sys.stderr)
    rows: list[dict[str, object]] = []
    for q, own in [(q, True) for q in queries] + [(q, False) for q in foreign]:
        response = app.search.search(case, q.text, top_k=TOP_K, context_chars=0)
        for rank, hit in enumerate(response.hits, start=1):
            chunk = hit.chunk
            ref = refs.get(chunk.provenance.document_name)
            span = locate(ref, chunk.text, chunk.span.page) if ref else None
            answers = own and is_hit(Returned(chunk.provenance.document_name, chunk.span.page, span), q.label)
            assert hit.evidence is not None
            rows.append({"set": root.name, "query": q.id, "own": own, "rank": rank, "answers": answers,
                         **hit.evidence.as_dict()})
    return rows


def matrix(rows: Sequence[dict[str, object]], features: Sequence[str]) -> np.ndarray:
    return np.array([[float(r[f] or 0.0) for f in features] for r in rows], dtype=np.float64)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-2) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method (IRLS), the intercept unpenalised."""
    design = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(design.shape[1])
    penalty = np.diag([0.0] + [l2] * x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -30, 30)))
        gradient = design.T @ (y - p) - penalty @ beta
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta[1:], float(beta[0])


def predict(x: np.ndarray, weights: np.ndarray, intercept: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x @ weights + intercept, -30, 30)))


def out_of_fold(rows: Sequence[dict[str, object]], features: Sequence[str]) -> np.ndarray:
    """Each row's probability from the model fitted without its set."""
    sets = np.array([r["set"] for r in rows])
    x, y = matrix(rows, features), np.array([bool(r["answers"]) for r in rows], dtype=np.float64)
    out = np.zeros(len(rows))
    for name in dict.fromkeys(sets.tolist()):
        held = sets == name
        weights, intercept = fit(x[~held], y[~held])
        out[held] = predict(x[held], weights, intercept)
    return out


def searches(rows: Sequence[dict[str, object]]) -> list[list[int]]:
    """Row indices of each search, in the order its results were shown."""
    groups: dict[tuple[object, object, object], list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault((r["set"], r["query"], r["own"]), []).append(i)
    return [sorted(g, key=lambda i: int(str(rows[i]["rank"]))) for g in groups.values()]


def pooled(scores: np.ndarray, groups: Sequence[list[int]]) -> np.ndarray:
    """Each search's scores made to descend with its order, as the service shows them (calibration.descending)."""
    out = scores.copy()
    for g in groups:
        out[g] = descending(scores[g].tolist())
    return out


def reliability(title: str, predicted: np.ndarray, y: np.ndarray) -> None:
    print(f"\n{title}\n| predicted | results | mean predicted | observed answers |\n|---|---|---|---|")
    which = np.clip(np.digitize(predicted, BINS) - 1, 0, len(BINS) - 2)
    for b in range(len(BINS) - 1):
        inside = which == b
        if inside.any():
            print(f"| {BINS[b]:.1f}-{BINS[b + 1]:.1f} | {int(inside.sum())} | {predicted[inside].mean():.3f} | "
                  f"{y[inside].mean():.3f} |")
    eps = 1e-9
    brier = float(np.mean((predicted - y) ** 2))
    loss = float(-np.mean(y * np.log(predicted + eps) + (1 - y) * np.log(1 - predicted + eps)))
    print(f"Brier {brier:.4f}, log loss {loss:.4f}, {len(y)} results, {int(y.sum())} answers")


def questions(rows: Sequence[dict[str, object]], predicted: np.ndarray) -> None:
    """The first result's score: questions whose first result answers them, the rest of their own set's, and the
    questions no passage of the case answers."""
    groups: dict[str, list[float]] = {"first result answers": [], "own set, first result does not": [],
                                      "no passage answers (foreign)": []}
    for r, p in zip(rows, predicted, strict=True):
        if r["rank"] != 1:
            continue
        group = ("first result answers" if r["answers"] else "own set, first result does not") if r["own"] else \
            "no passage answers (foreign)"
        groups[group].append(float(p))
    print("\n| questions | n | first result's score: median | 10th-90th percentile |\n|---|---|---|---|")
    for name, values in groups.items():
        if values:
            v = np.array(values)
            print(f"| {name} | {len(v)} | {np.median(v):.2f} | {np.percentile(v, 10):.2f}-{np.percentile(v, 90):.2f} |")


def model_json(rows: Sequence[dict[str, object]]) -> dict[str, object]:
    y = np.array([bool(r["answers"]) for r in rows], dtype=np.float64)
    out: dict[str, object] = {"model": "E7"}
    for name, features in (("meaning", MEANING), ("lexical", LEXICAL)):
        weights, intercept = fit(matrix(rows, features), y)
        out[name] = {"weights": {f: round(float(w), 4) for f, w in zip(features, weights, strict=True)},
                     "intercept": round(intercept, 4)}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="+", default=list(SETS), help=f"set names ({', '.join(SETS)})")
    parser.add_argument("--foreign", type=int, default=4, help="every N-th question of the other sets (default 4)")
    parser.add_argument("--embed-cache", type=Path, help="keep chunk and query vectors in this directory")
    parser.add_argument("--rows", type=Path, default=Path("score_rows.jsonl"), help="the rows collected (JSON lines)")
    parser.add_argument("--reuse", action="store_true", help="fit on --rows as collected before")
    parser.add_argument("--write", action="store_true", help=f"write the model fitted on every row to {MODEL_FILE}")
    args = parser.parse_args(argv)
    if not args.reuse:
        if args.embed_cache:
            cache_embeddings(args.embed_cache)
        every = {name: load_queries(SETS[name]) for name in args.sets}
        rows: list[dict[str, object]] = []
        for name in args.sets:
            foreign = [q for other, qs in every.items() if other != name for q in qs[:: args.foreign]]
            with tempfile.TemporaryDirectory(prefix="casetrack-calibration-") as tmp:
                rows += collect(SETS[name], foreign, Path(tmp))
        args.rows.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    rows = [json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines() if line.strip()]
    y = np.array([bool(r["answers"]) for r in rows], dtype=np.float64)
    print(f"{len(rows)} results of {len({(r['set'], r['query']) for r in rows})} searches, sets: "
          f"{', '.join(dict.fromkeys(str(r['set']) for r in rows))}")
    fused = matrix(rows, ("fused",))[:, 0]
    reliability("The fused score shown before (no fit)", fused, y)
    questions(rows, fused)
    for name, features in (("meaning", MEANING), ("lexical", LEXICAL)):
        predicted = pooled(out_of_fold(rows, features), searches(rows))
        reliability(f"Calibrated, {name} model ({', '.join(features)}), out of fold (leave one set out), each "
                    "search's scores made to descend (as shown)",
                    predicted, y)
        questions(rows, predicted)
    fitted = model_json(rows)
    print("\nfitted on every row:", json.dumps(fitted))
    if args.write:
        MODEL_FILE.write_text(json.dumps(fitted, indent=1) + "\n", encoding="utf-8")
        print(f"written to {MODEL_FILE}")
    return 0 if all(math.isfinite(float(v)) for v in fused) else 1


if __name__ == "__main__":
    sys.exit(main())
