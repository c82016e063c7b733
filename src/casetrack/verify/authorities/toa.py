"""A brief's table of authorities: each authority once, under its heading, with the pages citing it.

Cases alphabetically by name, then statutes, rules, regulations and other authorities in the order of
their citations' keys; every page where the draft cites the authority in any form (full, short,
`supra`, `Id.`), or `passim` when it is cited on at least `passim` pages. The entry reads as the draft
first cites the authority in full (drafted.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.graph.citations.authorities import AuthorityKind
from casetrack.verify.authorities.drafted import DraftAuthority, by_authority

PASSIM_PAGES = 5
HEADINGS = {
    AuthorityKind.CASE_LAW: "Cases",
    AuthorityKind.FEDERAL_STATUTE: "Statutes",
    AuthorityKind.STATE_STATUTE: "Statutes",
    AuthorityKind.FEDERAL_RULE: "Rules",
    AuthorityKind.STATE_RULE: "Rules",
    AuthorityKind.REGULATION: "Regulations",
    AuthorityKind.SECONDARY: "Other Authorities",
}
HEADING_ORDER = ("Cases", "Statutes", "Rules", "Regulations", "Other Authorities")


@dataclass(frozen=True, slots=True)
class TableEntry:
    heading: str
    authority: str  # as the table prints it
    key: str
    pages: tuple[int, ...]
    passim: bool

    @property
    def pages_text(self) -> str:
        return "passim" if self.passim else ", ".join(str(p) for p in self.pages)


@dataclass(frozen=True, slots=True)
class TableOfAuthorities:
    entries: tuple[TableEntry, ...]
    pages_estimated: bool  # the draft's pages are estimates (a Word or text file without page breaks)
    passim_pages: int

    def under(self, heading: str) -> list[TableEntry]:
        return [e for e in self.entries if e.heading == heading]


def table_of_authorities(authorities: Sequence[DraftAuthority], pages_estimated: bool = False,
                         passim: int = PASSIM_PAGES) -> TableOfAuthorities:
    entries = []
    for cited in by_authority(authorities):
        heading = HEADINGS.get(cited.first.mention.kind, "Other Authorities")
        pages = cited.pages
        entries.append(TableEntry(heading, cited.display, cited.key, pages, len(pages) >= passim))
    entries.sort(key=lambda e: (HEADING_ORDER.index(e.heading), _sort_key(e)))
    return TableOfAuthorities(tuple(entries), pages_estimated, passim)


def _sort_key(entry: TableEntry) -> tuple[object, ...]:
    if entry.heading == "Cases":
        return (entry.authority.casefold(),)
    # Statutes and rules: by code, then numerically by title and section ("42 U.S.C. § 1983" after "28 U.S.C. § 1331").
    numbers = tuple(int(n) for n in re.findall(r"\d+", entry.key)[:3])
    code = re.sub(r"[\d§().\s-]+", " ", entry.key).strip().casefold()
    return (code, numbers, entry.key)
