"""The fast eyecite paths find exactly what eyecite's own do."""

from __future__ import annotations

from typing import Any

import pytest

from casetrack.graph.citations.eyecite_fast import _filters, eyecite, piece_tokenizer
from tests.graph.graph_evaldev import COURT_DOCUMENTS, pages_of

BRIEF = (
    "See Alasaad v. Mayorkas, 988 F.3d 8, 12 (1st Cir. 2021); United States v. Cano, 934 F.3d 1002 (9th Cir. 2019)."
    "\n\nId. at 14. Cf. 42 U.S.C. § 1983; Smith v. Jones, 2023 WL 1234567, at *2 (S.D.N.Y. 2023). Cano, 934 F.3d at"
    " 1010. Alasaad, supra, at 20.\n\nThe court in N. Y. S. 2d cases said 12 N.Y.S.2d 345 and 1 U. S. 1 apply."
)


def _spans(text: str, tokenizer: object) -> list[tuple[str, tuple[int, int], str]]:
    return [(type(c).__name__, c.span(), c.matched_text()) for c in eyecite().get_citations(text, tokenizer=tokenizer)]


def _pieces(text: str) -> list[tuple[int, int]]:
    """`text` cut at its blank lines, as authorities.py joins its windows."""
    out, start = [], 0
    while (i := text.find("\n\n", start)) != -1:
        out.append((start, i))
        start = i + 2
    return [*out, (start, len(text))]


@pytest.mark.parametrize("text", [BRIEF, BRIEF.replace("\n\n", " "), "1 U.S. 1", "\n\n1 U.S. 1\n\n", "no citations"])
def test_piece_tokenizer_finds_what_eyecites_tokenizer_finds(text: str) -> None:
    pieces = _pieces(text)
    keys = list(range(len(pieces)))
    assert _spans(text, piece_tokenizer(text, pieces, keys, {})) == _spans(text, _filters())


@pytest.mark.parametrize("doc", COURT_DOCUMENTS)
def test_piece_tokenizer_on_whole_court_documents(doc: str) -> None:
    text = "\n\n".join(p.text for p in pages_of(doc))
    pieces = _pieces(text)
    assert _spans(text, piece_tokenizer(text, pieces, list(range(len(pieces))), {})) == _spans(text, _filters())


def test_a_second_pass_reusing_scans_finds_the_same() -> None:
    pieces = _pieces(BRIEF)
    scans: dict[Any, Any] = {}
    keys = [(lo, hi, i == 0, i == len(pieces) - 1) for i, (lo, hi) in enumerate(pieces)]
    first = _spans(BRIEF, piece_tokenizer(BRIEF, pieces, keys, scans))
    assert scans
    assert _spans(BRIEF, piece_tokenizer(BRIEF, pieces, keys, scans)) == first


def test_reference_search_skips_only_when_no_name_follows() -> None:
    from eyecite import find

    eyecite()
    assert find.extract_pincited_reference_citations.casetrack_fast
    text = "Alasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021). Later, Alasaad at 12. And Mayorkas at 9."
    cites = eyecite().get_citations(text, tokenizer=_filters())
    full = next(c for c in cites if type(c).__name__ == "FullCaseCitation")
    fast = find.extract_pincited_reference_citations(full, text)
    slow = find.extract_pincited_reference_citations.original(full, text)
    assert [r.span() for r in fast] == [r.span() for r in slow] != []
    assert find.extract_pincited_reference_citations(full, text[: full.span()[1]] + " nothing more.") == []


@pytest.mark.parametrize(
    "after",
    [
        " Later, Alasaad at 12.",  # a pin cite after the name: found
        " Alasaad, at *3; Mayorkas at 9 n.2.",
        " Alasaad held that the search was lawful; Mayorkas agreed.",  # names, no pin cite: nothing to find
        " Alasaad\n\n12 and Mayorkas 7",  # whitespace runs before the pin cite
        " AlasaadX at 12; the Alasaad court at 12.",  # no boundary after the name: eyecite's regex decides
        " Alasaad at",  # nothing after "at"
        "",
    ],
)
def test_reference_search_shortcut_agrees_with_eyecite(after: str) -> None:
    from eyecite import find

    eyecite()
    text = "Alasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021)." + after
    cites = eyecite().get_citations(text, tokenizer=_filters())
    full = next(c for c in cites if type(c).__name__ == "FullCaseCitation")
    fast = find.extract_pincited_reference_citations(full, text)
    slow = find.extract_pincited_reference_citations.original(full, text)
    assert [(r.span(), r.metadata.pin_cite) for r in fast] == [(r.span(), r.metadata.pin_cite) for r in slow]
