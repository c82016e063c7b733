"""The windows eyecite is spared (`citation_windows.needed`) hold no citation it would find.

Two checks. Against eyecite's own patterns: every extractor whose tokens become citations is read
(capture group 1, its token) as a Glushkov automaton, and the whitespace that can follow a digit
inside a token is followed by an uppercase letter only in the ways `_CITABLE` allows. Against
texts: on the eval-dev texts and on adversarial strings, the dropped windows hold no citation
when eyecite reads them alone, and the extract equals the one made from every window.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from casetrack.graph.citations import authorities
from casetrack.graph.citations import windows as citation_windows
from casetrack.graph.citations.windows import CITABLE_AFTER_OTHER_SPACE, anchors, needed, windows
from casetrack.graph.pagetext import join_pages
from tests.graph.graph_evaldev import all_docs, pages_of

_p: Any = pytest.importorskip("re._parser")
_c: Any = pytest.importorskip("re._constants")

WHITESPACE = [chr(c) for c in range(0x110000) if re.match(r"\s", chr(c))]
PROBES = "0123456789\u0663" + "".join(WHITESPACE) + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CATEGORIES = {"DIGIT": r"\d", "NOT_DIGIT": r"\D", "SPACE": r"\s", "NOT_SPACE": r"\S", "WORD": r"\w", "NOT_WORD": r"\W"}


class _Glushkov:
    """Positions (one per character-matching item) and which can follow which, over-approximated (bounded
    repeats as unbounded, lookarounds as empty): enough to show what can never follow what."""

    def __init__(self, items: list[Any], flags: int) -> None:
        self.admits: list[frozenset[str]] = []
        self.follow: list[set[int]] = []
        self.flags = flags
        _, self.last, _ = self._seq(items)

    def _seq(self, items: list[Any]) -> tuple[set[int], set[int], bool]:
        first: set[int] = set()
        last: set[int] = set()
        nullable = True
        for op, av in items:
            f, lst, n = self._node(op, av)
            for p in last:
                self.follow[p] |= f
            if nullable:
                first |= f
            last = (lst | last) if n else lst
            nullable = nullable and n
        return first, last, nullable

    def _node(self, op: Any, av: Any) -> tuple[set[int], set[int], bool]:
        if op in (_c.LITERAL, _c.NOT_LITERAL, _c.IN, _c.ANY, _c.CATEGORY):
            self.admits.append(frozenset(ch for ch in PROBES if self._admits(op, av, ch)))
            self.follow.append(set())
            return {len(self.admits) - 1}, {len(self.admits) - 1}, False
        if op is _c.SUBPATTERN:
            return self._seq(av[3])
        if op is _c.ATOMIC_GROUP:
            return self._seq(av)
        if op is _c.BRANCH:
            first: set[int] = set()
            last: set[int] = set()
            nullable = False
            for alternative in av[1]:
                f, lst, n = self._seq(alternative)
                first, last, nullable = first | f, last | lst, nullable or n
            return first, last, nullable
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            low, high, sub = av
            f, lst, n = self._seq(sub)
            if high is _c.MAXREPEAT or high > 1:
                for p in lst:
                    self.follow[p] |= f
            return f, lst, n or low == 0
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            return set(), set(), True
        raise AssertionError(f"unhandled regex item {op}")

    def _admits(self, op: Any, av: Any, ch: str) -> bool:
        def literal(code: int) -> bool:
            if self.flags & re.IGNORECASE:
                return ch.lower() == chr(code).lower() or ch.upper() == chr(code).upper()
            return ord(ch) == code

        def category(cat: Any) -> bool:
            return bool(re.match(_CATEGORIES[str(cat).removeprefix("CATEGORY_")], ch))

        if op is _c.LITERAL:
            return literal(av)
        if op is _c.NOT_LITERAL:
            return not literal(av)
        if op is _c.ANY:
            return ch != "\n" or bool(self.flags & re.DOTALL)
        if op is _c.CATEGORY:
            return category(av)
        negate, hit = False, False
        for o, a in av:
            if o is _c.NEGATE:
                negate = True
            elif o is _c.LITERAL:
                hit = hit or literal(a)
            elif o is _c.RANGE:
                hit = hit or any(a[0] <= ord(x) <= a[1] for x in {ch, ch.lower(), ch.upper()})
            elif o is _c.CATEGORY:
                hit = hit or category(a)
            else:
                raise AssertionError(f"unhandled class item {o}")
        return hit != negate


def _token_items(parsed: Any) -> list[Any]:
    """The items of capture group 1: eyecite's token is `m.span(1)`."""
    stack = [list(parsed)]
    while stack:
        for op, av in stack.pop():
            if op is _c.SUBPATTERN:
                if av[0] == 1:
                    return list(av[3])
                stack.append(av[3])
            elif op is _c.BRANCH:
                stack.extend(av[1])
            elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
                stack.append(av[2])
    raise AssertionError("no capture group 1")


def after_digit_and_space(regex: str, flags: int) -> tuple[set[str], bool]:
    """(uppercase letters that can follow, inside a token, a digit and whitespace other than one or two spaces;
    whether a token can end in whitespace after a digit)."""
    parsed = _p.parse(regex, flags)
    g = _Glushkov(_token_items(parsed), parsed.state.flags)
    digits = [i for i, a in enumerate(g.admits) if a & set("0123456789\u0663")]
    spaces = {i for i, a in enumerate(g.admits) if a & set(WHITESPACE)}
    letters: set[str] = set()
    ends = False
    todo = []  # (position, what the whitespace so far is: "1" / "2" spaces, or "other")
    for p in digits:
        for q in g.follow[p] & spaces:
            todo += [(q, "1")] if " " in g.admits[q] else []
            todo += [(q, "other")] if g.admits[q] - {" "} & set(WHITESPACE) else []
    seen = set()
    while todo:
        q, kind = todo.pop()
        if (q, kind) in seen:
            continue
        seen.add((q, kind))
        ends = ends or q in g.last
        for r in g.follow[q]:
            if r in spaces:
                space_only = g.admits[r] & set(WHITESPACE) == {" "}
                if kind == "1" and " " in g.admits[r]:
                    todo.append((r, "2"))
                if kind != "1" or not space_only:
                    todo.append((r, "other"))
            if kind == "other":
                letters |= {ch for ch in g.admits[r] if "A" <= ch <= "Z"}
    return letters, ends


@cache
def citation_extractors() -> list[Any]:
    """Every eyecite extractor whose tokens `get_citations` turns into citations."""
    from eyecite.models import CitationToken, IdToken, SectionToken, SupraToken

    from casetrack.graph.citations.eyecite_fast import _filters

    f = _filters()
    found = {id(e): e for e in f.unfiltered_extractors}
    for automaton in (f.case_sensitive_filter, f.case_insensitive_filter):
        for extractors in automaton.values():
            for e in extractors:
                found.setdefault(id(e), e)
    kinds = (CitationToken, IdToken, SectionToken, SupraToken)
    return [e for e in found.values() if getattr(e.constructor, "__self__", None) in kinds]


@pytest.mark.slow  # 20-60 s: every one of eyecite's ~6,800 extractor regexes
def test_inside_a_citation_a_digit_and_other_whitespace_come_before_none_but_the_allowed_letters() -> None:
    letters: set[str] = set()
    ending = []
    for extractor in citation_extractors():
        after, ends = after_digit_and_space(extractor.regex, extractor.flags)
        letters |= after
        if ends:
            ending.append(extractor.regex)
    assert letters <= set(CITABLE_AFTER_OTHER_SPACE)
    # Public Law "111-148 " may end in the space its optional section would follow: those tokens open with
    # "Pub" or "Public", within a window of their own number's anchor, not of one after them.
    assert ending and all("Pub" in r.split("(?P<title>")[0] for r in ending)


def test_the_automaton_sees_whitespace_after_a_digit_where_eyecite_allows_it() -> None:
    assert after_digit_and_space(r"(?:^|\W)((?P<v>\d+) (?P<r>F\.3d) (?P<p>\d+))(?:\W|$)", 0) == (set(), False)
    assert after_digit_and_space(r"(?:^|\W)((?P<v>\d+) (?P<r>La\. App\.\s*5\s*Cir\.))", 0) == ({"C"}, False)
    assert after_digit_and_space(r"((?:(?P<v>\d{1,2}) )? ?(?P<r>Taney) \d+)", 0) == (set(), False)
    assert after_digit_and_space(r"(\d+\s*[a-z]+)", re.IGNORECASE)[0] == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


ADVERSARIAL = [
    "Page 12\n\nEXHIBIT 2\n\nSmith v. Jones, 365 U.S. 167, 171 (1961).",
    "4\n\nIngram NETGEAR Distributor Agreement                     0\n\nSee 42 U.S.C. § 1983.",
    "5                       P.O. Box 5\n\nAlasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021).",
    "12\n\nJanuary 1, 2020. Id. at 5. Parratt, supra, at 530.",
    "Decided 2019-1234 (La. App. 5\nCir. 1/2/2020) and 2019-1234 (La. App. 5   Cir. 1/2/2020).",
    "Taney 5  Taney 10; 5\n\nTaney 10; Pub. L. 111-148\nSection 5; Public Law 111-148\n\nSection 5 applies.",
    "9\nSmith 5 F.3d 8; 2\n\nSmith 5 F.3d 8 (2d Cir. 1999); 100\nF.3d 200; 2023\nWL 128600; 2023 WL 128600.",
    "Section 2\n\nUnited 5 So.\n2d 10 and 5 So. 2d 10; 3 OR\n1 and 6\n\nU.S. 7 and 6\n\nCal. 8",
    "The fee is 4\n\nMonroe v. Pape, 365 U.S. 167 (1961), and later Monroe at 171.\n\n7\n\nMonroe, 365 U.S. at 180.",
]


def _texts() -> list[str]:
    evaldev = [join_pages(pages_of(doc)).text for doc in all_docs()]
    return ADVERSARIAL + evaldev


def _every_window(text: str, spans: list[tuple[int, int]], anchors: Any) -> list[tuple[int, int]]:
    return spans


def _raws(text: str) -> list[tuple[Any, ...]]:
    return [(r.start, r.end, r.key, r.display, r.kind, r.form, r.pin_cite) for r in authorities._eyecite_mentions(text)]


@pytest.mark.parametrize("text", ADVERSARIAL)
def test_dropped_windows_of_adversarial_texts_hold_no_citation_and_change_nothing(text: str) -> None:
    _check(text)


def test_dropped_windows_of_the_eval_dev_texts_hold_no_citation_and_change_nothing() -> None:
    for text in _texts()[len(ADVERSARIAL) :]:
        _check(text)


def _check(text: str) -> None:
    import eyecite
    from eyecite.models import UnknownCitation

    found = anchors(text)
    spans = windows(text, found)
    kept = needed(text, spans, found)
    for lo, hi in set(spans) - set(kept):
        cites = [c for c in eyecite.get_citations(text[lo:hi]) if not isinstance(c, UnknownCitation)]
        assert cites == [], text[lo:hi]
    new = _raws(text)
    original = citation_windows.needed
    try:
        authorities.needed = _every_window  # type: ignore[assignment]
        old = _raws(text)
    finally:
        authorities.needed = original
    assert new == old


def test_adversarial_texts_drop_the_windows_of_page_numbers_and_letterheads() -> None:
    text = "Page 12\n\nEXHIBIT 2 " + "word " * 80 + "5                       P.O. Box 5 " + "word " * 60
    found = anchors(text)
    assert len(windows(text, found)) == 2
    assert needed(text, windows(text, found), found) == []
