"""Does a passage's E7 vector help the learned clause stage? (issue 34, sixth session; measured, not built)

    uv run python benchmarks/clause_stage_vectors.py --vectors E7.npy --oof OOF.npy --data data.pkl [--l2 0.001]

--vectors: every training passage's E7 vector as ingest computes it (`benchmarks/clause_vectors.py embed`), rows as
data.passages; --oof: the shipped classifier's out-of-fold probabilities (the stage's input). Per type, a logistic
regression on the standardised E7 vector alone (all types at once, full-batch Adam, 400 steps, L2 `--l2`, a rare
type's positives weighted as the word model weights them), out of fold by the same five contract folds; its
log-odds and their gap to the agreement's best become two more stage features per (passage, type). The stage is
then fitted and its threshold chosen by the same nested cross-validation as benchmarks/clause_stage.py (shrinkage
30), with and without them. docs/clause_model.md, "Sixth session: E7 in the stage".
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import clause_rules as cr
import clause_stage_variants as sv
import cuad_passages as cp

from casetrack.service.ingest.clause_stage import documents, log_odds, stage_features

STEPS, RATE = 400, 0.05


def vector_log_odds(vectors: np.ndarray, y: np.ndarray, fold: np.ndarray, l2: float) -> np.ndarray:
    """passages x types: each passage's log-odds of each type from its vector alone, by a model not fitted on its
    fold."""
    x = np.hstack([(vectors - vectors.mean(0)) / (vectors.std(0) + 1e-6), np.ones((len(vectors), 1))])
    count = y.sum(0)
    positive = np.clip((count.mean() / np.maximum(count, 1)) ** 0.5, 1, 20)
    out = np.zeros(y.shape)
    for f in np.unique(fold):
        train, test = fold != f, fold == f
        out[test] = x[test] @ _fit(x[train], y[train], positive, l2)
    return out


def _fit(x: np.ndarray, y: np.ndarray, positive: np.ndarray, l2: float) -> np.ndarray:
    w, m, v = np.zeros((x.shape[1], y.shape[1])), np.zeros((x.shape[1], y.shape[1])), np.zeros((x.shape[1], y.shape[1]))
    weight = np.where(y > 0, positive, 1.0)
    for step in range(1, STEPS + 1):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ ((p - y) * weight) / len(x)
        g[:-1] += l2 * w[:-1]  # not the bias
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        w -= RATE * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w


def main() -> None:
    parser = cr.oof_parser(__doc__)
    parser.add_argument("--vectors", type=Path, required=True, help="E7 vectors of the training passages (.npy)")
    parser.add_argument("--l2", type=float, default=1e-3, help="L2 of the vector model's weights")
    args = parser.parse_args()
    data, _ = cp.training_and_left_out(args.data)
    vectors = np.load(args.vectors).astype(np.float64)
    if len(vectors) != len(data.passages):
        raise SystemExit(f"{args.vectors} has {len(vectors)} rows for {len(data.passages)} passages")
    prob = np.load(args.oof).astype(np.float64)
    contract = cr.contract_ids(data.passages)
    missed = int((cr.spans_of(data).fold < 0).sum())
    e7 = vector_log_odds(vectors, (data.y > 0).astype(float), data.fold, args.l2)
    starts, group = documents(len(prob), contract)
    extra = np.stack([e7, e7 - np.maximum.reduceat(e7, starts, axis=0)[group]], axis=2)
    shipped = stage_features(prob, contract)
    k = int(data.fold.max()) + 1
    for label, feats in (("the shipped features", shipped), ("+ E7 log-odds", np.concatenate([shipped, extra], 2))):
        runs = [sv.one_fold(f, feats, log_odds(prob), data, contract, [30.0]) for f in range(k)]
        print(cr.report(f"nested CV, {label}", cr.scores(sum(r[0][1] for r in runs), missed)), flush=True)


if __name__ == "__main__":
    main()
