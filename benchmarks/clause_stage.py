"""The clause library's learned decision (service.ingest.clause_stage.ClauseStage), fitted and chosen by nested
cross-validation on out-of-fold probabilities.

    uv run python benchmarks/clause_stage.py --oof OOF.npy [--artefact DIR] [--data data.pkl] [--write] \
        [--vectors E7.npy --left-out-vectors E7_LEFT_OUT.npy]

Reads the out-of-fold probabilities of the 408 training contracts' passages (as benchmarks/clause_rules.py does)
and fits, per clause type, a logistic regression over each (passage, type)'s features (clause_stage.FEATURES: the
passage's log-odds, the contract's best for the type, the gap and rank to it, the neighbours', the place in the
contract) and the passage's log-odds of every type, standardised; L2 toward one regression shared by all types
(fitted first, with a bias per type), so a rare type leans on what the common ones learned; a labelled (passage,
type) weighs in the loss as many as the labelled spans it holds (`span_weights`: what clause-level recall counts).
Tagged: at or above a threshold, `parties` anywhere (PARTIES_ANYWHERE: the library lists a signature block naming
the parties; search's role prior still reads `parties` only on the first passage, the shipped rule's parties_within
1).

Nested as clause_rules.py: for each outer fold, the stage is fitted on three of the other four folds and scores the
fourth (four times); on those inner out-of-fold scores the threshold and its precision margin are chosen exactly as
clause_rules.py chooses a rule (clause_rules.margin_on, choose); the stage fitted on all four then scores the outer
fold. Printed per outer fold beside the shipped rule chosen the same way. The stage written by `--write` is fitted
on all five folds, with the threshold chosen on the stage's own 5-fold out-of-fold scores (the margin the outer
folds chose most often); then the artefact is scored, by service.ingest.clauses.decided, on the 31 contracts left
out of training. docs/benchmarks.md "Clause stage".

With --vectors (every training passage's E7 vector as ingest computes it, rows as the passages:
`benchmarks/clause_vectors.py embed`), a second stage is fitted and chosen the same way with two more features
per (passage, type): the log-odds of a per-type logistic regression on the passage's standardised vector alone
(service.ingest.clause_stage.VectorModel; full-batch Adam, L2 VECTOR_L2, a rare type's positives weighted as the
word model weights them), out of fold by the same five contract folds, and their gap to the contract's best. The
vector model fitted on every training passage and that stage are written beside the plain stage (ingest uses it
when E7 embedded the agreement). The left-out contracts' vectors are embedded once into --left-out-vectors.
docs/clause_model.md "Seventh session".
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import clause_rules as cr
import clause_vectors as cv
import cuad_passages as cp

from casetrack.chunk.roles.clause_model import ClauseModel
from casetrack.embed.clause_artefact import read_artefact
from casetrack.service.ingest.clause_stage import (
    FEATURES,
    PLAIN,
    VECTOR_FEATURES,
    VECTOR_MODEL,
    VECTOR_MODEL_CENTRE,
    WITH_VECTORS,
    ClauseStage,
    StageFiles,
    VectorModel,
    log_odds,
    stage_features,
    vector_features,
)
from casetrack.service.ingest.clauses import ClauseRule, allowed

THRESHOLDS = np.round(np.arange(0.05, 0.951, 0.01), 3)
SHRINK = 30.0  # L2 of a type's weights toward the shared ones (and of its other-type weights toward 0)
PARTIES_WITHIN = 1  # the hand-built rule's, and where search reads `parties` (service.ingest.clauses.ClauseRule)
# The stage's `parties` tags are listed wherever it puts them: +0.009 clause-level recall in nested CV at the same
# precision (docs/clause_model.md, "Eighth session"); search's prior does not read them past the preamble.
PARTIES_ANYWHERE = True
VECTOR_L2, VECTOR_STEPS, VECTOR_RATE = 1e-3, 400, 0.05  # the vector model (1e-2 and 1e-4 measured alike)
EMBEDDER = "E7"


def _newton(x: np.ndarray, y: np.ndarray, prior: np.ndarray, penalty: np.ndarray, weight: np.ndarray,
            steps: int = 25) -> np.ndarray:
    """Logistic regression by Newton's method, each row's loss times its `weight`, L2 `penalty` (per weight) toward
    `prior`."""
    w = prior.copy()
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (weight * (p - y)) + penalty * (w - prior)
        hess = (x * (weight * p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-6)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def fit(feats: np.ndarray, odds: np.ndarray, y: np.ndarray, threshold: float = 0.5, shrink: float = SHRINK,
        weight: np.ndarray | None = None) -> ClauseStage:
    """The stage fitted on rows of passages x types x FEATURES, their log-odds and 0/1 labels; `shrink`: the L2 of
    a type's weights toward the shared ones; `weight` (passages x types): each labelled row's weight in the loss
    (`span_weights`), scaled so that the labelled rows' mean is 1 (every other row 1; None: all 1)."""
    n, types, k = feats.shape
    weight = np.ones(y.shape) if weight is None else np.where(y > 0, weight / weight[y > 0].mean(), 1.0)
    centre = np.stack([np.concatenate([feats.reshape(-1, k).mean(0), odds.mean(0)]),
                       np.concatenate([feats.reshape(-1, k).std(0), odds.std(0)]) + 1e-9])
    z = (feats - centre[0, :k]) / centre[1, :k]
    zo = (odds - centre[0, k:]) / centre[1, k:]
    shared = _newton(np.concatenate([np.tile(np.eye(types), (n, 1)), z.reshape(-1, k)], axis=1), y.reshape(-1),
                     np.zeros(types + k), np.concatenate([np.zeros(types), np.full(k, 1e-3)]), weight.reshape(-1))
    weights = np.zeros((types, 1 + k + types))
    penalty = np.concatenate([[0.0], np.full(k + types, shrink)])
    for j in range(types):
        x = np.concatenate([np.ones((n, 1)), z[:, j], zo], axis=1)
        weights[j] = _newton(x, y[:, j], np.concatenate([[shared[j]], shared[types:], np.zeros(types)]), penalty,
                             weight[:, j])
    return ClauseStage(weights, centre, threshold)


def span_weights(data: cp.Labelled) -> np.ndarray:
    """passages x types: a labelled (passage, type)'s weight in the stage's loss is the labelled spans of the type it
    holds (a span held by n passages counts 1/n to each; `fit` scales them on the rows it fits); any other 1.
    Clause-level recall counts spans, so a preamble naming both parties four times weighs four clauses, not one."""
    spans = cr.spans_of(data)
    holders = np.bincount(spans.pair_span, minlength=len(spans.column))
    held = np.zeros(data.y.shape)
    np.add.at(held, (spans.pair_passage, spans.column[spans.pair_span]), 1.0 / holders[spans.pair_span])
    held = np.maximum(held, 1e-3)  # a labelled passage holding no located span (a span cut short) still counts
    return np.where(data.y > 0, held, 1.0)


def fit_vectors(vectors: np.ndarray, y: np.ndarray, l2: float = VECTOR_L2) -> VectorModel:
    """Per type, a logistic regression on the standardised vectors (passages x dims) and 0/1 labels y: all types at
    once by full-batch Adam; L2 on the weights, not the bias; a rare type's positives weighted as the word model
    weights them (clause_vectors.positive_weights), so that one threshold serves the types alike."""
    centre = np.stack([vectors.mean(0), vectors.std(0) + 1e-6])
    x = np.hstack([(vectors - centre[0]) / centre[1], np.ones((len(vectors), 1))])
    weight = np.where(y > 0, cv.positive_weights(y), 1.0)
    w, m, v = (np.zeros((x.shape[1], y.shape[1])) for _ in range(3))
    for step in range(1, VECTOR_STEPS + 1):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ ((p - y) * weight) / len(x)
        g[:-1] += l2 * w[:-1]
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        w -= VECTOR_RATE * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return VectorModel(w, centre)


def vector_stage_features(vectors: np.ndarray, y: np.ndarray, fold: np.ndarray, contract: np.ndarray) -> np.ndarray:
    """passages x types x VECTOR_FEATURES, each passage's from a vector model not fitted on its fold."""
    odds = np.zeros(y.shape)
    for f in np.unique(fold):
        odds[fold == f] = fit_vectors(vectors[fold != f], y[fold != f]).log_odds(vectors[fold == f])
    return vector_features(odds, contract)


def threshold_counts(q: np.ndarray, rows: np.ndarray, data: cp.Labelled, contract: np.ndarray) -> np.ndarray:
    """thresholds x folds x counts (clause_rules.fold_counts) of tagging `q` at each threshold, rows outside
    `rows` untagged."""
    spans, k = cr.spans_of(data), int(data.fold.max()) + 1
    ok = allowed(q.shape, data.types, ClauseRule(1.0, parties_within=PARTIES_WITHIN), contract,
                 parties_anywhere=PARTIES_ANYWHERE) & rows[:, None]
    return np.stack([cr.fold_counts((q >= t) & ok, data.y, data.fold, spans, k) for t in THRESHOLDS])


def nested(feats: np.ndarray, odds: np.ndarray, data: cp.Labelled, contract: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, list[tuple[float, float]]]:
    """(outer folds' counts, the stage's 5-fold out-of-fold probabilities, per outer fold (threshold, margin))."""
    y, k, weight = (data.y > 0).astype(float), int(data.fold.max()) + 1, span_weights(data)
    counts, chosen, oof = np.zeros((k, 5)), [], np.zeros(data.y.shape)
    for f in range(k):
        inner = [g for g in range(k) if g != f]
        q = np.zeros(data.y.shape)
        for g in inner:
            train, test = np.isin(data.fold, [h for h in inner if h != g]), data.fold == g
            q[test] = fit(feats[train], odds[train], y[train], weight=weight[train]).probability_of(
                feats[test], odds[test])
        table = threshold_counts(q, data.fold != f, data, contract)
        margin = cr.margin_on(table, inner)
        t = cr.choose(table, inner, cr.GOAL + margin)
        train, test = data.fold != f, data.fold == f
        oof[test] = fit(feats[train], odds[train], y[train], weight=weight[train]).probability_of(
            feats[test], odds[test])
        counts[f] = threshold_counts(oof, test, data, contract)[t, f]
        chosen.append((float(THRESHOLDS[t]), margin))
        print(cr.report(f"  outer fold {f}: threshold {THRESHOLDS[t]} +{margin}", cr.scores(counts[f])), flush=True)
    return counts, oof, chosen


def chosen(feats: np.ndarray, odds: np.ndarray, data: cp.Labelled, contract: np.ndarray, label: str
           ) -> tuple[ClauseStage, str]:
    """The stage on these features, printed by nested CV, fitted on all folds, its threshold chosen on its own
    5-fold out-of-fold scores with the margin the outer folds chose most often; and how it was chosen, in words."""
    missed = int((cr.spans_of(data).fold < 0).sum())
    counts, oof, picked = nested(feats, odds, data, contract)
    print(cr.report(f"nested CV, {label}", cr.scores(counts.sum(0), missed)))
    margin = Counter(m for _, m in picked).most_common(1)[0][0]
    table = threshold_counts(oof, np.ones(len(odds), bool), data, contract)
    t = float(THRESHOLDS[cr.choose(table, range(table.shape[1]), cr.GOAL + margin)])
    print(cr.report(f"CV, {label}, threshold {t} chosen on all folds (margin {margin})",
                    cr.scores(table[list(THRESHOLDS).index(t)].sum(0), missed)))
    how = (f"most labelled spans listed (clause level) at micro precision >= {cr.GOAL} + {margin}, nested 5-fold CV "
           f"by contract on out-of-fold probabilities; a labelled passage weighted by the spans it holds; "
           f"benchmarks/clause_stage.py (L2 {SHRINK})")
    return fit(feats, odds, (data.y > 0).astype(float), t, weight=span_weights(data)), how


def write(folder: Path, stage: ClauseStage, files: StageFiles, features: tuple[str, ...], how: str) -> None:
    """`stage` into the artefact in `folder`, where `files` says; `how`: how it was chosen."""
    np.save(folder / f"{files.weights}.npy", stage.weights.astype(np.float32))
    np.save(folder / f"{files.centre}.npy", stage.centre.astype(np.float32))
    extra: dict[str, object] = {}
    if stage.vector_model is not None and files.embedder:
        np.save(folder / f"{VECTOR_MODEL}.npy", stage.vector_model.weights.astype(np.float32))
        np.save(folder / f"{VECTOR_MODEL_CENTRE}.npy", stage.vector_model.centre.astype(np.float32))
        extra = {files.embedder: EMBEDDER, "stage_vector_l2": VECTOR_L2}
    prefix = files.threshold.removesuffix("_threshold")
    meta_path = folder / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta.update({files.threshold: stage.threshold, f"{prefix}_features": list(features), f"{prefix}_chosen_for": how,
                 "parties_listed_anywhere": PARTIES_ANYWHERE}, **extra)
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    parser = cr.oof_parser(__doc__)
    parser.add_argument("--write", action="store_true", help="write the fitted stages into the artefact")
    parser.add_argument("--vectors", type=Path, help="the training passages' E7 vectors (.npy): fit the stage "
                        "that reads them too")
    parser.add_argument("--left-out-vectors", type=Path, help="the left-out passages' E7 vectors (.npy; embedded "
                        "and kept here when missing)")
    args = parser.parse_args()
    data, held = cp.training_and_left_out(args.data)
    prob = np.load(args.oof).astype(np.float64)
    contract = cr.contract_ids(data.passages)
    missed = int((cr.spans_of(data).fold < 0).sum())
    rules = [r for r in cr.grid() if r.parties_within == PARTIES_WITHIN]
    rule_counts = cr.table(prob, data, rules)
    outer, picked = cr.nested(rule_counts)
    print(cr.report("nested CV, the hand-built rule (clause_rules.py)", cr.scores(outer, missed)))
    print("  per outer fold: threshold / best_from / near_best + margin")
    for f, (r, m) in enumerate(picked):
        rule = rules[r]
        print(cr.report(f"  outer fold {f}: {rule.threshold} / {rule.best_from} / {rule.near_best} +{m}",
                        cr.scores(rule_counts[r, f])))
    feats, odds = stage_features(prob, contract), log_odds(prob)
    stage, how = chosen(feats, odds, data, contract, "the learned stage")
    if args.write:
        write(args.artefact, stage, PLAIN, FEATURES, how)
    if args.vectors is not None:
        vectors = np.load(args.vectors).astype(np.float64)
        if len(vectors) != len(data.passages):
            raise SystemExit(f"{args.vectors} has {len(vectors)} rows for {len(data.passages)} passages")
        y = (data.y > 0).astype(float)
        with_vectors = np.concatenate([feats, vector_stage_features(vectors, y, data.fold, contract)], axis=2)
        fitted, how = chosen(with_vectors, odds, data, contract, "the learned stage with E7 vectors")
        fitted = dataclasses.replace(fitted, vector_model=fit_vectors(vectors, y), embedder=EMBEDDER)
        if args.write:
            write(args.artefact, fitted, WITH_VECTORS, FEATURES + VECTOR_FEATURES, how)
    arrays, meta = read_artefact(args.artefact)
    model = ClauseModel.of(arrays, meta)
    rule = ClauseRule.of(meta, arrays)
    held_vectors = cv.vectors_of(held, args.left_out_vectors) if rule.embedder() is not None else None
    decisions: list[tuple[str, ClauseRule, np.ndarray | None]] = [("the hand-built rule", ClauseRule.of(meta), None),
                 ("the artefact's plain stage", dataclasses.replace(rule, vector_stage=None), None)]
    if held_vectors is not None:
        decisions.append(("the artefact's stage with E7 vectors", rule, held_vectors))
    for label, decide, vecs in decisions:
        tagged = cr.tag_contracts(model, decide, held, vecs)
        spans = cr.spans_of(held)
        hit = cr.listed(tagged, spans)
        tp, n, lab = (tagged & (held.y > 0)).sum(), tagged.sum(), (held.y > 0).sum()
        print(cr.report(f"left-out {len(set(cr.contract_ids(held.passages).tolist()))} contracts, {label}",
                        (tp / max(n, 1), tp / max(lab, 1), hit.sum() / max(len(hit), 1))))


if __name__ == "__main__":
    main()
