"""The terms a contract defines for its parties, as its preamble writes them.

A preamble names each party and then the term the contract calls it by, in forms like
`("Licensor")`, `(the "Company")`, `(referred to as "Marketing Affiliate" or "MA")`,
`(collectively, "MusclePharm" or the "Company")`, `(the producer, ..., referred to herein as the "Producer")`
or `hereinafter referred to as: "ELEPHANT TALK"`. Alternatives joined by "or" are all the party's
terms; a group term after "and" (`("Athlete" and together with Wade Enterprises, collectively "Wade")`)
is not. Offsets index the joined text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# A term: no quotation marks or line breaks inside, save an apostrophe within a word ("Reed's").
_TERM = r"(?:[^\"“”‘’'\n]|(?<=\w)['’](?=\w)){1,60}"
_OPEN, _CLOSE = "[\"“‘']", "[\"”’']"
DEFINED = re.compile(
    # (words, the "Term" or the "Other Term") -- the words before the term say nothing about it
    rf"\((?:[^()\"“”‘’']|(?<=\w)['’](?=\w)){{0,200}}?{_OPEN}(?P<term>{_TERM}){_CLOSE}"
    rf"(?P<more>(?:\s*,?\s*or\s+(?:the\s+)?{_OPEN}{_TERM}{_CLOSE})*)\s*(?:\)|[,;]|\s(?:and|or)\b)"
    rf"|hereinafter(?:\s+(?:referred\s+to|called|known)\s+as)?[,:]?\s+(?:the\s+)?{_OPEN}(?P<term2>{_TERM}){_CLOSE}",
    re.IGNORECASE,
)
_ALTERNATIVE = re.compile(rf"{_OPEN}(?P<term>{_TERM}){_CLOSE}")
# The agreement itself, its dates and "each a Party" are defined in the same breath as the parties, and name
# no one party.
_NAMES_NO_PARTY = re.compile(r"(?:^|\s)(?:agreement|addendum|amendment|date)$|^part(?:y|ies)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DefinedTerm:
    start: int  # of the definition: its "(" or "hereinafter"
    end: int
    terms: tuple[tuple[str, int], ...]  # (term, offset of the term), the first one first


def defined_terms(text: str, lo: int, hi: int) -> Iterator[DefinedTerm]:
    """The definitions in text[lo:hi] that can name a party."""
    for d in DEFINED.finditer(text, lo, hi):
        group = "term" if d["term"] else "term2"
        terms = [(d[group], d.start(group))]
        if d["more"]:
            terms += [(a["term"], d.start("more") + a.start("term")) for a in _ALTERNATIVE.finditer(d["more"])]
        cleaned = tuple(_cleaned(t, at) for t, at in terms if t.strip(",.;: "))
        if cleaned and not _NAMES_NO_PARTY.search(cleaned[0][0]):
            yield DefinedTerm(d.start(), d.end(), cleaned)


# A term may end in a corporate abbreviation, whose period is part of it: ("KI Inc.").
_KEEPS_PERIOD = re.compile(r"\s(?:Inc|Co|Corp|Ltd|L\.L\.C|L\.P|N\.V|S\.A|B\.V)\.$")
_ARTICLE = re.compile(r"^the\s+", re.IGNORECASE)  # ('the Manufacturer') is the "Manufacturer"


def _cleaned(term: str, at: int) -> tuple[str, int]:
    """The term without the punctuation and article that the quotation marks took in."""
    kept = term.rstrip(",;: ")
    if not _KEEPS_PERIOD.search(kept):
        kept = kept.rstrip(",.;: ")
    article = _ARTICLE.match(kept)
    if article and len(kept) > article.end():
        return kept[article.end() :], at + article.end()
    return kept, at
