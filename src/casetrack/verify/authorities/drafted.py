"""The authorities a draft cites, as the draft writes them.

eyecite (through graph/citations/authorities.py) finds each citation and resolves short forms, `supra` and
`Id.` to the authority they mean; its span is the reporter citation alone (`570 U.S. 297`), and its
party names are unreliable in long captions ("Fisher v. Univ. of Tex. at Austin" gives "Austin").
So the case name is read here from the words before the citation, and the court and year from the
parenthetical after it, as a table of authorities prints them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.domain import ParsedPage
from casetrack.graph.citations.authorities import AuthorityKind, AuthorityMention, find_authorities
from casetrack.graph.pagetext import join_pages

MAX_NAME_CHARS = 200
# A case name: party words joined by "v." ("Fisher v. Univ. of Tex. at Austin"), or "In re X", "Matter of X",
# "Ex parte X"; it ends with the comma before the reporter citation.
_NAME_WORD = r"(?:[A-Z0-9][\w.'\u2019&-]*|of|the|and|for|at|in|on|de|la|ex\s+rel\.|d/b/a|&)"
_CASE_NAME = re.compile(
    rf"(?:(?:In\s+re|Matter\s+of|Ex\s+parte|In\s+the\s+Matter\s+of)\s+{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,12}}"
    rf"|{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,12}}\s+v\.\s+{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,12}}),\s*$")
_SIGNAL = re.compile(r"^(?:(?:See|see|Cf\.|cf\.|But|but|also|Accord|accord|Compare|e\.g\.,|generally)[\s,]+)+")
_SHORT_NAME = re.compile(rf"(?:{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,4}}),\s*$")
_PARENTHETICAL = re.compile(r"(?:,?\s*(?:at\s+)?\*?\d+(?:\s*[-\u2013]\s*\*?\d+)?(?:\s*n\.\s*\d+)?)*\s*"
                            r"(\([^()]{0,60}?\b(?:1[6-9]|20)\d{2}\))")


@dataclass(frozen=True, slots=True)
class DraftAuthority:
    """One citation of an authority in the draft: where it begins as written (with its case name), its eyecite
    span, its page, and the mention (key, kind, form, pin cite)."""

    start: int  # in the joined draft text: the case name's start for a case, else the citation's
    end: int
    page: int
    mention: AuthorityMention
    name: str  # the case name as written ("" for statutes and rules, or when none precedes the citation)
    parenthetical: str  # "(2013)", "(M.D.N.C. 2022)", or ""


@dataclass(frozen=True, slots=True)
class CitedAuthority:
    """One authority of the draft with every citation of it (full, short, supra, Id.), in draft order."""

    key: str
    cites: tuple[DraftAuthority, ...]

    @property
    def first(self) -> DraftAuthority:
        """Its first full citation (else its first citation)."""
        return next((c for c in self.cites if c.mention.form == "full"), self.cites[0])

    @property
    def pages(self) -> tuple[int, ...]:
        return tuple(sorted({c.page for c in self.cites}))

    @property
    def display(self) -> str:
        """A case as the draft first cites it in full: its name, reporter citation and parenthetical (eyecite's
        reading where the draft's words before the citation are not a case name); a statute or rule by its key."""
        first = self.first
        mention = first.mention
        if mention.kind is not AuthorityKind.CASE_LAW:
            return mention.key
        name = first.name or next((c.name for c in self.cites if c.name and c.mention.form == "full"), "")
        eyecite_paren = re.search(r"\s(\([^()]*\))$", mention.display or "")
        text = f"{name}, {mention.key}" if name else re.sub(r"\s\([^()]*\)$", "", mention.display or mention.key)
        paren = " ".join(first.parenthetical.split()) or (eyecite_paren.group(1) if eyecite_paren else "")
        return f"{text} {paren}" if paren else text


def by_authority(authorities: Sequence[DraftAuthority]) -> list[CitedAuthority]:
    """The draft's citations grouped by the authority they cite, in the order each is first cited."""
    grouped: dict[str, list[DraftAuthority]] = {}
    for a in authorities:
        grouped.setdefault(a.mention.key, []).append(a)
    return [CitedAuthority(key, tuple(cites)) for key, cites in grouped.items()]


def draft_authorities(pages: Sequence[ParsedPage]) -> tuple[str, list[DraftAuthority]]:
    """The draft's joined text and every authority it cites, in order."""
    joined = join_pages(pages)
    text = joined.text
    page_starts = dict(zip(joined.numbers, joined.starts, strict=True))
    out = []
    for mention in find_authorities(pages):
        start = page_starts[mention.page] + mention.char_start
        end = page_starts[mention.page] + mention.char_end
        name, name_start = "", start
        if mention.kind is AuthorityKind.CASE_LAW and mention.form in ("full", "short"):
            name, name_start = case_name_before(text, start, full=mention.form == "full")
        paren = _PARENTHETICAL.match(text, end) if mention.form == "full" else None
        out.append(DraftAuthority(name_start, end, mention.page, mention, name, paren.group(1) if paren else ""))
    return text, out


def case_name_before(text: str, start: int, full: bool = True) -> tuple[str, int]:
    """The case name written just before a reporter citation at `start`, and where it begins ("", start: none)."""
    lo = max(0, start - MAX_NAME_CHARS)
    before = text[lo:start]
    cut = max(before.rfind(c) for c in ";()\u201c\u201d\"")  # a name never spans these
    sentence = re.search(r"[.!?]\s+(?=[A-Z])(?![^.]*\bv\.)", before)
    if sentence and not full:
        cut = max(cut, sentence.end() - 1)
    before = " ".join(before[cut + 1:].split()) if cut >= 0 else " ".join(before.split())
    m = (_CASE_NAME if full else _SHORT_NAME).search(before)
    if not m:
        return "", start
    name = _SIGNAL.sub("", m.group().rstrip(", ").strip())
    at = text.rfind(name.split()[0], lo, start) if name else -1
    return name, at if at >= 0 else start


def case_name_words(name: str) -> list[str]:
    """The words of a case name that name its parties, for finding the opinion in the case."""
    words = re.findall(r"[A-Za-z][a-z]{2,}", name)
    return [w.lower() for w in words if w.lower() not in {"inc", "corp", "the", "and", "for", "univ", "matter",
                                                          "ex", "parte", "re", "llc", "ltd", "co"}]
