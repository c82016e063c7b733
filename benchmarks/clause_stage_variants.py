"""Variants of the clause stage (benchmarks/clause_stage.py) measured by the same nested cross-validation: more
features per (passage, type) from the passage's pieces, and the L2 shrinkage chosen by inner cross-validation.

    uv run python benchmarks/clause_stage_variants.py --oof OOF.npy --data data.pkl [--pieces P.npy --ptr PTR.npy
        --whole WHOLE.npy --features whole,second,near] [--shrinks 3,10,30,100]

--pieces / --ptr: out-of-fold probabilities of every passage's pieces (pieces x types; passage i's are rows
ptr[i]:ptr[i+1]) and --whole: of each passage scored whole, as h34r's export wrote them (ClauseModel.scored). The
piece features (--features, any of): `whole` the passage-whole log-odds, `second` the second-best piece's log-odds,
`near` log(1 + pieces >= half the best piece), `many` log(1 + pieces). For each outer fold and each shrinkage,
the stage is fitted and its threshold and margin chosen exactly as clause_stage.nested does; the shrinkage whose
inner out-of-fold clause-level recall (at the chosen threshold) is highest scores the outer fold. Printed: each
shrinkage held fixed, and the one chosen per outer fold. docs/benchmarks.md "Clause stage: piece features and
shrinkage".
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import clause_rules as cr
import clause_stage as bs
import cuad_passages as cp

from casetrack.service.ingest.clause_stage import EPS, log_odds, stage_features

PIECE_FEATURES = ("whole", "second", "near", "many")


def piece_features(best: np.ndarray, whole: np.ndarray, pieces: np.ndarray, ptr: np.ndarray,
                   names: list[str]) -> np.ndarray:
    """passages x types x len(names) of the pieces' probabilities (PIECE_FEATURES)."""
    n, types = best.shape
    second, near, many = np.full((n, types), EPS), np.zeros((n, types)), np.zeros((n, types))
    for i in range(n):
        p = pieces[ptr[i]:ptr[i + 1]]
        if not len(p):
            continue
        many[i] = len(p)
        near[i] = (p >= 0.5 * p.max(axis=0)).sum(axis=0)
        if len(p) > 1:
            second[i] = np.sort(p, axis=0)[-2]
    found = {"whole": log_odds(whole), "second": log_odds(second), "near": np.log1p(near), "many": np.log1p(many)}
    return np.stack([found[name] for name in names], axis=2)


def one_fold(f: int, feats: np.ndarray, odds: np.ndarray, data: cr.cp.Labelled, contract: np.ndarray,
             shrinks: list[float]) -> list[tuple[float, np.ndarray]]:
    """Per shrinkage, (inner clause-level recall at the threshold chosen on the inner folds, outer fold counts)."""
    y, k = (data.y > 0).astype(float), int(data.fold.max()) + 1
    inner = [g for g in range(k) if g != f]
    train, test = data.fold != f, data.fold == f
    out = []
    for shrink in shrinks:
        q = np.zeros(data.y.shape)
        for g in inner:
            fit_on, scored = np.isin(data.fold, [h for h in inner if h != g]), data.fold == g
            q[scored] = bs.fit(feats[fit_on], odds[fit_on], y[fit_on], shrink=shrink).probability_of(
                feats[scored], odds[scored])
        table = bs.threshold_counts(q, train, data, contract)
        margin = cr.margin_on(table, inner)
        t = cr.choose(table, inner, cr.GOAL + margin)
        oof = np.zeros(data.y.shape)
        oof[test] = bs.fit(feats[train], odds[train], y[train], shrink=shrink).probability_of(feats[test], odds[test])
        counts = bs.threshold_counts(oof, test, data, contract)[t, f]
        out.append((cr.scores(table[t][inner].sum(0))[2], counts))
        print(cr.report(f"  outer fold {f}, L2 {shrink:g}: threshold {bs.THRESHOLDS[t]} +{margin}",
                        cr.scores(counts)), flush=True)
    return out


def main() -> None:
    parser = cr.oof_parser(__doc__)
    parser.add_argument("--pieces", type=Path, help="out-of-fold probabilities of the passages' pieces")
    parser.add_argument("--ptr", type=Path, help="where each passage's pieces start in --pieces (passages + 1)")
    parser.add_argument("--whole", type=Path, help="out-of-fold probabilities of the passages scored whole")
    parser.add_argument("--features", default="", help=f"piece features, comma-separated, of {PIECE_FEATURES}")
    parser.add_argument("--shrinks", default="30", help="L2 shrinkages to choose from, comma-separated")
    args = parser.parse_args()
    data, _ = cp.training_and_left_out(args.data)
    prob = np.load(args.oof).astype(np.float64)
    contract = cr.contract_ids(data.passages)
    missed = int((cr.spans_of(data).fold < 0).sum())
    feats = stage_features(prob, contract)
    names = [n for n in args.features.split(",") if n]
    if names:
        extra = piece_features(prob, np.load(args.whole).astype(np.float64), np.load(args.pieces).astype(np.float64),
                               np.load(args.ptr), names)
        feats = np.concatenate([feats, extra], axis=2)
    shrinks = [float(s) for s in args.shrinks.split(",")]
    k = int(data.fold.max()) + 1
    runs = [one_fold(f, feats, log_odds(prob), data, contract, shrinks) for f in range(k)]
    label = "+".join(names) or "the shipped features"
    for i, shrink in enumerate(shrinks):
        summed = np.sum([r[i][1] for r in runs], axis=0)
        print(cr.report(f"nested CV, {label}, L2 {shrink:g}", cr.scores(summed, missed)))
    picked = [int(np.argmax([v for v, _ in r])) for r in runs]
    print(cr.report(f"nested CV, {label}, L2 by inner CV {[shrinks[p] for p in picked]}",
                    cr.scores(np.sum([r[p][1] for r, p in zip(runs, picked, strict=True)], axis=0), missed)))
    for f, r in enumerate(runs):
        print(f"  outer fold {f} clause-level R: " + "  ".join(
            f"L2 {s:g} {cr.scores(c)[2]:.3f}" for s, (_, c) in zip(shrinks, r, strict=True)))


if __name__ == "__main__":
    main()
