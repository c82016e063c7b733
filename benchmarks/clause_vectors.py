"""Do E7 passage vectors help the clause classifier? (issue 34, sixth session)

Steps:

  embed    each training passage's E7 vector exactly as ingest computes it: the passage behind its header (the
           contract's name and its heading path, `service.ingest.entries.chunk_headers`), read in E7's overlapping
           windows and averaged (`Embedder.embed_windows`), one ONNX thread. Writes float32 (rows x 384).
  measure  per type, a logistic regression on [logit of the shipped model's out-of-fold probability, the E7
           vector] (stacked: the probability is out of fold, so this is fair), fitted on four folds by contract and
           scored on the fifth, C chosen by inner CV on the four; against the out-of-fold probability alone.
           Writes the stacked out-of-fold probabilities (for `benchmarks/clause_rules.py --oof`) and, fitted on all
           folds, the 31 left-out contracts' probabilities.

  uv run python benchmarks/clause_vectors.py embed --data DATA.pkl --out E7.npy
  uv run python benchmarks/clause_vectors.py measure --data DATA.pkl --vectors E7.npy --oof OOF.npy \
      --held HELD.pkl --held-vectors HELD_E7.npy --held-prob HELD_PROB.npy --out-dir DIR [--residual]
  uv run python benchmarks/clause_vectors.py requantile --out-dir DIR --held-prob HELD_PROB.npy

Findings (docs/clause_model.md, "Sixth session"): passage recall up, clause-level recall not (E7 lifts the weak
semantic types and the one decision rule then loses others); nothing built from it.

DATA.pkl holds (cuad_passages.Labelled, _) and HELD.pkl a Labelled (the 31 contracts left out of training), as
the fourth session wrote them (/tmp/h34e/data.pkl, /tmp/h34r/held31.pkl); without --data the passages are cut
again from ../shared/cuad-clauses (`cuad_passages.labelled`).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import clause_rules as cr
import cuad_passages as cp

from casetrack.service.ingest.clauses import ClauseRule, decided
from casetrack.service.ingest.entries import HeadedTexts, chunk_headers

BATCH = 64


def headed_texts(passages: list[cp.Passage]) -> HeadedTexts:
    """The passages as ingest embeds them: a CUAD contract's name is its file name (a .txt, extension dropped)."""
    headers = [chunk_headers(f"{p.contract}.txt", [p.heading])[0] for p in passages]
    return HeadedTexts(headers, [p.text for p in passages])


def embed(passages: list[cp.Passage], out: Path, threads: int = 1) -> np.ndarray:
    """The passages' E7 vectors, written to `out`; on the way, the rows done so far to `out`.partial.npy every
    few batches (all of CUAD is ~1.5 hours of one thread on a busy machine), from which a rerun resumes."""
    from casetrack.embed.pool import EmbedderPool

    texts = headed_texts(passages)
    partial = out.with_suffix(".partial.npy")
    rows: list[np.ndarray] = [np.load(partial)] if partial.exists() else []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as models:
        embedder = EmbedderPool(Path(models), memory_mode="full", threads=threads).get("E7")
        for start in range(sum(len(r) for r in rows), len(texts), BATCH):
            vectors, _ = embedder.embed_windows(texts[start:start + BATCH])
            rows.append(np.asarray(vectors, np.float32))
            done = start + len(rows[-1])
            print(f"{done}/{len(texts)} passages, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
            if len(rows) % 4 == 0:
                np.save(partial, np.concatenate(rows))
    vectors = np.concatenate(rows) if rows else np.zeros((0, 384), np.float32)
    np.save(out, vectors)
    return vectors


def vectors_of(data: cp.Labelled, cache: Path | None = None) -> np.ndarray:
    """The passages' E7 vectors as ingest embeds a chunk (`embed`, ~2 passages a second), read from `cache` when
    it holds them, else embedded (and kept there when given)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = cache or Path(scratch) / "vectors.npy"
        vectors = np.load(path) if path.exists() else embed(data.passages, path, threads=2)
    if len(vectors) != len(data.passages):
        raise SystemExit(f"{path} holds {len(vectors)} vectors for {len(data.passages)} passages")
    return vectors


LAMBDAS = (1e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0, 10.0)  # L2 on the vector's weights (the probability's two are free)
STEPS = 300
RATE = 0.05
EPS = 1e-6


def positive_weights(y: np.ndarray) -> np.ndarray:
    """A rare type's positives weighted as the word model weights them (clause_sparse: (mean / count)^0.5 in
    [1, 20]), so that one threshold serves the types alike as it does for the shipped probabilities."""
    positives = y.sum(axis=0)
    return np.clip((positives.mean() / np.maximum(positives, 1)) ** 0.5, 1, 20).astype(np.float32)


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, EPS, 1 - EPS)
    return np.log(p / (1 - p)).astype(np.float32)


@dataclass(frozen=True, slots=True)
class Stack:
    """Per (type, lambda) column: probability = sigmoid(a * logit(p) + b + x . w), x the standardised vector."""

    mean: np.ndarray  # (dim,) the training vectors' mean ...
    scale: float  # ... and standard deviation (one for all components: the vectors are unit length)
    w: np.ndarray  # (dim, types * lambdas)
    a: np.ndarray  # (types * lambdas,)
    b: np.ndarray

    def prob(self, z: np.ndarray, x: np.ndarray) -> np.ndarray:
        """rows x types x lambdas."""
        lam = len(self.a) // z.shape[1]
        s = np.repeat(z, lam, axis=1) * self.a + self.b + ((x - self.mean) / self.scale) @ self.w
        return (1 / (1 + np.exp(-s))).reshape(len(z), z.shape[1], lam)


RESIDUAL = False  # --residual: a = 1 and b = 0 held, the vector only adds to the shipped logit


def fit(z: np.ndarray, x: np.ndarray, y: np.ndarray, weight: np.ndarray, lambdas: tuple[float, ...] = LAMBDAS,
        steps: int = STEPS, rate: float = RATE) -> Stack:
    """Every type at every lambda at once, by full-batch Adam on the mean (positive-weighted) log loss plus
    lambda / 2 |w|^2, starting from the probability alone (a = 1, b = 0, w = 0); with RESIDUAL only w moves, so
    a type the vector does not help keeps the shipped probability (and its calibration) as it is."""
    lam = len(lambdas)
    mean, scale = x.mean(axis=0), float(x.std())
    xs = ((x - mean) / scale).astype(np.float32)
    zz, yy = np.repeat(z, lam, axis=1), np.repeat(y, lam, axis=1)
    ww = 1 + yy * (np.repeat(weight, lam) - 1)
    penalty = np.tile(np.asarray(lambdas, np.float32), z.shape[1])
    params = [np.zeros((x.shape[1], zz.shape[1]), np.float32), np.ones(zz.shape[1], np.float32),
              np.zeros(zz.shape[1], np.float32)]
    moments = [(np.zeros_like(q), np.zeros_like(q)) for q in params]
    for step in range(1, steps + 1):
        w, a, b = params
        err = (1 / (1 + np.exp(-(zz * a + b + xs @ w))) - yy) * ww / len(z)
        grads = [xs.T @ err + penalty * w, (err * zz).sum(axis=0), err.sum(axis=0)]
        for q, g, (m, v) in list(zip(params, grads, moments, strict=True))[:1 if RESIDUAL else 3]:
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            q -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return Stack(mean, scale, *params)


def log_loss(p: np.ndarray, y: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Per type and lambda, the summed positive-weighted log loss (p rows x types x lambdas)."""
    p = np.clip(p, EPS, 1 - EPS)
    yy = y[:, :, None]
    return -((yy * weight[None, :, None] * np.log(p)) + (1 - yy) * np.log(1 - p)).sum(axis=0)


def chosen_lambda(z: np.ndarray, x: np.ndarray, y: np.ndarray, fold: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Per type, the lambda with the least held-out loss over `fold`'s folds, each fitted on the others."""
    loss = np.zeros((y.shape[1], len(LAMBDAS)))
    for g in np.unique(fold):
        train, test = fold != g, fold == g
        loss += log_loss(fit(z[train], x[train], y[train], weight).prob(z[test], x[test]), y[test], weight)
    return loss.argmin(axis=1)


def stacked_oof(prob: np.ndarray, x: np.ndarray, y: np.ndarray, fold: np.ndarray, log: Callable[[str], None]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold stacked probabilities (rows x types) and each outer fold's lambda index per type (C by inner
    CV on the outer fold's four training folds)."""
    z, weight = logit(prob), positive_weights(y)
    out = np.zeros_like(prob)
    picks = []
    for f in np.unique(fold):
        train, test = fold != f, fold == f
        pick = chosen_lambda(z[train], x[train], y[train], fold[train], weight)
        p = fit(z[train], x[train], y[train], weight).prob(z[test], x[test])
        out[test] = p[:, np.arange(y.shape[1]), pick]
        picks.append(pick)
        log(f"fold {f}: lambdas chosen {np.bincount(pick, minlength=len(LAMBDAS)).tolist()} (of {LAMBDAS})")
    return out, np.array(picks)


def whole_contracts(data: cp.Labelled, rows: int) -> cp.Labelled:
    """The passages of the contracts whose passages are all among the first `rows` (the vectors embedded so far),
    their spans renumbered; spans no passage holds are left out (their contract is not known)."""
    keep = rows
    if rows < len(data.passages):
        last = data.passages[rows].contract
        while keep > 0 and data.passages[keep - 1].contract == last:
            keep -= 1
    spans = [(c, place, held) for c, place, held in data.located.spans if held and max(held) < keep]
    pieces = [piece for piece in data.located.pieces if piece.passage < keep]
    return cp.Labelled(data.passages[:keep], data.left_out, data.categories, data.y[:keep], data.fold[:keep],
                       cp.Located(pieces, spans), data.piece_y[:len(pieces)])


def best_threshold(prob: np.ndarray, y: np.ndarray, goal: float = 0.65) -> float:
    """The one threshold with the most micro passage recall at precision >= goal."""
    best, at = -1.0, 0.5
    for t in np.round(np.arange(0.02, 0.9, 0.005), 3):
        tagged = prob >= t
        tp = (tagged & (y > 0)).sum()
        if tp / max(tagged.sum(), 1) >= goal and tp / max((y > 0).sum(), 1) > best:
            best, at = tp / max((y > 0).sum(), 1), float(t)
    return at


def micro(tagged: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    tp, n, lab = (tagged & (y > 0)).sum(), tagged.sum(), (y > 0).sum()
    p, r = tp / max(n, 1), tp / max(lab, 1)
    return p, r, 2 * p * r / max(p + r, 1e-9)


def passage_report(label: str, prob: np.ndarray, data: cp.Labelled, say: Callable[[str], None]) -> float:
    t = best_threshold(prob, data.y)
    tagged = prob >= t
    say(f"{label}: threshold {t}: micro P {'{:.3f} R {:.3f} F1 {:.3f}'.format(*micro(tagged, data.y))}; per fold "
        + ", ".join("{:.3f}/{:.3f}".format(*micro(tagged[data.fold == f], data.y[data.fold == f])[:2])
                    for f in range(int(data.fold.max()) + 1)))
    return t


def clause_report(label: str, prob: np.ndarray, data: cp.Labelled, say: Callable[[str], None]
                  ) -> tuple[ClauseRule, list[float]]:
    """Nested-CV clause-level recall (benchmarks/clause_rules.py's choice, parties in the first passage) with
    each outer fold's, and the rule chosen on all folds (for the contracts left out)."""
    rules = [r for r in cr.grid() if r.parties_within == 1]
    counts = cr.table(prob, data, rules)
    outer, chosen = cr.nested(counts)
    per_fold = [counts[r, f][3] / max(counts[r, f][4], 1) for f, (r, _) in enumerate(chosen)]
    margin = Counter(m for _, m in chosen).most_common(1)[0][0]
    final = rules[cr.choose(counts, range(counts.shape[1]), cr.GOAL + margin)]
    say(cr.report(f"{label}, nested CV", cr.scores(outer)) + "; per fold "
        + " ".join(f"{r:.3f}" for r in per_fold) + f"; chosen on all: {final}")
    return final, per_fold


def held_report(label: str, prob: np.ndarray, held: cp.Labelled, rule: ClauseRule, say: Callable[[str], None]
                ) -> None:
    tagged = decided(prob, held.types, rule, cr.contract_ids(held.passages))
    hit = cr.listed(tagged, cr.spans_of(held))
    p, r, _ = micro(tagged, held.y)
    say(cr.report(f"{label}, left-out 31 ({rule})", (p, r, hit.sum() / max(len(hit), 1))))


def quantile_mapped(stacked: np.ndarray, base: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`values` (stacked scores of one type) mapped onto `base`'s distribution by their rank among `stacked`."""
    rank = np.searchsorted(np.sort(stacked), values, side="right") / len(stacked)
    return np.quantile(np.sort(base), np.clip(rank, 0, 1))


def requantile(out_dir: Path, held_prob: Path, say: Callable[[str], None]) -> None:
    """A measure's stacked scores mapped, per type and test fold, onto the shipped OOF's distribution in the other
    folds (learned from their out-of-fold values only), so the one decision rule sees the shipped calibration and
    E7 only reorders a type's passages; scored as `measure` scores."""
    with (out_dir / "data.pkl").open("rb") as f:
        data, held = pickle.load(f)
    base, stacked = np.load(out_dir / "oof_base.npy"), np.load(out_dir / "oof_stacked.npy")
    out = np.zeros_like(stacked)
    for f in np.unique(data.fold):
        other, test = data.fold != f, data.fold == f
        for j in range(stacked.shape[1]):
            out[test, j] = quantile_mapped(stacked[other, j], base[other, j], stacked[test, j])
    passage_report("quantile-mapped stack", out, data, say)
    rule, _ = clause_report("quantile-mapped stack", out, data, say)
    held_stacked = np.load(out_dir / "held31_stacked.npy")
    mapped = np.stack([quantile_mapped(stacked[:, j], base[:, j], held_stacked[:, j])
                       for j in range(stacked.shape[1])], axis=1)
    held_report("quantile-mapped stack", mapped, held, rule, say)


def load_labelled(path: Path | None) -> cp.Labelled:
    if path is None:
        return cp.labelled()
    loaded = pickle.load(path.open("rb"))
    return loaded[0] if isinstance(loaded, tuple) else loaded


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    e = sub.add_parser("embed")
    e.add_argument("--data", type=Path)
    e.add_argument("--out", type=Path, required=True)
    e.add_argument("--threads", type=int, default=1)
    m = sub.add_parser("measure")
    m.add_argument("--data", type=Path)
    m.add_argument("--vectors", type=Path, required=True, help="E7 vectors of --data's passages (a prefix will do: "
                   "the contracts wholly in it are measured)")
    m.add_argument("--oof", type=Path, required=True, help="the shipped model's out-of-fold probabilities")
    m.add_argument("--held", type=Path, help="the 31 left-out contracts (a pickled Labelled)")
    m.add_argument("--held-vectors", type=Path)
    m.add_argument("--held-prob", type=Path, help="the shipped model's probabilities of the 31")
    m.add_argument("--out-dir", type=Path, required=True)
    m.add_argument("--residual", action="store_true", help="the vector only adds to the shipped logit (a=1, b=0)")
    q = sub.add_parser("requantile", help="a measure's stacked scores on the shipped calibration (`requantile`)")
    q.add_argument("--out-dir", type=Path, required=True)
    q.add_argument("--held-prob", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.step == "requantile":
        requantile(args.out_dir, args.held_prob, lambda line: print(line, flush=True))
    elif args.step == "embed":
        embed(load_labelled(args.data).passages, args.out, args.threads)
    else:
        global RESIDUAL
        RESIDUAL = args.residual
        measure(args)


def measure(args: argparse.Namespace) -> None:
    def say(line: str) -> None:
        print(line, flush=True)

    vectors = np.load(args.vectors)
    full = load_labelled(args.data)
    data = whole_contracts(full, len(vectors))
    n = len(data.passages)
    base, x = np.load(args.oof)[:n], vectors[:n]
    say(f"{n} of {len(full.passages)} passages ({len(set(p.contract for p in data.passages))} contracts, per fold "
        f"{np.bincount(data.fold).tolist()}), {len(data.located.spans)} spans held by a passage; lambdas {LAMBDAS}")
    started = time.perf_counter()
    stacked, picks = stacked_oof(base, x, data.y, data.fold, say)
    say(f"stacked out of fold in {time.perf_counter() - started:.0f} s")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    np.save(args.out_dir / "oof_stacked.npy", stacked)
    np.save(args.out_dir / "oof_base.npy", base)
    with (args.out_dir / "data.pkl").open("wb") as f:
        pickle.dump((data, load_labelled(args.held) if args.held else None), f)
    for label, prob in (("the shipped model's OOF", base), ("stacked with E7", stacked)):
        t = passage_report(label, prob, data, say)
        tagged = prob >= t
        say("   per type recall: " + ", ".join(
            f"{name} {micro(tagged[:, j], data.y[:, j])[1]:.2f}" for j, name in enumerate(data.types)))
    rules = {label: clause_report(label, prob, data, say)[0]
             for label, prob in (("shipped OOF", base), ("stacked", stacked))}
    if args.held is None:
        return
    held = load_labelled(args.held)
    weight, z = positive_weights(data.y), logit(base)
    pick = np.array([np.bincount(picks[:, j]).argmax() for j in range(data.y.shape[1])])  # the folds' most chosen
    final = fit(z, x, data.y, weight).prob(logit(np.load(args.held_prob)), np.load(args.held_vectors))
    held_stacked = final[:, np.arange(data.y.shape[1]), pick]
    np.save(args.out_dir / "held31_stacked.npy", held_stacked)
    held_report("shipped", np.load(args.held_prob), held, rules["shipped OOF"], say)
    held_report("stacked", held_stacked, held, rules["stacked"], say)


if __name__ == "__main__":
    main()
