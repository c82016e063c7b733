"""Candidate legal issues of one document, each located where the text raises it.

Three sources, all read from the text, never invented: clause headings that name an
issue (`12. Indemnification` -> Indemnification), pleaded counts (`COUNT I - BREACH OF
CONTRACT`), and causes of action named in the text (`breach of fiduciary duty`).
The lead aggregates them per case with document and chunk counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from casetrack.domain import ParsedPage
from casetrack.graph.concepts import CLAUSE_ISSUES, CONCEPTS, find_concepts
from casetrack.graph.pagetext import squash
from casetrack.graph.scan import lowered


class Heading(Protocol):
    """What issues need of a heading; `casetrack.chunk.StructureEntry` fits."""

    @property
    def title(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def char_start(self) -> int: ...
    @property
    def char_end(self) -> int: ...


@dataclass(frozen=True, slots=True)
class IssueMention:
    label: str  # "Indemnification", "Breach of Contract"
    source: str  # "heading" | "count" | "cause_of_action"
    page: int
    char_start: int
    char_end: int
    text: str  # the heading, count title or phrase as written


_COUNT = re.compile(
    r"^[ \t]*(?:COUNT|Count|CLAIM|Claim)\s+(?P<n>[IVXLC]+|\d+|[A-Z][a-z]+)\s*(?:[-–—:.]\s*|\n\s*)"
    r"(?:\((?:as\s+to|against)[^)\n]*\)\s*)?(?P<title>[^\n(]{3,100})",
    re.MULTILINE,
)
_COUNT_SUFFIX = re.compile(r"\s*\((?:against|as\s+to)[^)]*\)?\s*$|[.:]\s*$", re.IGNORECASE)


def find_issues(pages: Sequence[ParsedPage], headings: Sequence[Heading] = ()) -> list[IssueMention]:
    """Issues raised by `headings` (from structure) and by counts and causes of action in `pages`."""
    out = issues_from_headings(headings)
    for page in pages:
        out.extend(_counts(page))
        out.extend(_causes(page))
    return sorted(out, key=lambda i: (i.page, i.char_start))


def issues_with_causes(
    pages: Sequence[ParsedPage], headings: Sequence[Heading], causes: Sequence[IssueMention]
) -> list[IssueMention]:
    """`find_issues` with the causes of action already found (by the entity scan, in `graph.extract`)."""
    out = issues_from_headings(headings) + list(causes)
    for page in pages:
        out.extend(_counts(page))
    return sorted(out, key=lambda i: (i.page, i.char_start))


def issues_from_headings(headings: Sequence[Heading]) -> list[IssueMention]:
    out: list[IssueMention] = []
    for h in headings:
        label = issue_for_heading(h.title)
        if label:
            out.append(IssueMention(label, "heading", h.page, h.char_start, h.char_end, h.title))
    return out


# Any row at all: one search rules out the many headings that name no issue before the rows are tried in order.
_ANY_CLAUSE_ISSUE = re.compile("|".join(f"(?:{pattern.pattern})" for pattern, _ in CLAUSE_ISSUES), re.IGNORECASE)


def issue_for_heading(title: str) -> str | None:
    """The issue a clause heading names (first matching row of CLAUSE_ISSUES), or None."""
    if not _ANY_CLAUSE_ISSUE.search(title):
        return None
    for pattern, label in CLAUSE_ISSUES:
        if pattern.search(title):
            return label
    return None


_COUNT_WORDS = ("COUNT", "Count", "CLAIM", "Claim")  # every _COUNT match holds one, on the line it opens


def _counts(page: ParsedPage) -> list[IssueMention]:
    out: list[IssueMention] = []
    first = min((i for w in _COUNT_WORDS if (i := page.text.find(w)) != -1), default=-1)
    if first == -1:
        return out
    # A match opens at the start of the line holding its word, so none opens before the first word's line.
    for m in _COUNT.finditer(page.text, page.text.rfind("\n", 0, first) + 1):
        title = _COUNT_SUFFIX.sub("", squash(m["title"])).strip(" -–—")
        if not title or not any(c.isalpha() for c in title):
            continue
        label = _count_label(title)
        start = m.start("title")
        end = start + len(m["title"].rstrip())
        out.append(IssueMention(label, "count", page.number, start, end, page.text[start:end]))
    return out


_SMALL = frozenset(["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "under", "with"])


def _count_label(title: str) -> str:
    """The concept a count pleads ("BREACH OF CONTRACT" -> "Breach of Contract"), else its title in title case."""
    for concept in CONCEPTS:
        if concept.pattern.fullmatch(title.strip(" .")):
            return concept.label
    if not title.isupper():
        return title
    words = title.lower().split()
    return " ".join(w if i and w in _SMALL else w.capitalize() for i, w in enumerate(words))


def _causes(page: ParsedPage) -> list[IssueMention]:
    return [
        IssueMention(concept.label, "cause_of_action", page.number, m.start(), m.end(), m.group())
        for concept, m in find_concepts(page.text, lowered(page.text), causes_only=True)
    ]
