"""Rebuild the clause classifier's artefact (src/casetrack/embed/data/clauses/) from CUAD's expert labels.

    uv run python scripts/train_clauses.py            # reads ../shared/cuad-clauses beside the checkout

Steps (docs/clause_model.md): CUAD's contracts, less the ones in the project's labelled sets, cut into the
passages ingest makes (benchmarks/cuad_passages.py); 5-fold cross-validation split by contract picks the
piece floor (how a passage's paragraphs are scored beside it, chunk.clause_model) and the one threshold that
together maximise micro F1 over the out-of-fold probabilities, each passage scored as ingest scores it; the
model is then fitted on every passage and written as float16 weights (`words.npy`), float32 biases
(`bias.npy`) and `meta.json` (the types in order, threshold, piece floor, buckets, cross-validated scores,
the data it was trained on). `--fold-cache DIR` keeps the five folds' fits for a later run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import clause_fit as cf
import cuad_passages as cp

from casetrack.chunk.roles.clause_model import feature_matrix

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "casetrack" / "embed" / "data" / "clauses"


FLOORS = (0, 100, 200, 300, 400)  # piece floors tried (0: each passage scored whole); chunk.clause_model
# The clause library's acceptance (issue 34): at least 65% of the passages it lists under a type are right; the
# threshold finds as many labelled clauses as it can at that precision.
MIN_PRECISION = 0.65


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cf.add_options(parser)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--oof-cache", type=Path, help="also save the out-of-fold probabilities here (.npy), for "
                        "benchmarks/clauses.py --oof-cache")
    parser.add_argument("--min-precision", type=float, default=MIN_PRECISION, help="choose the floor and threshold "
                        "that find the most labelled passages at this micro precision (0: the best micro F1)")
    parser.add_argument("--keep-weights", action="store_true", help="keep the shipped weights (fitted on the same "
                        "passages with the same options) and choose only the piece floor and threshold again")
    args = parser.parse_args()
    data = cp.labelled()
    x = feature_matrix([p.text for p in data.passages], args.dims)
    fit_args = {"steps": args.steps, "rate": args.rate, "l2": args.l2}
    fitted = cf.fold_fits(x, data.y, data.fold, args.fold_cache, **fit_args)
    texts = [p.text for p in data.passages]
    chosen = None
    for floor in FLOORS:
        prob = cf.passage_oof(texts, data.fold, fitted, data.types, floor)
        threshold = cf.best_threshold(prob, data.y, args.min_precision or None)
        precision, recall, f1 = cf.scores((prob >= threshold).astype(np.float32), data.y)
        print(f"piece floor {floor}: cross-validated at {threshold}: micro P {precision:.3f} R {recall:.3f} "
              f"F1 {f1:.3f}")
        goal = (precision >= args.min_precision, recall) if args.min_precision else (True, f1)
        if chosen is None or goal > chosen[6]:
            chosen = (floor, threshold, precision, recall, f1, prob, goal)
    assert chosen is not None
    floor, threshold, precision, recall, f1, prob, _ = chosen
    if args.oof_cache:
        np.save(args.oof_cache, prob)
    whole = cf.Fitted(*(np.load(args.out / f) for f in ("words.npy", "bias.npy"))) if args.keep_weights else \
        cf.fit(x, data.y, **fit_args)  # type: ignore[arg-type]
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "words.npy", whole.weights.astype(np.float16))
    np.save(args.out / "bias.npy", whole.bias.astype(np.float32))
    meta = {
        "types": list(data.types), "cuad_categories": data.categories, "threshold": threshold,
        "piece_floor": floor, "dims": args.dims,
        "features": "hashed words and word pairs (chunk.clause_model.hashed_features)",
        "scoring": "best of the passage whole and each piece (chunk.clause_model.ClauseModel.passage_scores)",
        "cross_validation": {"folds": 5, "split": "by contract", "chosen_for": (
                                 f"most labelled passages found at micro precision >= {args.min_precision}"
                                 if args.min_precision else "best micro F1"), "micro_precision": round(precision, 4),
                             "micro_recall": round(recall, 4), "micro_f1": round(f1, 4)},
        "fit": fit_args, "passages": len(data.passages), "contracts": len({p.contract for p in data.passages}),
        "left_out": sorted(data.left_out), "data": "CUAD v1, The Atticus Project, CC BY 4.0",
        "trained": dt.date.today().isoformat(),
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} (piece floor {floor}, threshold {threshold})")


if __name__ == "__main__":
    main()
