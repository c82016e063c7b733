"""Legal authorities cited in a document: cases (eyecite), statutes, rules, regulations.

Every mention keeps its page and exact span, a canonical key shared by every way of
writing the same authority, and the treatment its citing passage gives it. Short forms,
`supra` and `Id.` resolve across the whole document to the full citation they refer to
(eyecite's `resolve_citations` for short/supra/reference cites; `Id.` to the authority
cited just before it, which may be a statute eyecite does not know).

eyecite is slow on long texts (every candidate reporter regex scans the whole string), so
it runs only over windows around citation-shaped anchors, stitched into one text so the
order of citations, and with it resolution, is unchanged.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from casetrack.domain import ParsedPage
from casetrack.graph.citation_windows import WINDOW_JOIN, anchors, name_uses, needed, pin_cite_follows, windows
from casetrack.graph.eyecite_fast import eyecite, piece_tokenizer
from casetrack.graph.pagetext import JoinedText, join_pages, sentence_bounds, squash
from casetrack.graph.statutes import AuthorityKind, LawMatch, find_laws
from casetrack.graph.treatment import Treatment, classify

_eyecite = eyecite  # the name tests and callers have used


@dataclass(frozen=True, slots=True)
class AuthorityMention:
    key: str  # canonical: "988 F.3d 8", "42 U.S.C. § 1983", "Fed. R. Civ. P. 12(b)(6)"
    display: str  # "Alasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021)"; the key for statutes and rules
    kind: AuthorityKind
    page: int
    char_start: int  # page_text[char_start:char_end] == text
    char_end: int
    text: str
    form: str  # "full" | "short" | "supra" | "id" | "reference"
    treatment: Treatment
    pin_cite: str | None = None


@dataclass(frozen=True, slots=True)
class _Raw:
    start: int  # offsets in the joined text
    end: int
    key: str | None  # None: an Id./supra still to resolve
    display: str
    kind: AuthorityKind
    form: str
    pin_cite: str | None
    eyecite: Any = None  # the eyecite citation, for resolution


def find_authorities(pages: Sequence[ParsedPage]) -> list[AuthorityMention]:
    """Authorities cited on `pages`, in reading order. Never raises on odd text."""
    joined = join_pages(pages)
    return authorities_in(joined)


def authorities_in(joined: JoinedText) -> list[AuthorityMention]:
    text = joined.text
    raws = _eyecite_mentions(text)
    taken = [(r.start, r.end) for r in raws]
    for law in find_laws(text):
        if not any(law.start < e and s < law.end for s, e in taken):
            raws.append(_from_law(law))
    raws.sort(key=lambda r: r.start)
    raws = _resolve(raws, text)
    displays = _best_displays(raws)
    bare_rules = _bare_rule_sets(raws)
    out: list[AuthorityMention] = []
    for i, raw in enumerate(raws):
        if raw.key is None:
            continue
        key = bare_rules.get(raw.key, raw.key)
        located = joined.locate(raw.start, raw.end)
        if located is None:
            continue
        page, start, end = located
        prev_end = raws[i - 1].end if i > 0 else 0
        next_start = raws[i + 1].start if i + 1 < len(raws) else len(text)
        s, e = sentence_bounds(text, raw.start, raw.end)
        before = text[max(s, prev_end) : raw.start]
        after = text[raw.end : max(raw.end, min(e, next_start))]
        display = displays.get(key, key)
        out.append(
            AuthorityMention(key, display, raw.kind, page, start, end, text[raw.start : raw.end], raw.form,
                             classify(before, after), raw.pin_cite)
        )  # fmt: skip
    return out


def _from_law(law: LawMatch) -> _Raw:
    return _Raw(law.start, law.end, law.key, law.key, law.kind, "full", law.pin_cite)


# --- eyecite -----------------------------------------------------------------------


def _eyecite_mentions(text: str) -> list[_Raw]:
    """eyecite's citations in `text`, found in the windows around anchors that can hold one. A second pass adds
    windows around later uses of the case names the first pass found, where eyecite looks for reference citations
    ("Qin, at *2"), so the result equals eyecite over the whole text. That pass is needed only when
    one of those uses is followed by a pin cite: a name alone is no reference citation."""
    found = anchors(text)
    spans = needed(text, windows(text, found), found)
    if not spans:
        return []
    scans: dict[Any, Any] = {}  # window -> what eyecite's extractors found in it, shared by both passes
    raws = _eyecite_in(text, spans, scans)
    names = {n for r in raws if r.form == "full" for n in _party_names(r.eyecite)}
    if names:
        outside = name_uses(text, names, spans)
        if outside and pin_cite_follows(text, names, spans):
            found = sorted(found + outside)
            spans = needed(text, windows(text, found), found)
            raws = _eyecite_in(text, spans, scans)
    return raws


def _party_names(cite: Any) -> list[str]:
    from eyecite.utils import is_valid_name

    names = [getattr(cite.metadata, key, None) for key in ("plaintiff", "defendant")]
    return [n for n in names if n and is_valid_name(n)]


def _eyecite_in(text: str, windows: list[tuple[int, int]], scans: dict[Any, Any]) -> list[_Raw]:
    pieces = [text[lo:hi] for lo, hi in windows]
    compact = WINDOW_JOIN.join(pieces)
    compact_starts: list[int] = []
    offset = 0
    for piece in pieces:
        compact_starts.append(offset)
        offset += len(piece) + len(WINDOW_JOIN)

    def to_text(pos: int) -> int:
        i = bisect_right(compact_starts, pos) - 1
        return windows[i][0] + pos - compact_starts[i]

    pieces_at = [(start, start + len(piece)) for start, piece in zip(compact_starts, pieces, strict=True)]
    # A piece's text and its neighbours (none before the first, none after the last) are what its scan saw.
    keys = [(lo, hi, i == 0, i == len(windows) - 1) for i, (lo, hi) in enumerate(windows)]
    out: list[_Raw] = []
    for cite in eyecite().get_citations(compact, tokenizer=piece_tokenizer(compact, pieces_at, keys, scans)):
        raw = _from_eyecite(cite, to_text)
        if raw is not None:
            out.append(raw)
    return out


def _from_eyecite(cite: Any, to_text: Any) -> _Raw | None:
    from eyecite.models import (
        FullCaseCitation,
        FullJournalCitation,
        FullLawCitation,
        IdCitation,
        ReferenceCitation,
        ShortCaseCitation,
        SupraCitation,
    )

    cs, ce = cite.span()
    start, end = to_text(cs), to_text(ce)
    pin = cite.metadata.pin_cite
    if isinstance(cite, FullCaseCitation):
        key = cite.corrected_citation()
        return _Raw(start, end, key, _case_display(cite, key), AuthorityKind.CASE_LAW, "full", pin, cite)
    if isinstance(cite, FullLawCitation):
        key, kind, sub = _law_key(cite)
        return _Raw(start, end, key, key, kind, "full", pin or sub, cite)
    if isinstance(cite, FullJournalCitation):
        key = cite.corrected_citation()
        return _Raw(start, end, key, key, AuthorityKind.SECONDARY, "full", pin, cite)
    form = {ShortCaseCitation: "short", SupraCitation: "supra", IdCitation: "id", ReferenceCitation: "reference"}
    for cls, name in form.items():
        if isinstance(cite, cls):
            return _Raw(start, end, None, "", AuthorityKind.CASE_LAW, name, pin, cite)
    return None  # UnknownCitation: a bare "§", which the statute table handles


_FEDERAL_LAW = {"U.S.C.": "U.S.C.", "U.S.C.A.": "U.S.C.", "U.S.C.S.": "U.S.C.", "USC": "U.S.C."}


def _law_key(cite: Any) -> tuple[str, AuthorityKind, str | None]:
    g = cite.groups
    reporter = " ".join(str(g.get("reporter", "")).split())
    section = str(g.get("section") or g.get("page") or "").rstrip(".")
    title = g.get("title") or g.get("chapter") or g.get("volume")
    if reporter in _FEDERAL_LAW:
        return f"{title} U.S.C. § {section}", AuthorityKind.FEDERAL_STATUTE, None
    if reporter.replace(" ", "") in ("C.F.R.", "CFR"):
        return f"{title} C.F.R. § {section}", AuthorityKind.REGULATION, None
    if reporter in ("Stat.", "Fed. Reg."):
        kind = AuthorityKind.REGULATION if reporter == "Fed. Reg." else AuthorityKind.FEDERAL_STATUTE
        return f"{title} {reporter} {section}", kind, None
    regulation = any(w in reporter for w in ("Regs", "Admin", "Reg."))
    key = f"{title} {reporter} § {section}" if title else f"{reporter} § {section}"
    return key, AuthorityKind.REGULATION if regulation else AuthorityKind.STATE_STATUTE, None


def _case_display(cite: Any, key: str) -> str:
    m = cite.metadata
    plaintiff = squash(m.plaintiff or "")
    defendant = squash(m.defendant or "").split(",")[0].strip()
    name = f"{plaintiff} v. {defendant}" if plaintiff and defendant else defendant or plaintiff
    paren = " ".join(p for p in (_court_abbr(m.court), m.year) if p)
    out = f"{name}, {key}" if name else key
    return f"{out} ({paren})" if paren else out


def _court_abbr(court: str | None) -> str | None:
    if not court:
        return None
    if court == "scotus":
        return None
    n = court.removeprefix("ca")
    if n.isdigit():
        suffix = {"1": "st", "2": "d", "3": "d"}.get(n, "th")
        return f"{n}{suffix} Cir."
    return None


def _best_displays(raws: list[_Raw]) -> dict[str, str]:
    """One display per key: the fullest form any full citation of it gave."""
    best: dict[str, str] = {}
    for r in raws:
        if r.key and len(r.display) > len(best.get(r.key, "")):
            best[r.key] = r.display
    return best


# --- resolution --------------------------------------------------------------------


def _resolve(raws: list[_Raw], text: str) -> list[_Raw]:
    """Fill in keys of short, supra, reference and Id. citations; drop those that cannot resolve."""
    ey = eyecite()
    from eyecite.models import IdCitation

    cites = [r.eyecite for r in raws if r.eyecite is not None and not isinstance(r.eyecite, IdCitation)]
    by_cite: dict[int, _Raw] = {}
    for resource, group in ey.resolve_citations(cites).items():
        full = next((r for r in raws if r.eyecite is resource.citation), None)
        if full is None:
            continue
        for cite in group:
            by_cite[id(cite)] = full
    out: list[_Raw] = []
    for raw in raws:
        if raw.key is not None:
            out.append(raw)
            continue
        target: _Raw | None
        pin = raw.pin_cite
        if raw.form == "id":
            if pin is None and (m := _ID_PIN.match(text, raw.end)):  # eyecite misses "Id. at *8 n.9"
                pin = "at " + m["pin"]
            target = _id_antecedent(out, pin)
        else:
            target = by_cite.get(id(raw.eyecite))
        if target is None:
            if raw.form == "short":  # keep an unresolvable short cite as its own authority
                g = raw.eyecite.groups
                key = f"{g.get('volume')} {raw.eyecite.corrected_reporter()} at {g.get('page')}"
                out.append(_Raw(raw.start, raw.end, key, key, raw.kind, raw.form, raw.pin_cite, raw.eyecite))
            continue
        out.append(_Raw(raw.start, raw.end, target.key, target.display, target.kind, raw.form, pin))
    return out


_STAR_PAGED = re.compile(r"\b(?:WL|LEXIS)\b")
_ID_PIN = re.compile(r"\s+at\s+(?P<pin>[*¶]?\s?\d+(?:\s?[-–]\s?\*?\d+)?(?:\s+n\.\s?\d+)?)")


def _id_antecedent(resolved: list[_Raw], pin: str | None) -> _Raw | None:
    """`Id.` means the authority cited just before it, whatever its kind.

    One repair for loose writing: a star-page pin (`Id. at *4`) can only point into a
    WL/LEXIS citation, so when the citation just before is printed-reporter case law the
    most recent star-paged case is meant instead (a 28(j) letter citing a case inside its
    discussion of another).
    """
    if not resolved:
        return None
    prev = resolved[-1]
    star_pin = bool(pin) and pin.removeprefix("at ").startswith("*")  # type: ignore[union-attr]
    if star_pin and prev.kind is AuthorityKind.CASE_LAW and not _STAR_PAGED.search(prev.key or ""):
        return next((r for r in reversed(resolved) if r.key and _STAR_PAGED.search(r.key)), prev)
    return prev


def _bare_rule_sets(raws: list[_Raw]) -> dict[str, str]:
    """A bare `Rule 56` means the one rule set the document names in full (`Fed. R. Civ. P. 12`), if only one."""
    sets = {
        r.key.rsplit(" ", 1)[0]
        for r in raws
        if r.key and r.kind is AuthorityKind.FEDERAL_RULE and r.key.startswith("Fed.")
    }
    if len(sets) != 1:
        return {}
    (rule_set,) = sets
    return {
        r.key: f"{rule_set} {r.key.removeprefix('Rule ')}"
        for r in raws
        if r.key and r.kind is AuthorityKind.FEDERAL_RULE and r.key.startswith("Rule ")
    }


__all__ = ["AuthorityKind", "AuthorityMention", "Treatment", "authorities_in", "find_authorities"]
