"""Legal references as BM25 terms: one term per thing cited, however it is written.

"546 U. S. 481", "546 U.S. 481" and "Dolan, 546 U. S., at 489" cite one decision; "8 CFR 1003.1(d)(3)(ii)"
and "8 C.F.R. § 1003.1(d)(3)(ii)" one regulation; "Rule 12(b)(6)" and "Fed. R. Civ. P. 12(b)(6)" one rule.
The context graph already reads citations this way at ingest (graph.authorities: eyecite with its
reporter data for cases, and the statute, regulation and rule patterns of graph.statutes), resolving short
forms, "supra" and "Id." to what they cite. This module turns each of those mentions into terms
(`ref:546 u.s. 481`, `ref:8 c.f.r. § 1003.1(d)(3)`, ...) added to the BM25 terms of the chunks holding it,
and reads a query the same way, so the passage that cites what a question cites is found by that citation
rather than by how its digits and dots happen to be spaced.

Terms of a document's mention: its key, and for a subsection ("§ 552(b)(6)") every level up to the section
("§ 552(b)", "§ 552"), so a question about a section finds its subsections. A rule ("Fed. R. Civ. P.
12(b)(6)") also gives its bare number ("rule 12(b)(6)", "rule 12(b)", "rule 12"), which is how questions
and briefs often cite it. A query gives only its most specific terms. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from casetrack.domain import ChunkSpan, ExtractionMethod, ParsedPage
from casetrack.index.tokenize import tokenize

if TYPE_CHECKING:  # the graph's extraction (and eyecite) loads when a question cites something, not before
    from casetrack.graph.records import AuthorityRecord

PREFIX = "ref:"
_SPACES = re.compile(r"\s+")
_SUBSECTION = re.compile(r"\([A-Za-z0-9]{1,4}\)")
_RULE_SET = re.compile(r"^(?P<set>.*?)(?P<num>\d+(?:\.\d+)*[A-Za-z]?)(?P<sub>(?:\([A-Za-z0-9]{1,4}\))*)$")
# What a citation the graph reads looks like around its numbers: a number, a capitalised abbreviation and a number
# ("546 U. S. 481", "957 S.W.2d 213"), an abbreviation or code before a number ("KRS 117.265", "G.S. 163-230.2",
# "8 CFR 1003.1", "FRAP 12(a)"), a section sign, or a rule or code word. A question without one ("When was No.
# 24-351 argued?", "the 2023 amendment") is not read by eyecite at all: ~1-9 ms of CPU saved per search.
_ANCHOR = re.compile(
    r"\d+,?\s+[A-Z][\w.&'’ ]{0,24}?\s*\d|\b[A-Z]{2,6}\.?\s*\d|\b(?:[A-Z][a-z]{0,4}\.\s?){1,5}\s*(?:§|\d)|§"
    r"|\b(?:[Rr]ule|[Ss]ection|[Cc]ode|[Ss]tat|[Rr]eg)s?\.?\s*\d")


def term(text: str) -> str:
    """The BM25 term of one written key: "ref:" and the key lowercased, spaces single."""
    return PREFIX + _SPACES.sub(" ", text.strip().lower())


def mention_terms(key: str, kind: str, pin_cite: str | None, *, levels: bool) -> list[str]:
    """The terms of one mention (see the module docstring). `levels`: also every level above the most
    specific one (documents), or the most specific only (queries)."""
    if not key or " at " in key:  # an unresolved short form ("546 U.S. at 489") names no decision
        return []
    if kind.endswith("_rule"):
        return _rule_terms(key, levels)
    subsections = _SUBSECTION.findall(pin_cite or "") if "§" in key or kind.endswith(("statute", "regulation")) else []
    chain = [key + "".join(subsections[:n]) for n in range(len(subsections), -1, -1)]
    return [term(k) for k in (chain if levels else chain[:1])]


def _rule_terms(key: str, levels: bool) -> list[str]:
    m = _RULE_SET.match(key.strip())
    if m is None:
        return [term(key)]
    head = m["set"].strip()
    subs = _SUBSECTION.findall(m["sub"])
    numbers = [m["num"] + "".join(subs[:n]) for n in range(len(subs), -1, -1)]
    if not levels:
        return [term(f"{head} {numbers[0]}")]
    out = [term(f"{head} {n}") for n in numbers]
    if head.lower() != "rule":
        out += [term(f"rule {n}") for n in numbers]
    return out


def chunk_reference_terms(authorities: Iterable[AuthorityRecord],
                          chunks: Sequence[tuple[str, ChunkSpan]]) -> dict[str, list[str]]:
    """Chunk id -> the reference terms of the mentions it holds, from a document's authority records (its graph
    extract). A mention belongs to every chunk whose span covers its start, so both copies of an overlap hold it."""
    by_page: dict[int, list[tuple[str, ChunkSpan]]] = {}
    for chunk_id, span in chunks:
        by_page.setdefault(span.page, []).append((chunk_id, span))
    out: dict[str, list[str]] = {}
    for record in authorities:
        terms = mention_terms(record.key, record.kind, record.pin_cite, levels=True)
        start = record.char_start
        if not terms:
            continue
        for chunk_id, span in by_page.get(record.page, ()):
            if span.char_start <= start < span.char_end:
                out.setdefault(chunk_id, []).extend(terms)
    return out


@dataclass(frozen=True, slots=True)
class QueryReference:
    """One reference a question cites: its term, and the BM25 terms of how it is written (with a digit, or a
    reporter or code abbreviation), which a passage holding the same words also cites it by when the context
    graph could not read the passage's citation (one broken across lines: "841\nF.3d 623")."""

    term: str
    written: tuple[str, ...]


def query_references(query: str) -> list[QueryReference]:
    """The references a question cites, read as the context graph reads a document; [] when it cites
    nothing (a question without a digit is not even read)."""
    if not _ANCHOR.search(query):
        return []
    from casetrack.graph.citations.authorities import find_authorities  # eyecite loads on first use only

    out: dict[str, QueryReference] = {}
    for mention in find_authorities([ParsedPage(1, query, ExtractionMethod.NATIVE)]):
        written = tuple(dict.fromkeys(t for t in tokenize(mention.text) if any(c.isdigit() or c == "." for c in t)))
        for key in mention_terms(mention.key, mention.kind.value, mention.pin_cite, levels=False):
            out.setdefault(key, QueryReference(key, written))
    return list(out.values())


def query_reference_terms(query: str) -> list[str]:
    """The reference terms of a question (see `query_references`)."""
    return [ref.term for ref in query_references(query)]
