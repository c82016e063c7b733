"""Rebuild the clause classifier's artefact (src/casetrack/embed/data/clauses/) from CUAD's expert labels.

    uv run python scripts/train_clauses.py            # reads ../shared/cuad-clauses beside the checkout

Steps (docs/clause_model.md): CUAD's contracts, less the ones in the project's labelled sets, cut into the
passages ingest makes, and each passage into the pieces (paragraphs or sentences) ingest scores beside it
(benchmarks/cuad_passages.py; a piece is labelled with the expert spans it overlaps); each passage's heading
path (the headings in force where it starts, as ingest records them) is a feature of the passage and of its
pieces (`--no-headings` leaves it out). The model is fitted on passages and pieces together
(benchmarks/clause_sparse.py), so that a paragraph's probability means what a passage's does. 5-fold
cross-validation split by contract gives every passage an out-of-fold probability as ingest scores it (the best
of the passage whole and its pieces); on those the threshold is chosen that finds the most labelled passages
while at least 65% of the tagged ones are right (the issue's acceptance for the clause library), one for every
type, or one per type (`--per-type`) when nested cross-validation (thresholds chosen on four folds, scored on
the fifth) says they find more at that precision. The model is then fitted on every passage and written as
float16 weights (`words.npy`), float32 biases (`bias.npy`), per-type thresholds (`thresholds.npy`, only when
chosen) and `meta.json`. `--fold-cache DIR` keeps the five folds' fits. Then the decision rule ingest applies
to a whole agreement (service.ingest.clauses.ClauseRule) is chosen by nested cross-validation on the
out-of-fold probabilities (`--oof-cache OOF.npy`) and written into meta.json: `benchmarks/clause_rules.py --oof OOF.npy
--parties-within 1 --write` (docs/clause_model.md, "Use at ingest").
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import clause_sparse as cs
import cuad_passages as cp

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "casetrack" / "embed" / "data" / "clauses"
# The clause library's acceptance (issue 34): at least 65% of the passages it lists under a type are right; the
# threshold finds as many labelled clauses as it can at that precision.
MIN_PRECISION = 0.65


def whole_fit(examples: cs.Examples, passages: int, options: cs.Options,
              cache: Path | None) -> tuple[np.ndarray, np.ndarray]:
    """The model fitted on every passage and piece (kept in `cache` as w_all.npy, b_all.npy when given)."""
    if cache and (cache / "w_all.npy").exists() and (cache / "b_all.npy").exists():
        return np.load(cache / "w_all.npy").astype(np.float32), np.load(cache / "b_all.npy")
    w, b = examples.fit(np.ones(passages, bool), options)
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
        np.save(cache / "w_all.npy", w.astype(np.float16))
        np.save(cache / "b_all.npy", b)
    return w, b


def choose(prob: np.ndarray, data: cp.Labelled, min_precision: float, per_type: bool) -> tuple[
        float, np.ndarray | None, dict[str, object]]:
    """(one threshold, per-type thresholds or None, the cross-validated scores of what was chosen)."""
    one = cs.one_threshold(prob, data.y, min_precision)
    p1, r1, f1 = cs.micro((prob >= one).astype(np.float32), data.y)
    pn, rn, fn = cs.micro(cs.nested(prob, data.y, data.fold, min_precision), data.y)
    print(f"one threshold {one}: micro P {p1:.3f} R {r1:.3f} F1 {f1:.3f}; per type (nested): P {pn:.3f} "
          f"R {rn:.3f} F1 {fn:.3f}")
    if per_type and pn >= min_precision and rn > r1:
        cuts = cs.greedy_thresholds(prob, data.y, min_precision)
        return one, cuts, {"thresholds": "per type, greedy (benchmarks/clause_sparse.py), nested CV",
                           "micro_precision": round(pn, 4), "micro_recall": round(rn, 4), "micro_f1": round(fn, 4)}
    return one, None, {"micro_precision": round(p1, 4), "micro_recall": round(r1, 4), "micro_f1": round(f1, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cs.Options.add(parser)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--fold-cache", type=Path, help="keep each fold's fit here (w<f>.npy, b<f>.npy) and read "
                        "it back in a later run with the same options")
    parser.add_argument("--oof-cache", type=Path, help="also save the out-of-fold probabilities here (.npy)")
    parser.add_argument("--min-precision", type=float, default=MIN_PRECISION)
    parser.add_argument("--per-type", action="store_true", help="per-type thresholds when nested CV finds more")
    args = parser.parse_args()
    options = cs.Options.of(args)
    data = cp.labelled()
    examples = cs.Examples.of([p.text for p in data.passages], data.y,
                              [(p.passage, p.text) for p in data.located.pieces], data.piece_y, options.dims,
                              [p.heading for p in data.passages] if options.headings else None)
    prob = cs.out_of_fold(data.passages, data.fold, data.types, examples, options, args.fold_cache)
    if args.oof_cache:
        np.save(args.oof_cache, prob)
    threshold, cuts, scored = choose(prob, data, args.min_precision, args.per_type)
    w, b = whole_fit(examples, len(data.passages), options, args.fold_cache)
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "words.npy", w.astype(np.float16))
    np.save(args.out / "bias.npy", b.astype(np.float32))
    (args.out / "thresholds.npy").unlink(missing_ok=True)
    if cuts is not None:
        np.save(args.out / "thresholds.npy", cuts.astype(np.float32))
    meta = {
        "types": list(data.types), "cuad_categories": data.categories, "threshold": threshold,
        "piece_floor": options.floor, "dims": options.dims,
        "features": "hashed words and word pairs (chunk.clause_model.hashed_features)" + (
            ", and the heading path's words and pairs in their own namespace (heading_features)"
            if options.headings else ""),
        "namespaces": ["words", "pairs", *(["heading"] if options.headings else [])],
        "scoring": "best of the passage whole and each piece (chunk.clause_model.ClauseModel.passage_scores)",
        "trained_on": "passages and their pieces, a piece labelled by the expert spans it overlaps",
        "cross_validation": {"folds": 5, "split": "by contract",
                             "chosen_for": f"most labelled passages found at micro precision >= {args.min_precision}",
                             **scored},
        "fit": {k: getattr(options, k) for k in cs.Options.__slots__},
        "passages": len(data.passages), "pieces": len(data.located.pieces),
        "contracts": len({p.contract for p in data.passages}),
        "left_out": sorted(data.left_out), "data": "CUAD v1, The Atticus Project, CC BY 4.0",
        "trained": dt.date.today().isoformat(),
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} (threshold {threshold}{', per type' if cuts is not None else ''})")


if __name__ == "__main__":
    main()
