"""Short forms, `supra` and `Id.` resolved to the full citation they refer to.

eyecite's `resolve_citations` resolves short, supra and reference citations; `Id.` is resolved
here, to the authority cited just before it, which may be a statute eyecite does not know, or
to nothing when a record citation (`Compl. ¶ 9`, `Doc. 208`, `Tr. of Oral Arg.`) came between:
then `Id.` means that record, not an authority.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from casetrack.graph.citations.eyecite_fast import eyecite
from casetrack.graph.citations.statutes import AuthorityKind


@dataclass(frozen=True, slots=True)
class Raw:
    start: int  # offsets in the joined text
    end: int
    key: str | None  # None: an Id./supra still to resolve
    display: str
    kind: AuthorityKind
    form: str
    pin_cite: str | None
    eyecite: Any = None  # the eyecite citation, for resolution


def resolve(raws: list[Raw], text: str) -> list[Raw]:
    """Fill in keys of short, supra, reference and Id. citations; drop those that cannot resolve."""
    ey = eyecite()
    from eyecite.models import IdCitation

    cites = [r.eyecite for r in raws if r.eyecite is not None and not isinstance(r.eyecite, IdCitation)]
    by_cite: dict[int, Raw] = {}
    for resource, group in ey.resolve_citations(cites).items():
        full = next((r for r in raws if r.eyecite is resource.citation), None)
        if full is None:
            continue
        for cite in group:
            by_cite[id(cite)] = full
    out: list[Raw] = []
    for raw in raws:
        if raw.key is not None:
            out.append(raw)
            continue
        target: Raw | None
        pin = raw.pin_cite
        if raw.form == "id":
            if pin is None and (m := _ID_PIN.match(text, raw.end)):  # eyecite misses "Id. at *8 n.9"
                pin = "at " + m["pin"]
            target = _id_antecedent(out, pin, text, raw.start)
            if target is not None and (section := _ID_SECTION.match(text, raw.end)):
                target = _other_section(target, section)
        elif raw.form == "short":
            target = _by_page(out, raw) or by_cite.get(id(raw.eyecite))
        else:
            target = by_cite.get(id(raw.eyecite))
        if target is None:
            if raw.form == "short":  # keep an unresolvable short cite as its own authority
                g = raw.eyecite.groups
                key = f"{g.get('volume')} {raw.eyecite.corrected_reporter()} at {g.get('page')}"
                out.append(Raw(raw.start, raw.end, key, key, raw.kind, raw.form, raw.pin_cite, raw.eyecite))
            continue
        out.append(Raw(raw.start, raw.end, target.key, target.display, target.kind, raw.form, pin))
    return out


# "Id. § 163-278": the code just cited, another section of it.
_ID_SECTION = re.compile(r"\s*§§?\s*(?P<sec>\d+[A-Za-z]?(?:[-–.:]\d+[A-Za-z]?)*)(?![\w.]\w)")
_CODES = (AuthorityKind.FEDERAL_STATUTE, AuthorityKind.STATE_STATUTE, AuthorityKind.REGULATION)
_STAR_PAGED = re.compile(r"\b(?:WL|LEXIS)\b")
_ID_PIN = re.compile(r"\s+at\s+(?P<pin>[*¶]?\s?\d+(?:\s?[-–]\s?\*?\d+)?(?:\s+n\.\s?\d+)?)")
# A citation to a case's record: a pleading, declaration, brief, transcript or docket entry, by its
# abbreviation ("Compl. ¶ 9", "Decl. Freeman", "Leg. Defs.’ Br.", "Tr. of Oral Arg.", "Brief for Appellees").
_RECORD_CITE = re.compile(
    r"\b(?:Compl|Decl|Aff|Dep|Tr|Br|Mem|Mot|Resp|Opp['’]n|Ex|Exh|Doc|Docs|Dkt)\.(?=[\s,)])"
    r"|\b(?:DE|ECF(?:\s+No\.)?)\s*\d|\bBrief\s+(?:for|of)\b|\bPet\.\s+for\b"
)


def _id_antecedent(resolved: list[Raw], pin: str | None, text: str, at: int) -> Raw | None:
    """`Id.` means the authority cited just before it, whatever its kind, unless the record was cited since.
    Neither a reporter's page marker (`[590 F.Supp.3d 857]`) nor an authority quoted or cited inside
    another's parenthetical (`..., 462 F. Supp. 3d at 814 (quoting Buckley, 525 U.S. at 204)`) is that.

    One repair for loose writing: a star-page pin (`Id. at *4`) can only point into a
    WL/LEXIS citation, so when the citation just before is printed-reporter case law the
    most recent star-paged case is meant instead (a 28(j) letter citing a case inside its
    discussion of another).
    """
    page = _first_number(pin)
    prev = next((r for r in reversed(resolved) if not page_marker(text, r) and not _nested(text, r, page)), None)
    if prev is None or _RECORD_CITE.search(text, prev.end, at):
        return None
    star_pin = bool(pin) and pin.removeprefix("at ").startswith("*")  # type: ignore[union-attr]
    if star_pin and prev.kind is AuthorityKind.CASE_LAW and not _STAR_PAGED.search(prev.key or ""):
        return next((r for r in reversed(resolved) if r.key and _STAR_PAGED.search(r.key)), prev)
    return prev


_NESTING = re.compile(r"\((?:quoting|citing|cited\s+in|quoted\s+in|alteration\s+in)\b[^()]*$", re.IGNORECASE)


_CITE_AS = re.compile(r"Cite\s+as:?\s*$")
_NUMBER = re.compile(r"\d+")


def page_marker(text: str, r: Raw) -> bool:
    """The document's own citation, no authority it cites: a bracketed page marker, `[590 F.Supp.3d 857]`,
    or a slip opinion's running head, `Cite as: 570 U. S. ____ (2013)`."""
    if text[r.start - 1 : r.start] == "[" and text[r.end : r.end + 1] == "]":
        return True
    return _CITE_AS.search(text, max(0, r.start - 12), r.start) is not None


def _nested(text: str, r: Raw, page: int | None) -> bool:
    """Whether `r` stands inside a `(quoting ...)` or `(citing ...)` parenthetical of another citation, where a
    following `Id.` means the outer one: unless the Id.'s page can be in `r` (`(quoting Bakke, 438 U.S. 265,
    307)); see also id., at 307`), since `r` opens at or before it."""
    if _NESTING.search(text, max(0, r.start - 200), r.start) is None:
        return False
    first = _first_number((r.key or "").rsplit(" ", 1)[-1])
    return page is None or first is None or page < first


def _first_number(s: str | None) -> int | None:
    m = _NUMBER.search(s or "")
    return int(m.group()) if m else None


def _other_section(target: Raw, m: re.Match[str]) -> Raw:
    code = target.key or ""
    if target.kind not in _CODES or "§ " not in code:
        return target
    key = f"{code[: code.rindex('§ ') + 2]}{m['sec'].replace('–', '-')}"
    return Raw(target.start, target.end, key, key, target.kind, target.form, None)


def _by_page(resolved: list[Raw], short: Raw) -> Raw | None:
    """The full citation a short form's page falls in: of those before it in its volume and reporter,
    the one opening last at or before that page (`539 U. S., at 328` is Grutter, 539 U.S. 306, not
    Gratz, 539 U.S. 244, when both are cited). None when the page says nothing."""
    g = short.eyecite.groups
    page = str(_first_number(str(g.get("page") or "")) or "")  # "303–304": the first page
    if not page:
        return None
    best: tuple[int, Raw] | None = None
    for r in resolved:
        c = r.eyecite
        if r.form != "full" or c is None or r.kind is not AuthorityKind.CASE_LAW:
            continue
        first = str(c.groups.get("page") or "")
        if (c.groups.get("volume") != g.get("volume") or not first.isdigit() or int(first) > int(page)
                or c.corrected_reporter() != short.eyecite.corrected_reporter()):  # fmt: skip
            continue
        if best is None or int(first) >= best[0]:
            best = (int(first), r)
    return best[1] if best else None
