"""`openings`: trying a regex only where its matches can begin finds what `finditer` finds."""

from __future__ import annotations

import random
import re

import pytest

from casetrack.graph.citations.eyecite_fast import _filters
from casetrack.graph.openings import DIGIT, Opening, candidate_starts, opening
from casetrack.graph.scan import finditer_at

PREFIX = "(?:^|[^a-zA-Z0-9])"


@pytest.mark.parametrize(
    ("regex", "flags", "want"),
    [
        (PREFIX + r"((?P<volume>[1-9]\d*) (?P<reporter>F\.3d))", 0, Opening(frozenset("123456789"), True)),
        (PREFIX + r"((?P<volume>\d{1,2}) U\.S\.)", 0, Opening(frozenset([DIGIT]), True)),
        (PREFIX + r"((?:(?P<volume>\d+) )?(?P<reporter>Blatchf\.))", 0, Opening(frozenset([DIGIT, "B"]), True)),
        (r"([_—–-]+\s(A\.2d))", re.IGNORECASE, Opening(frozenset("_—–-"), False)),  # no letter: case cannot matter
        (r"(\n)", 0, Opening(frozenset("\n"), False)),
        (PREFIX + r"((?=\d)\d+ Stat\.)", 0, Opening(frozenset([DIGIT]), True)),  # lookarounds consume nothing
    ],
)
def test_opening_of(regex: str, flags: int, want: Opening) -> None:
    assert opening(regex, flags) == want


@pytest.mark.parametrize(
    ("regex", "flags"),
    [
        (PREFIX + r"a|b", 0),  # the prefix belongs to one alternative only: `b` opens anywhere
        (PREFIX + r"(Tex\.)", re.IGNORECASE),  # t/T (and no look-alike) would open it
        (r"(?i)" + PREFIX + r"(Tex\.)", 0),
        (PREFIX + r"(Tex\.)", re.MULTILINE),  # ^ after every newline
        (r"(?:^|\s)([^\sa-zA-Z0-9]*(?P<stop_word>v|in re))", 0),  # a negated class opens it
        (r"(\S*§\S*)", 0),
        (r"\w+", 0),
        (r"a*", 0),  # matches empty everywhere
        (r"(a)?\1", 0),
    ],
)
def test_no_opening_when_it_cannot_be_bounded(regex: str, flags: int) -> None:
    assert opening(regex, flags) is None


_ALPHABET = ["1", "2", "0", "9", " ", "\n", "-", "—", "_", ".", ",", "(", "a", "x", "F", "T", "B", "N", "C", "K",
             "U.S.", "F.3d", "Tex. ", "١", "٣", "§", "K", "ſ"]  # fmt: skip


def _texts(n: int) -> list[str]:
    rng = random.Random(7)
    return ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 60))) for _ in range(n)]


def _regexes() -> list[re.Pattern[str]]:
    handmade = [
        PREFIX + r"((?P<volume>[1-9]\d*) (?P<reporter>F\.3d) ?(?P<page>\d+)?)",
        PREFIX + r"((?P<volume>\d{1,2}) U\.S\.)",
        PREFIX + r"((?:(?P<volume>\d+) )?(?P<reporter>B|T)\.?)",
        r"([_—–-]+\s?(\d))",
        r"(\n)",
        PREFIX + r"(\d)",
        PREFIX + r"(K|k)",
    ]
    extractors = _filters().unfiltered_extractors
    # sorted: the extractors are a set, whose order differs between processes (and so between xdist workers)
    return [re.compile(r) for r in handmade] + sorted((e.compiled_regex for e in extractors), key=lambda r: r.pattern)


@pytest.mark.parametrize("pattern", _regexes(), ids=lambda p: p.pattern[:40])
def test_trying_only_the_candidates_finds_every_match(pattern: re.Pattern[str]) -> None:
    op = opening(pattern.pattern, pattern.flags & ~re.UNICODE)
    assert op is not None
    for text in _texts(400):
        for lo, hi in ((0, len(text)), (3, len(text) - 2), (1, 5)):
            if lo > hi:
                continue
            want = [m.span() for m in pattern.finditer(text, lo, hi)]
            got = [m.span() for m in finditer_at(pattern, text, candidate_starts(text, lo, hi, op), hi)]
            assert got == want, (text, lo, hi)


def test_boundary_scanner_finds_what_a_leading_lookbehind_finds() -> None:
    """The after-boundary scanner (class first, boundary looked behind) matches where `(?<![a-zA-Z0-9])[...]` does."""
    rng = random.Random(23)
    alphabet = "a1Z9 \n\t.-_§٣x"
    for chars in ({"1", "2"}, {DIGIT}, {"\n", "a"}, {"§", DIGIT, "-"}, {"Z"}):
        op = Opening(frozenset(chars), True)
        cls = "[" + "".join(c if c == DIGIT else re.escape(c) for c in sorted(chars)) + "]"
        plain = re.compile("(?<![a-zA-Z0-9])" + cls)
        for _ in range(800):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
            lo = rng.randint(0, len(text))
            hi = rng.randint(lo, len(text))
            want = ([0] if lo == 0 else []) + [m.start() - 1 for m in plain.finditer(text, max(lo + 1, 1), hi + 1)]
            assert candidate_starts(text, lo, hi, op) == [s for s in want if s < hi], (chars, text, lo, hi)
