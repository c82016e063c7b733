"""Where a regex's matches can begin, read from the regex itself, so it is tried only there.

`re` tries a pattern at every position of the text. Most of eyecite's extractor regexes are
`(?:^|[^a-zA-Z0-9])` followed by a group that opens with a digit (`988 F.3d 8`) or a fixed
reporter name, so a match can only begin at the start of the text or just before one of a
few characters that no letter or digit precedes. `opening(regex)` computes that set of
characters from the parsed pattern (`re._parser`, the parser `re.compile` itself uses); a
pattern whose first characters it cannot bound (a negated class, a category, IGNORECASE,
a pattern that can match nothing) gets None and is scanned the ordinary way.

The set is a superset of the characters a match's group can open with, so trying the
pattern at the candidate positions alone, in order, finds every match `finditer` finds.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

BOUNDARY_PREFIX = "(?:^|[^a-zA-Z0-9])"  # how eyecite's extractor regexes open (its `nonalphanum_boundaries_re`)

try:  # private but stable across 3.11-3.13; no type stubs
    _parser: Any = importlib.import_module("re._parser")
    _c: Any = importlib.import_module("re._constants")
    _PREFIX_REPR: str | None = repr(next(iter(_parser.parse(BOUNDARY_PREFIX))))
except Exception:  # a later Python reorganised its regex parser: every pattern is scanned the ordinary way
    _parser = _c = _PREFIX_REPR = None
_MAX_RANGE = 64  # a wider class ([^...], \w) bounds nothing useful
DIGIT = "\\d"  # the one class kept whole in an opening: `\d` (Unicode decimal digits)


@dataclass(frozen=True, slots=True)
class Opening:
    """A pattern's matches begin at a character of `chars` (`after_boundary` False), or (`after_boundary` True)
    at the text's start or one character before a character of `chars` that no ASCII letter or digit precedes."""

    chars: frozenset[str]  # single characters, and DIGIT for every decimal digit
    after_boundary: bool


@cache
def opening(regex: str, flags: int = 0) -> Opening | None:
    """Where matches of `re.compile(regex, flags)` can begin, or None when that cannot be bounded."""
    if _parser is None or flags & (re.MULTILINE | re.VERBOSE):
        return None
    try:
        return _opening(regex, flags)
    except Exception:  # the private parser's shapes changed: fall back to the ordinary scan
        return None


def _opening(regex: str, flags: int) -> Opening | None:
    try:
        parsed = _parser.parse(regex, flags)
    except re.error:
        return None
    if parsed.state.flags & (re.MULTILINE | re.VERBOSE):
        return None  # (?m) moves ^; (?x) changes what the prefix means
    items = list(parsed)
    # The boundary alternation must be the first item of the top-level sequence, not of one alternative.
    after_boundary = regex.startswith(BOUNDARY_PREFIX) and len(items) >= 2 and repr(items[0]) == _PREFIX_REPR
    chars, nullable = _first(items[1:] if after_boundary else items)
    if chars is None or nullable or not chars:
        return None
    if parsed.state.flags & re.IGNORECASE and not all(_uncased(c) for c in chars):
        return None  # a letter would also open in its other cases (and a few look-alikes: K, ſ)
    return Opening(frozenset(chars), after_boundary)


def _uncased(atom: str) -> bool:
    """Whether IGNORECASE leaves `atom` alone: a digit class or a character with no case (a letter's lower
    and upper cases are letters, so no other character folds to it)."""
    return atom == DIGIT or (not atom.isalpha() and atom.lower() == atom == atom.upper())


def _first(items: Iterable[tuple[Any, Any]]) -> tuple[set[str] | None, bool]:
    """(characters a match of the sequence `items` can open with, whether it can match empty); None: unbounded."""
    out: set[str] = set()
    for op, av in items:
        chars, nullable = _item(op, av)
        if chars is None:
            return None, False
        out |= chars
        if not nullable:
            return out, False
    return out, True


def _item(op: Any, av: Any) -> tuple[set[str] | None, bool]:
    if op is _c.LITERAL:
        return {chr(av)}, False
    if op is _c.IN:
        return _class(av), False
    if op is _c.SUBPATTERN:
        _, add_flags, del_flags, sub = av
        if add_flags or del_flags:
            return None, False
        return _first(sub)
    if op is _c.ATOMIC_GROUP:
        return _first(av)
    if op is _c.BRANCH:
        out: set[str] = set()
        any_nullable = False
        for alternative in av[1]:
            chars, nullable = _first(alternative)
            if chars is None:
                return None, False
            out |= chars
            any_nullable = any_nullable or nullable
        return out, any_nullable
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        low, _, sub = av
        chars, nullable = _first(sub)
        return chars, nullable or low == 0
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return set(), True  # zero-width: what follows opens the match
    return None, False  # ANY, NOT_LITERAL, CATEGORY, GROUPREF...: unbounded


def _class(items: list[tuple[Any, Any]]) -> set[str] | None:
    out: set[str] = set()
    for op, av in items:
        if op is _c.LITERAL:
            out.add(chr(av))
        elif op is _c.RANGE and av[1] - av[0] <= _MAX_RANGE:
            out.update(chr(c) for c in range(av[0], av[1] + 1))
        elif op is _c.CATEGORY and av is _c.CATEGORY_DIGIT:
            out.add(DIGIT)  # every Unicode decimal digit: the scanner's class says `\d` too
        else:
            return None  # NEGATE, other categories (\w, \s), a wide range
    return out


def candidate_starts(text: str, lo: int, hi: int, op: Opening) -> list[int]:
    """Every position in [lo, hi) where a match with opening `op` can begin (a superset), in order."""
    if op.after_boundary:
        starts = [0] if lo == 0 else []
        scan = _scanner(op.chars, True)
        starts.extend(m.start() - 1 for m in scan.finditer(text, max(lo + 1, 1), hi + 1))
        return [s for s in starts if s < hi]
    return [m.start() for m in _scanner(op.chars, False).finditer(text, lo, hi)]


@lru_cache(maxsize=256)
def _scanner(chars: frozenset[str], after_boundary: bool) -> re.Pattern[str]:
    """A one-character pattern for `chars`, behind no ASCII letter or digit when `after_boundary`. The class comes
    first and the boundary is looked behind from after it (the character before the one matched): a pattern that
    opens with a class lets `re` skip in C to where it occurs, one that opens with a lookbehind is tried at every
    position (2x slower over a window). Lookbehinds see before `pos`, and at the text's start there is no
    character to look at, as before; DOTALL lets `.` be a newline that `chars` holds."""
    cls = "[" + "".join(c if c == DIGIT else re.escape(c) for c in sorted(chars)) + "]"
    return re.compile(cls + "(?<![a-zA-Z0-9].)", re.DOTALL) if after_boundary else re.compile(cls)
