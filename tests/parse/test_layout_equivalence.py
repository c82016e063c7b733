"""The paragraph rule was rewritten over columns of floats for speed; on any lines it must
join exactly as the original, kept here as the reference."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

from casetrack.parse.layout import GAP_RATIO, INDENT_HEIGHTS, SAME_LINE_FRACTION, PositionedLine, join_lines


def reference_join(lines: list[PositionedLine]) -> str:
    if not lines:
        return ""
    drops = [
        p.baseline - q.baseline
        for p, q in pairwise(lines)
        if SAME_LINE_FRACTION * q.height <= p.baseline - q.baseline <= 3 * max(q.height, 1.0)
    ]
    pitch = sorted(drops)[(len(drops) - 1) // 4] if drops else None
    counts = Counter(round(line.left) for line in lines)
    margin = float(max(counts.items(), key=lambda item: (item[1], -item[0]))[0])
    parts = [lines[0].text]
    for previous, line in pairwise(lines):
        height = max(previous.height, line.height, 1.0)
        drop = previous.baseline - line.baseline
        if abs(drop) < SAME_LINE_FRACTION * height:
            starts = False
        elif drop < 0 or drop > GAP_RATIO * (pitch if pitch is not None else 1.2 * height):
            starts = True
        else:
            at_margin = abs(previous.left - margin) < INDENT_HEIGHTS * height
            starts = at_margin and line.left - margin >= INDENT_HEIGHTS * height
        parts.append("\n\n" if starts else "\n")
        parts.append(line.text)
    return "".join(parts)


def test_join_lines_matches_the_reference_on_random_pages() -> None:
    rng = random.Random(20261121)
    for _ in range(3000):
        y, lines = 760.0, []
        for n in range(rng.randint(0, 40)):
            height = rng.choice([0.0, 0.5, 8.0, 10.0, 12.0, 12.0, 14.5, rng.uniform(0, 30)])
            y -= rng.choice([0.0, 1.0, 11.0, 14.0, 14.0, 14.0, 28.0, -300.0, rng.uniform(-50, 80)])
            left = rng.choice([72.0, 72.0, 72.4, 90.0, 108.0, rng.uniform(0, 500)])
            lines.append(PositionedLine(f"line {n}", left, y, height))
        assert join_lines(lines) == reference_join(lines), lines
