"""Clause tagging against CUAD's expert labels: the learned classifier beside the keyword tagger it replaces.

    uv run python benchmarks/clauses.py                       # the shipped model's options, words only
    uv run python benchmarks/clauses.py --e7-cache /tmp/e7.npy  # first session's dense words + E7 vectors

5-fold cross-validation split by contract on `../shared/cuad-clauses` (benchmarks/cuad_passages.py: the
contracts of the project's labelled sets left out), at passage level: a passage is a positive for a
category when an expert span of it lies in the passage. The classifier is fitted as scripts/train_clauses.py
fits it (passages and their pieces, benchmarks/clause_sparse.py) and each passage scored as ingest scores it,
at the threshold that script chooses and at the one of best micro F1. The left-out check scores the
artefact shipped in the package, whatever recipe built it (its meta.json says). The keyword
tagger (chunk.roles, `role_hits` and the heading path, as ingest ran it before issue 34) is scored on the
same passages, each of its roles counting for the CUAD categories it stands for (KEYWORD_TO_CUAD);
categories it has no role for count as misses, and a second micro row keeps only the ones it covers.
Prints per category and micro precision, recall and F1 for both, then the shipped artefact on the 31
contracts left out of training at passage and at clause level; results in docs/benchmarks.md."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import clause_fit as cf
import clause_rules
import clause_sparse as cs
import clause_speed
import clause_vectors
import cuad_passages as cp

from casetrack.chunk.roles.clause_model import feature_matrix
from casetrack.chunk.roles.tagging import tag_passage
from casetrack.embed.clause_artefact import read_artefact
from casetrack.service.ingest.clauses import ClauseRule

# The old tagger's roles and the CUAD categories each stands for.
KEYWORD_TO_CUAD: dict[str, tuple[str, ...]] = {
    "parties": ("Parties",), "effective_date": ("Agreement Date", "Effective Date"),
    "term": ("Expiration Date", "Renewal Term", "Notice Period To Terminate Renewal"),
    "governing_law": ("Governing Law",), "most_favored_nation": ("Most Favored Nation",),
    "non_compete": ("Non-Compete",), "exclusivity": ("Exclusivity",),
    "non_solicit": ("No-Solicit Of Customers", "No-Solicit Of Employees"),
    "non_disparagement": ("Non-Disparagement",), "termination_for_convenience": ("Termination For Convenience",),
    "first_refusal": ("Rofr/Rofo/Rofn",), "change_of_control": ("Change Of Control",),
    "anti_assignment": ("Anti-Assignment",), "revenue_sharing": ("Revenue/Profit Sharing",),
    "price_restrictions": ("Price Restrictions",), "minimum_commitment": ("Minimum Commitment",),
    "volume_restriction": ("Volume Restriction",), "ip_ownership": ("Ip Ownership Assignment", "Joint Ip Ownership"),
    "license_grant": ("License Grant",),
    "license_terms": ("Non-Transferable License", "Irrevocable Or Perpetual License"),
    "source_code_escrow": ("Source Code Escrow",), "post_termination": ("Post-Termination Services",),
    "audit_rights": ("Audit Rights",), "limitation_of_liability": ("Cap On Liability", "Uncapped Liability"),
    "liquidated_damages": ("Liquidated Damages",), "warranty": ("Warranty Duration",), "insurance": ("Insurance",),
    "covenant_not_to_sue": ("Covenant Not To Sue",), "third_party_beneficiary": ("Third Party Beneficiary",),
}


def keyword_predictions(passages: list[cp.Passage], cats: list[str]) -> np.ndarray:
    out = np.zeros((len(passages), len(cats)), np.float32)
    index = {c: i for i, c in enumerate(cats)}
    for row, p in enumerate(passages):
        for role in tag_passage(p.text, p.heading):
            for cat in KEYWORD_TO_CUAD.get(role, ()):
                out[row, index[cat]] = 1.0
    return out


def per_category(pred: np.ndarray, y: np.ndarray, j: int) -> tuple[float, float, float]:
    return cf.scores(pred[:, j:j + 1], y[:, j:j + 1])


def table(cats: list[str], y: np.ndarray, model: np.ndarray, keyword: np.ndarray) -> list[str]:
    covered = [i for i, c in enumerate(cats) if any(c in v for v in KEYWORD_TO_CUAD.values())]
    lines = [f"{'category':<36} {'pos':>5} | {'classifier P':>12} {'R':>5} {'F1':>5} | {'keywords P':>10} {'R':>5} "
             f"{'F1':>5}", "-" * 96]
    for j, cat in enumerate(cats):
        m, k = per_category(model, y, j), per_category(keyword, y, j)
        lines.append(f"{cat:<36} {int(y[:, j].sum()):>5} | {m[0]:>12.2f} {m[1]:>5.2f} {m[2]:>5.2f} | "
                     f"{k[0]:>10.2f} {k[1]:>5.2f} {k[2]:>5.2f}")
    lines.append("-" * 96)
    for label, cols in (("micro, all 41", list(range(len(cats)))), (f"micro, {len(covered)} with a keyword role",
                                                                   covered)):
        m, k = cf.scores(model[:, cols], y[:, cols]), cf.scores(keyword[:, cols], y[:, cols])
        lines.append(f"{label:<36} {int(y[:, cols].sum()):>5} | {m[0]:>12.3f} {m[1]:>5.3f} {m[2]:>5.3f} | "
                     f"{k[0]:>10.3f} {k[1]:>5.3f} {k[2]:>5.3f}")
    return lines


def unseen(cats: list[str], left_out: list[str], vectors: Path | None = None) -> list[str]:
    """The shipped artefact on the contracts training left out (those of the project's labelled sets), as ingest
    tags an agreement (a contract's passages at once): passage-level micro precision, recall and F1 beside the
    keyword tagger's, and clause-level recall (a labelled span counts as listed under its type when a passage
    holding part of it is tagged with that type; a span no passage holds counts as not listed). The left-out
    passages' E7 vectors, which the artefact's decision reads as ingest's, are embedded (a minute or two) or read
    from `vectors`."""
    data = cp.labelled(only=frozenset(left_out))
    by_contract: dict[str, list[int]] = {}
    for i, p in enumerate(data.passages):
        by_contract.setdefault(p.contract, []).append(i)
    arrays, meta = read_artefact()
    held = clause_vectors.vectors_of(data, vectors) if ClauseRule.of(meta, arrays).embedder() is not None else None
    tagged = clause_rules.as_ingest_tags(data, vectors=held)  # each contract's passages at once, as ingest
    m, k = cf.scores(tagged, data.y), cf.scores(keyword_predictions(data.passages, cats), data.y)
    listed = [any(tagged[i, cats.index(c)] for i in held) for c, _, held in data.located.spans]
    weak = {c: [ok for ok, (cat, _, _) in zip(listed, data.located.spans, strict=True) if cat == c] for c in cats}
    return [f"shipped artefact on the {len(by_contract)} contracts left out of training ({len(data.passages)} "
            f"passages, {int(data.y.sum())} labelled): passage level, classifier P {m[0]:.3f} R {m[1]:.3f} "
            f"F1 {m[2]:.3f}; keywords P {k[0]:.3f} R {k[1]:.3f} F1 {k[2]:.3f}",
            f"clause level: {sum(listed)} of {len(listed)} labelled spans listed under their type "
            f"(R {sum(listed) / max(len(listed), 1):.3f})",
            "clause level by category (listed / labelled): " + ", ".join(
                f"{c} {sum(v)}/{len(v)}" for c, v in weak.items() if v)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cf.add_options(parser)
    clause_speed.add_options(parser)
    parser.add_argument("--speed-only", action="store_true", help="only the tagging speed, old scoring beside new "
                        "(benchmarks/clause_speed.py), not the cross-validation")
    parser.add_argument("--e7-cache", type=Path, help="the first session's dense model on words + E7 vectors, "
                        "embedded once and kept in this .npy (the passages scored whole: a piece has no vector)")
    parser.add_argument("--left-out-vectors", type=Path, help="the left-out contracts' passages' E7 vectors (.npy), "
                        "embedded and kept here when missing")
    args = parser.parse_args()
    if args.speed_only:
        print("\n".join(clause_speed.speed(clause_speed.documents(args.contracts), args.rounds,
                                           clause_speed.heading_paths_of(args.contracts))))
        return
    data = cp.labelled()
    print(f"{len(data.passages)} passages ({len(data.located.pieces)} pieces) of "
          f"{len({p.contract for p in data.passages})} contracts ({len(data.left_out)} left out: in the "
          "project's labelled sets)")
    started = time.perf_counter()
    if args.e7_cache:
        x = feature_matrix([p.text for p in data.passages], args.dims)
        vectors = cp.e7_vectors(data.passages, args.e7_cache)
        x = np.hstack([x, vectors / np.linalg.norm(vectors, axis=1, keepdims=True)])
        fitted = cf.fold_fits(x, data.y, data.fold, None, steps=args.steps, rate=args.rate, l2=args.l2)
        prob = np.zeros_like(data.y)
        for f, model in fitted.items():
            prob[data.fold == f] = cf.predict(model, x[data.fold == f])
        rows = {"whole passage, words + E7": (prob, cf.best_threshold(prob, data.y))}
    else:
        rows = recipe_rows(data, args.fold_cache)
    print(f"cross-validation took {time.perf_counter() - started:.0f} s")
    keyword = keyword_predictions(data.passages, data.categories)
    for label, (prob, threshold) in rows.items():
        print(f"\nclassifier scoring the {label}; threshold {threshold}\n")
        print("\n".join(table(data.categories, data.y, (prob >= threshold).astype(np.float32), keyword)))
    print("\n" + "\n".join(unseen(data.categories, data.left_out, args.left_out_vectors)))
    print("\n".join(clause_speed.speed(clause_speed.documents(args.contracts), args.rounds,
                                       clause_speed.heading_paths_of(args.contracts))))


def recipe_rows(data: cp.Labelled, cache: Path | None) -> dict[str, tuple[np.ndarray, float]]:
    """Out-of-fold probabilities of the model scripts/train_clauses.py fits (passages and their pieces,
    benchmarks/clause_sparse.py, its default options), scored as ingest scores, at the threshold that script
    chooses (the most labelled passages found at micro precision >= 0.65) and at the best micro F1."""
    options = cs.Options()
    examples = cs.Examples.of([p.text for p in data.passages], data.y,
                              [(p.passage, p.text) for p in data.located.pieces], data.piece_y, options.dims,
                              [p.heading for p in data.passages] if options.headings else None)
    prob = cs.out_of_fold(data.passages, data.fold, data.types, examples, options, cache)
    return {f"passage and its pieces (floor {options.floor}), most found at P >= 0.65": (
                prob, cs.one_threshold(prob, data.y, 0.65)),
            "passage and its pieces at the best micro F1": (prob, cf.best_threshold(prob, data.y))}


if __name__ == "__main__":
    main()
