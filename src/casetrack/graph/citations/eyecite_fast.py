"""eyecite, made fast for CaseTrack's use without changing what it finds.

authorities.py hands eyecite a compact text: windows around citation-shaped anchors joined
by blank lines. eyecite's tokenizer runs every candidate extractor's regex (one per reporter,
selected when the text holds one of its reporter strings) over that whole text. Here each
extractor runs only over the windows that hold one of its strings: a reporter extractor's
match contains its reporter string (eyecite's own prefilter relies on that), and no match
crosses the blank line between two windows (none of eyecite's extractor regexes has a
lookaround or matches a blank line), so the tokens are the ones eyecite would find.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from casetrack.graph.openings import Opening, candidate_starts, opening
from casetrack.graph.scan import finditer_at


@cache
def eyecite() -> Any:
    """Imported on first use: importing eyecite builds its tokenizer (~0.7 s)."""
    import eyecite

    _speed_up_court_lookup()
    _skip_absent_reference_names()
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


def _skip_absent_reference_names() -> None:
    """After each full case citation eyecite scans the rest of the text for its party names followed by a pin
    cite ("Qin, at *2") with a regex that opens with a word boundary, so `re` tries it at every position.
    The regex is a boundary, one of the names (escaped: matched literally), whitespace and a pin cite, so a
    match needs a name occurring after the citation with whitespace and a pin cite right after it; when no
    occurrence has them there is nothing to find (the pin-cite regex has no lookbehind, and its `$` is the
    end of the text whether or not the text is sliced at the citation)."""
    from eyecite import find
    from eyecite.models import ReferenceCitation
    from eyecite.regexes import PIN_CITE_REGEX
    from eyecite.utils import is_valid_name

    original = find.extract_pincited_reference_citations
    if getattr(original, "casetrack_fast", False):
        return
    pin_after = re.compile(r"\s+" + PIN_CITE_REGEX, re.VERBOSE)

    def pin_cited_use(name: str, text: str, start: int) -> bool:
        i = text.find(name, start)
        while i != -1:
            if pin_after.match(text, i + len(name)):
                return True
            i = text.find(name, i + 1)
        return False

    def extract_pincited_reference_citations(citation: Any, plain_text: str) -> list[Any]:
        end = citation.span()[-1]
        names = [getattr(citation.metadata, key, None) for key in ReferenceCitation.name_fields]
        if not any(n and is_valid_name(n) and pin_cited_use(n, plain_text, end) for n in names):
            return []
        return original(citation, plain_text)

    extract_pincited_reference_citations.casetrack_fast = True  # type: ignore[attr-defined]
    extract_pincited_reference_citations.original = original  # type: ignore[attr-defined]
    find.extract_pincited_reference_citations = extract_pincited_reference_citations


@cache
def _filters() -> Any:
    """eyecite's Aho-Corasick tokenizer: its extractor filters, built once (~1 s)."""
    eyecite()
    from eyecite.tokenizers import AhocorasickTokenizer

    return AhocorasickTokenizer()


_WS = re.compile(r"\s+")


@dataclass(slots=True)
class _PieceScan:
    """What eyecite's extractors find in one piece, kept so a second pass over the same window reuses it."""

    start: int  # the piece's offset in the compact text it was scanned in
    sensitive: list[Any]  # extractors whose (case-sensitive) strings the piece holds, in Aho-Corasick order
    insensitive: list[Any]
    matches: dict[int, list[re.Match[str]]]  # extractor id -> its matches opening in the piece


PieceKey = Hashable  # what identifies a piece's text and position (first/last) across compact texts


def piece_tokenizer(
    text: str, pieces: Sequence[tuple[int, int]], keys: Sequence[PieceKey], cache: dict[PieceKey, _PieceScan]
) -> Any:
    """A tokenizer for `text`, made of the (start, end) `pieces` with blank-line separators between them.
    A piece whose key is in `cache` is not scanned again; new scans are added to it."""
    eyecite()
    from eyecite.tokenizers import Tokenizer

    class PieceTokenizer(Tokenizer):
        def __init__(self) -> None:  # no extractor list: they come from the shared filters
            pass

        def extract_tokens(self, given: str) -> Iterator[Any]:  # type: ignore[override]  # any iterator will do
            if given != text:  # eyecite cleaned the text: offsets no longer fit, run it its own way
                yield from _filters().extract_tokens(given)
                return
            yield from _piece_tokens(text, pieces, keys, cache)

    return PieceTokenizer()


def _piece_tokens(
    text: str, pieces: Sequence[tuple[int, int]], keys: Sequence[PieceKey], cache: dict[PieceKey, _PieceScan]
) -> Iterator[Any]:
    """eyecite's tokens: extractors in eyecite's order (collected by identity: eyecite hashes extractors
    through their long regex reprs, a third of its time on short texts), each one's matches in text order."""
    f = _filters()
    scans: list[_PieceScan] = []
    for (lo, hi), key in zip(pieces, keys, strict=True):
        scan = cache.get(key)
        if scan is None:
            scan = cache[key] = _scan(text, lo, hi)
        scans.append(scan)
    order = {id(e): e for e in f.unfiltered_extractors}
    for scan in scans:
        order.update((id(e), e) for e in scan.sensitive)
    for scan in scans:
        order.update((id(e), e) for e in scan.insensitive)
    for key, extractor in order.items():
        for scan, (lo, _) in zip(scans, pieces, strict=True):
            for m in scan.matches.get(key, ()):
                yield extractor.get_token(m, offset=lo - scan.start)


def _scan(text: str, lo: int, hi: int) -> _PieceScan:
    """Every extractor that can match in text[lo:hi]: those without strings, and those whose strings it holds.
    An extractor whose matches can only begin before certain characters (`openings.opening`: a digit for
    `988 F.3d 8`) is tried only there; the others scan the piece."""
    f = _filters()
    piece = _WS.sub("", text[lo:hi])
    found: list[list[Any]] = []
    for automaton, folded in ((f.case_sensitive_filter, piece), (f.case_insensitive_filter, piece.lower())):
        chosen = {id(e): e for _, extractors in automaton.iter(folded) for e in extractors}
        found.append(list(chosen.values()))
    matches: dict[int, list[re.Match[str]]] = {}
    # From the separator's last character (a match may open with it as its boundary) to the end of the
    # next separator; matches opening past `hi` belong to the next piece.
    start, end = max(0, lo - 1), hi + 2
    starts: dict[Opening, list[int]] = {}
    for extractor in (*f.unfiltered_extractors, *found[0], *found[1]):
        regex = extractor.compiled_regex
        op = _opening_of(extractor)
        if op is None:
            got = [m for m in regex.finditer(text, start, end) if m.start() <= hi]
        else:
            at = starts.get(op)
            if at is None:
                at = starts[op] = candidate_starts(text, start, min(hi + 1, end), op)
            got = list(finditer_at(regex, text, at, end))
        if got:
            matches[id(extractor)] = got
    return _PieceScan(lo, found[0], found[1], matches)


_OPENINGS: dict[int, Opening | None] = {}  # id(extractor) -> its opening; eyecite's extractors live for good


def _opening_of(extractor: Any) -> Opening | None:
    try:
        return _OPENINGS[id(extractor)]
    except KeyError:
        op = _OPENINGS[id(extractor)] = opening(extractor.regex, extractor.flags)
        return op
