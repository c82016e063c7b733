"""Rebuild the clause classifier's artefact (src/casetrack/embed/data/clauses/) from CUAD's expert labels.

    uv run python scripts/train_clauses.py            # reads ../shared/cuad-clauses beside the checkout

Steps (docs/clause_model.md): CUAD's contracts, less the ones in the project's labelled sets, cut into the
passages ingest makes (benchmarks/cuad_passages.py); 5-fold cross-validation split by contract picks the
one threshold that maximises micro F1 over the out-of-fold probabilities; the model is then fitted on every
passage and written as float16 weights (`words.npy`), float32 biases (`bias.npy`) and `meta.json` (the
types in order, threshold, buckets, cross-validated scores, the data it was trained on).
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dims", type=int, default=8192)
    parser.add_argument("--steps", type=int, default=cf.STEPS)
    parser.add_argument("--rate", type=float, default=cf.RATE)
    parser.add_argument("--l2", type=float, default=cf.L2)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--oof-cache", type=Path, help="also save the out-of-fold probabilities here (.npy), for "
                        "benchmarks/clauses.py --oof-cache")
    args = parser.parse_args()
    passages, left_out = cp.corpus()
    cats = cp.categories()
    y = np.array([[c in p.labels for c in cats] for p in passages], np.float32)
    x = feature_matrix([p.text for p in passages], args.dims)
    fit_args = {"steps": args.steps, "rate": args.rate, "l2": args.l2}
    prob = cf.out_of_fold(x, y, cf.folds([p.contract for p in passages]), **fit_args)
    if args.oof_cache:
        np.save(args.oof_cache, prob)
    threshold = cf.best_threshold(prob, y)
    precision, recall, f1 = cf.scores((prob >= threshold).astype(np.float32), y)
    print(f"cross-validated at {threshold}: micro P {precision:.3f} R {recall:.3f} F1 {f1:.3f}")
    fitted = cf.fit(x, y, **fit_args)  # type: ignore[arg-type]
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "words.npy", fitted.weights.astype(np.float16))
    np.save(args.out / "bias.npy", fitted.bias.astype(np.float32))
    meta = {
        "types": [cp.snake(c) for c in cats], "cuad_categories": cats, "threshold": threshold, "dims": args.dims,
        "features": "hashed words and word pairs (chunk.clause_model.hashed_features)",
        "cross_validation": {"folds": 5, "split": "by contract", "micro_precision": round(precision, 4),
                             "micro_recall": round(recall, 4), "micro_f1": round(f1, 4)},
        "fit": fit_args, "passages": len(passages), "contracts": len({p.contract for p in passages}),
        "left_out": sorted(left_out), "data": "CUAD v1, The Atticus Project, CC BY 4.0",
        "trained": dt.date.today().isoformat(),
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
