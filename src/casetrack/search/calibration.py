"""What a search result's score means: the chance that the passage answers the question (docs/scores.md).

The pipeline's fused score says how well the signals agree on a passage *relative to the other passages*: the
passage every list ranks first reads ~1.0 whether it answers the question or no passage does. So the score shown
is a probability learned from the labelled sets instead (benchmarks/score_calibration.py refits it), from
evidence that means the same from one question to the next:

  cosine    the passage's E7 cosine to the question: its best window's, or its vector's when that is higher
  coverage  the share of the question's terms (weighted by IDF, terms the case never uses counted too) the
            passage holds
  fused     the pipeline's fused score (0..1): how far up every list the passage stands
  place     1 / the passage's place in the pipeline's list: where the ranking, rules included, put it

`probability = 1 / (1 + exp(-(intercept + sum w_i * x_i)))`, the weights read from `score_model.json` beside
this module. When E7 is not ready the lexical model (coverage, fused and place) is used. Display only: the
ranking is the pipeline's. The scores of one search are then made to descend with its order (`descending`), so
a user never sees a lower score above a higher one; they filter (min_score: a prefix of the list) and inform.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

MODEL_FILE = Path(__file__).with_name("score_model.json")


@dataclass(frozen=True, slots=True)
class Evidence:
    """What is known of one passage against one question, each on a scale shared by every question."""

    cosine: float | None  # None: the meaning model (E7) was not ready for this search
    coverage: float
    fused: float
    # 1 / the passage's place in the list the pipeline returns (1 first, 0.5 second, ...): the rules that place a
    # passage (cited references first, a clear keyword lead, each meaning list's first three) say more than `fused`
    place: float = 1.0

    def as_dict(self) -> dict[str, float | None]:
        return {"cosine": self.cosine, "coverage": self.coverage, "fused": self.fused, "place": self.place}


@dataclass(frozen=True, slots=True)
class ScoreModel:
    """A logistic model over named evidence."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float

    def probability(self, evidence: Evidence) -> float:
        values = evidence.as_dict()
        z = self.intercept + sum(w * float(values[name] or 0.0) for name, w in zip(self.features, self.weights,
                                                                                     strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True, slots=True)
class Calibration:
    model: str  # the embedder whose cosine `cosine` is ("E7")
    meaning: ScoreModel  # with the cosine
    lexical: ScoreModel  # without it

    def score(self, evidence: Evidence) -> float:
        return (self.lexical if evidence.cosine is None else self.meaning).probability(evidence)


def _model(data: Mapping[str, object]) -> ScoreModel:
    weights = data["weights"]
    assert isinstance(weights, Mapping)
    intercept = data["intercept"]
    assert isinstance(intercept, int | float)
    return ScoreModel(tuple(str(k) for k in weights), tuple(float(v) for v in weights.values()), float(intercept))


def load(path: Path = MODEL_FILE) -> Calibration:
    """The calibration written by benchmarks/score_calibration.py."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return Calibration(str(data["model"]), _model(data["meaning"]), _model(data["lexical"]))


def idf(df: int, n: int) -> float:
    """Lucene's IDF, as BM25 weighs a term; a term no passage holds weighs most."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def coverage(weights: Sequence[float], held: Sequence[bool]) -> float:
    """The IDF-weighted share of the question's terms a passage holds (0.0 for a question without terms)."""
    total = sum(weights)
    return sum(w for w, h in zip(weights, held, strict=True) if h) / total if total > 0 else 0.0


def descending(scores: Sequence[float]) -> list[float]:
    """`scores` (a search's, in the order it shows them) made to descend with that order: each run of results
    whose scores rise where they should fall shows its mean instead (pool adjacent violators, the closest
    descending sequence in squares). A run's sum is kept, so the expected number of answers among the results is
    unchanged; a list already descending comes back as it was (benchmarks/score_order.py, docs/scores.md)."""
    blocks: list[tuple[float, int]] = []  # (sum, count) of each pooled run, top first
    for score in scores:
        total, count = float(score), 1
        while blocks and blocks[-1][0] / blocks[-1][1] < total / count:
            above_total, above_count = blocks.pop()
            total, count = total + above_total, count + above_count
        blocks.append((total, count))
    return [total / count for total, count in blocks for _ in range(count)]
