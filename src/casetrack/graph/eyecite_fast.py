"""eyecite, made fast for CaseTrack's use without changing what it finds.

authorities.py hands eyecite a compact text: windows around citation-shaped anchors joined
by blank lines. eyecite's tokenizer runs every candidate extractor's regex (one per reporter,
selected when the text holds one of its reporter strings) over that whole text. Here each
extractor runs only over the windows that hold one of its strings: a reporter extractor's
match contains its reporter string (eyecite's own prefilter relies on that), and no match
crosses the blank line between two windows, so the tokens are the ones eyecite would find.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache, lru_cache
from typing import Any


@cache
def eyecite() -> Any:
    """Imported on first use: importing eyecite builds its tokenizer (~0.7 s)."""
    import eyecite

    _speed_up_court_lookup()
    return eyecite


def _speed_up_court_lookup() -> None:
    """eyecite maps a citation's court parenthetical ("1st Cir.") to a court id by running a regex
    substitution on each of ~800 court names, per citation: ~20 ms, most of eyecite's time on a
    brief. This replaces that function with one computing the same answer from names normalised
    once, cached per parenthetical. Same loop, same order, same result; only the work moves."""
    from eyecite import helpers

    if getattr(helpers.get_court_by_paren, "casetrack_fast", False):
        return
    normalised = [(helpers.re.sub(r"[^\w]", "", c["citation_string"]).lower(), str(c["id"])) for c in helpers.courts]

    @lru_cache(maxsize=1024)
    def get_court_by_paren(paren_string: str) -> str | None:
        court_str = helpers.re.sub(r"[^\w]", "", paren_string).lower()
        court_code = None
        if court_str:
            for s, court_id in normalised:
                if s == court_str:
                    return court_id
                if s.startswith(court_str):
                    court_code = court_id
        return court_code

    get_court_by_paren.casetrack_fast = True  # type: ignore[attr-defined]
    get_court_by_paren.original = helpers.get_court_by_paren  # type: ignore[attr-defined]
    helpers.get_court_by_paren = get_court_by_paren


@cache
def _filters() -> Any:
    """eyecite's Aho-Corasick tokenizer: its extractor filters, built once (~1 s)."""
    eyecite()
    from eyecite.tokenizers import AhocorasickTokenizer

    return AhocorasickTokenizer()


_WS = re.compile(r"\s+")


def piece_tokenizer(text: str, pieces: Sequence[tuple[int, int]]) -> Any:
    """A tokenizer for `text`, made of the (start, end) `pieces` with blank-line separators between them."""
    eyecite()
    from eyecite.tokenizers import Tokenizer

    class PieceTokenizer(Tokenizer):
        def __init__(self) -> None:  # no extractor list: they come from the shared filters
            pass

        def extract_tokens(self, given: str) -> Iterator[Any]:  # type: ignore[override]  # any iterator will do
            if given != text:  # eyecite cleaned the text: offsets no longer fit, run it its own way
                yield from _filters().extract_tokens(given)
                return
            yield from _piece_tokens(text, pieces)

    return PieceTokenizer()


def _piece_tokens(text: str, pieces: Sequence[tuple[int, int]]) -> Iterator[Any]:
    """eyecite's tokens, each extractor in eyecite's order (collected by identity: eyecite hashes
    extractors through their long regex reprs, a third of its time on short texts)."""
    f = _filters()
    where: dict[int, list[int]] = {}  # extractor id -> pieces holding one of its strings, in order
    found = {id(e): e for e in f.unfiltered_extractors}
    stripped = [_WS.sub("", text[lo:hi]) for lo, hi in pieces]
    for automaton, lower in ((f.case_sensitive_filter, False), (f.case_insensitive_filter, True)):
        for i, piece in enumerate(stripped):
            for _, extractors in automaton.iter(piece.lower() if lower else piece):
                for e in extractors:
                    found[id(e)] = e
                    at = where.setdefault(id(e), [])
                    if not at or at[-1] != i:
                        at.append(i)
    for key, extractor in found.items():
        regex = extractor.compiled_regex
        if key not in where:  # no strings to look for: the whole text, as eyecite does
            for m in regex.finditer(text):
                yield extractor.get_token(m)
            continue
        for i in where[key]:
            lo, hi = pieces[i]
            # From the separator's last character (a match may open with it as its boundary) to the
            # end of the next separator (lookaheads see it); matches opening past `hi` belong to the next piece.
            for m in regex.finditer(text, max(0, lo - 1), hi + 2):
                if m.start() <= hi:
                    yield extractor.get_token(m)
