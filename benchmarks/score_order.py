"""Do the scores a search shows descend with its order? How often not, on every labelled set, and what each way of
showing them would cost in calibration (docs/scores.md "Scores in rank order").

    uv run python benchmarks/score_calibration.py --embed-cache /tmp/e7 --rows /tmp/rows.jsonl   # collect the rows
    uv run python benchmarks/score_order.py --rows /tmp/rows.jsonl

The rows are score_calibration.py's: one per result of every search (top 10, the real service), with its place in
the list, its evidence and whether it answers. The pipeline places some passages above passages it scores higher
(cited references first, a clear keyword lead, each meaning list's first three kept among those shown), and the
calibrated score is computed from evidence, not from the place: a lower score can be shown above a higher one.

Ways of showing scores, each scored out of fold (leave one set out, as score_calibration.py):
  evidence                    the model over the evidence (cosine, coverage, fused), in rank order: shown before
  evidence + place            the same model given the place in the list (1 / rank) as a fourth piece of evidence
  made to descend             each search's scores pooled where they rise (pool adjacent violators, a run of
                              results out of order all show their mean: search.calibration.descending)
  evidence + place, descend   both: what the service shows now
Pooling keeps each run's sum of chances, so the expected number of answers among the results shown is unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score_calibration import MEANING, matrix, out_of_fold, pooled, searches

from casetrack.search.calibration import Evidence, load

Row = dict[str, object]
BEFORE = ("cosine", "coverage", "fused")  # the evidence model shipped before the place was evidence


def with_place(rows: Sequence[Row]) -> list[Row]:
    """Rows collected before `place` was evidence get it from their rank."""
    return [{**r, "place": r.get("place") or 1.0 / int(str(r["rank"]))} for r in rows]


def inversions(scores: np.ndarray, groups: Sequence[list[int]]) -> tuple[int, int]:
    """(searches showing a lower score above a higher one, results shown above a higher score)."""
    bad_searches = bad_results = 0
    for g in groups:
        s = scores[g]
        below_best = [bool(s[i] < s[i + 1:].max() - 1e-9) for i in range(len(s) - 1)]
        bad_results += sum(below_best)
        bad_searches += any(below_best)
    return bad_searches, bad_results


def quality(predicted: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    eps = 1e-9
    brier = float(np.mean((predicted - y) ** 2))
    loss = float(-np.mean(y * np.log(predicted + eps) + (1 - y) * np.log(1 - predicted + eps)))
    return brier, loss


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=Path, required=True, help="score_calibration.py's rows (JSON lines)")
    args = parser.parse_args(argv)
    rows = with_place([json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines() if line])
    y = np.array([bool(r["answers"]) for r in rows], dtype=np.float64)
    groups = searches(rows)
    model = load()
    raw = np.array([model.score(Evidence(None if r["cosine"] is None else float(str(r["cosine"])),
                                         float(str(r["coverage"])), float(str(r["fused"])), float(str(r["place"]))))
                    for r in rows])
    fused = matrix(rows, ("fused",))[:, 0]
    for title, shown in (("the shipped model's scores, in rank order", raw),
                         ("as the service shows them (made to descend)", pooled(raw, groups))):
        print(f"\nShown scores out of order: {title}; each set's own questions")
        print("| set | searches | with a lower score above a higher | results with a higher score below | of "
              "those, placed by a rule (fused out of order too) |\n|---|---|---|---|---|")
        for name in [*dict.fromkeys(str(r["set"]) for r in rows), "all"]:
            own = [g for g in groups if rows[g[0]]["own"] and name in ("all", rows[g[0]]["set"])]
            bad, results = inversions(shown, own)
            placed = sum(1 for g in own for i in range(len(g) - 1) if shown[g[i]] < shown[g[i + 1:]].max() - 1e-9
                         and fused[g[i]] < fused[g[i + 1:]].max() - 1e-9)
            print(f"| {name} | {len(own)} | {bad} ({bad / max(1, len(own)):.0%}) | {results} | {placed} |")
        print(f"every search (foreign questions too): {inversions(shown, groups)[0]} of {len(groups)} out of order")
    evidence = out_of_fold(rows, BEFORE)
    ranked = out_of_fold(rows, MEANING)
    print("\nOut of fold (leave one set out), every result of every search:")
    print("| shown | Brier | log loss | searches out of order |\n|---|---|---|---|")
    for title, scores in (("evidence", evidence), ("evidence + place", ranked),
                          ("evidence, made to descend", pooled(evidence, groups)),
                          ("evidence + place, made to descend (shipped)", pooled(ranked, groups))):
        brier, loss = quality(scores, y)
        print(f"| {title} | {brier:.4f} | {loss:.4f} | {inversions(scores, groups)[0]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
