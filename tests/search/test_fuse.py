"""RRF against hand-computed values; display normalisation; the minimum guarantee."""

from __future__ import annotations

import pytest

from casetrack.search import fuse

WEIGHTS = {"bm25": 1.0, "e1": 1.0, "e6": 0.8, "e7": 0.6}
RANKINGS = {"bm25": ["a", "b", "c"], "e1": ["b", "d", "a"], "e6": ["c"]}
# by hand, k = 60:
#   a = 1/61 + 1/63            = 0.0322664585...
#   b = 1/62 + 1/61            = 0.0325224749...
#   c = 1/63 + 0.8/61          = 0.0289877700...
#   d = 1/62                   = 0.0161290323...
EXPECTED = [("b", 0.0325224749), ("a", 0.0322664585), ("c", 0.0289877700), ("d", 0.0161290323)]


def test_rrf_equals_hand_computed_values() -> None:
    fused = fuse.rrf(RANKINGS, WEIGHTS, k=60)
    assert [key for key, _ in fused] == [key for key, _ in EXPECTED]
    for (_, got), (_, want) in zip(fused, EXPECTED, strict=True):
        assert got == pytest.approx(want, abs=1e-9)


def test_rrf_with_k_zero_is_the_weighted_reciprocal_rank() -> None:
    fused = dict(fuse.rrf({"x": ["p", "q"], "y": ["q"]}, {"x": 2.0, "y": 0.5}, k=0))
    assert fused == {"p": pytest.approx(2.0), "q": pytest.approx(2.0 / 2 + 0.5)}


def test_rrf_ties_keep_first_seen_order_and_bad_input_is_rejected() -> None:
    assert [k for k, _ in fuse.rrf({"x": ["p", "q"], "y": ["q", "p"]}, {"x": 1.0, "y": 1.0})] == ["p", "q"]
    with pytest.raises(ValueError, match="no weight for e9"):
        fuse.rrf({"e9": ["p"]}, WEIGHTS)
    with pytest.raises(ValueError, match="twice"):
        fuse.rrf({"bm25": ["p", "p"]}, WEIGHTS)


def test_normalised_score_is_one_when_ranked_first_by_every_signal_that_ran() -> None:
    ceiling = fuse.rrf_ceiling(["bm25", "e1", "e6"], WEIGHTS)
    assert ceiling == pytest.approx(2.8 / 61)
    top = fuse.normalize(fuse.rrf({"bm25": ["z"], "e1": ["z"], "e6": ["z"]}, WEIGHTS), ceiling)
    assert top == [("z", pytest.approx(1.0))]
    scores = dict(fuse.normalize(fuse.rrf(RANKINGS, WEIGHTS), ceiling))
    assert scores["b"] == pytest.approx(0.0325224749 / (2.8 / 61))
    assert all(0.0 <= s <= 1.0 for s in scores.values())
    with pytest.raises(ValueError):
        fuse.normalize([], 0.0)


def test_ranking_from_scores_drops_nan_and_keeps_input_order_on_ties() -> None:
    assert fuse.ranking_from_scores(["a", "b", "c", "d"], [0.5, float("nan"), 0.9, 0.5]) == ["c", "a", "d"]


RESULTS = [("a", 0.9), ("b", 0.5), ("c", 0.1), ("d", 0.05), ("e", 0.01)]


@pytest.mark.parametrize(
    ("min_score", "guarantee", "expected"),
    [
        (0.15, 3, ["a", "b", "c"]),  # 2 pass, the best one below is added
        (0.95, 3, ["a", "b", "c"]),  # none pass, still 3
        (0.05, 3, ["a", "b", "c", "d"]),  # 4 pass, nothing added or cut
        (0.15, 0, ["a", "b"]),
        (0.0, 3, ["a", "b", "c", "d", "e"]),
    ],
)
def test_min_score_keeps_at_least_the_guaranteed_number(min_score: float, guarantee: int, expected: list[str]) -> None:
    assert [k for k, _ in fuse.apply_min_score(RESULTS, min_score, guarantee)] == expected


def test_min_score_cannot_invent_results_and_sorts_its_input() -> None:
    assert fuse.apply_min_score([("x", 0.01), ("y", 0.02)], 0.5, guarantee=3) == [("y", 0.02), ("x", 0.01)]
    assert fuse.apply_min_score([], 0.5) == []


FUSED = [("a", 0.9), ("b", 0.8), ("c", 0.7), ("d", 0.6), ("e", 0.5), ("f", 0.4), ("g", 0.3), ("h", 0.2)]


def test_a_passage_one_signal_ranks_first_takes_the_last_place_shown() -> None:
    """RRF outvotes one signal's first place: "g", first by meaning alone, would be 7th. Shown 4, it takes the 4th
    place; the passage it displaces is next after it, and the scores stay each passage's own."""
    out, placed = fuse.keep_firsts(FUSED, {"bm25": ["a", "b"], "e7_window": ["g", "a"]}, shown=4)
    assert placed == ["g"]
    assert out == [("a", 0.9), ("b", 0.8), ("c", 0.7), ("g", 0.3), ("d", 0.6), ("e", 0.5), ("f", 0.4), ("h", 0.2)]


def test_firsts_never_displace_the_upper_half_or_passages_placed_first() -> None:
    rankings = {"bm25": ["h"], "e7": ["g"], "e7_window": ["f"], "mail": ["e"]}
    out, placed = fuse.keep_firsts(FUSED, rankings, shown=4)
    assert [key for key, _ in out[:4]] == ["a", "b", "e", "f"] and placed == ["e", "f"]  # the best two of four
    fixed, placed = fuse.keep_firsts(FUSED, rankings, shown=4, fixed={"d"})
    assert [key for key, _ in fixed[:4]] == ["a", "b", "d", "e"] and placed == ["e"]
    alone, placed = fuse.keep_firsts(FUSED, rankings, shown=1)  # one result shown: the fused first stays
    assert alone == FUSED and placed == []


def test_firsts_already_shown_or_unknown_change_nothing() -> None:
    assert fuse.keep_firsts(FUSED, {"bm25": ["a"], "e7": ["c"]}, shown=4) == (FUSED, [])
    assert fuse.keep_firsts(FUSED, {"e7": ["zz"], "bm25": []}, shown=4) == (FUSED, [])  # not among the results


def test_a_ranking_may_keep_its_first_few_among_those_shown() -> None:
    out, placed = fuse.keep_firsts(FUSED, {"bm25": ["a"], "e7": ["h", "g", "a"]}, shown=4, depth={"e7": 2})
    assert placed == ["g", "h"] and [key for key, _ in out[:4]] == ["a", "b", "g", "h"]


def test_a_lists_firsts_are_ordered_as_that_list_alone_with_the_evidence_would() -> None:
    """eval-dev d013's shape: the meaning list ranks the answer 3rd, but the role prior lifts it by 0.13; a search by
    that list alone scores it 61/63 + 0.13, above the bare first's 61/61 + 0: it is the list's first."""
    ranking = ["x", "y", "answer", "z"]
    assert fuse.firsts_alone(ranking, {"answer": 0.13}, 1) == ["answer"]
    assert fuse.firsts_alone(ranking, {"answer": 0.13}, 3) == ["answer", "x", "y"]
    assert fuse.firsts_alone(ranking, {"answer": 0.01}, 2) == ["x", "y"]  # too small a lift to pass a place
    assert fuse.firsts_alone(ranking, {}, 2) == ["x", "y"]
    assert fuse.firsts_alone(ranking, {"x": 0.2, "y": 0.2}, 2) == ["x", "y"]  # a lift for all keeps the order
    assert fuse.firsts_alone(["a", "b"], {"b": 0.5}, 1, k=0) == ["a"]  # 1/1 against 1/2 + 0.5: a tie keeps the order


def test_ahead_puts_each_group_first_in_turn_and_keeps_every_other_order() -> None:
    out = fuse.ahead(FUSED, {"f", "c"}, ["h", "c"])
    assert [key for key, _ in out] == ["c", "f", "h", "a", "b", "d", "e", "g"] and dict(out) == dict(FUSED)
    assert fuse.ahead(FUSED) == FUSED and fuse.ahead(FUSED, ["zz"]) == FUSED


def test_a_clear_lead_needs_its_margin_over_the_second() -> None:
    assert fuse.clear_lead(["a", "b"], [3.31, 2.02], 1.3) == "a"  # 1.64 times the second
    assert fuse.clear_lead(["a", "b"], [2.5, 2.02], 1.3) is None
    assert fuse.clear_lead(["a", "b"], [3.31, 2.02], 0.0) is None  # off
    assert fuse.clear_lead(["a"], [3.31], 1.3) is None and fuse.clear_lead([], [], 1.3) is None
