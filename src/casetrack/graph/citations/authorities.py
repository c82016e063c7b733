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
from casetrack.graph.citations.eyecite_fast import eyecite, piece_tokenizer
from casetrack.graph.citations.resolution import Raw, page_marker, resolve
from casetrack.graph.citations.statutes import AuthorityKind, LawMatch, find_laws
from casetrack.graph.citations.treatment import Treatment, classify
from casetrack.graph.citations.windows import WINDOW_JOIN, anchors, name_uses, needed, pin_cite_follows, windows
from casetrack.graph.pagetext import JoinedText, join_pages, sentence_bounds, squash

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


def find_authorities(pages: Sequence[ParsedPage]) -> list[AuthorityMention]:
    """Authorities cited on `pages`, in reading order. Never raises on odd text."""
    joined = join_pages(pages)
    return authorities_in(joined)


def authorities_in(joined: JoinedText) -> list[AuthorityMention]:
    text = joined.text
    raws = _eyecite_mentions(text)
    for law in find_laws(text):
        over = [r for r in raws if law.start < r.end and r.start < law.end]
        if over and all(_cut_short(r, law) for r in over):  # "Ala. Code § 8-1A-5(a)" that eyecite read as "§ 8"
            gone = {id(r) for r in over}
            raws = [r for r in raws if id(r) not in gone]
            over = []
        if not over:
            raws.append(_from_law(law))
    raws.sort(key=lambda r: r.start)
    raws = resolve(raws, text)
    displays = _best_displays(raws)
    bare_rules = _bare_rule_sets(raws)
    out: list[AuthorityMention] = []
    for i, raw in enumerate(raws):
        if raw.key is None or page_marker(text, raw):
            continue  # a slip opinion's "Cite as: 570 U. S. ____ (2013)" or "[590 F.Supp.3d 857]" is its own
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


def _cut_short(raw: Raw, law: LawMatch) -> bool:
    """Whether eyecite's statute citation `raw` is a shorter reading of the same citation as `law`."""
    statute = raw.form == "full" and raw.kind is not AuthorityKind.CASE_LAW
    return statute and raw.start == law.start and raw.end < law.end


def _from_law(law: LawMatch) -> Raw:
    return Raw(law.start, law.end, law.key, law.key, law.kind, "full", law.pin_cite)


# --- eyecite -----------------------------------------------------------------------


def _eyecite_mentions(text: str) -> list[Raw]:
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


def _eyecite_in(text: str, windows: list[tuple[int, int]], scans: dict[Any, Any]) -> list[Raw]:
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
    out: list[Raw] = []
    for cite in eyecite().get_citations(compact, tokenizer=piece_tokenizer(compact, pieces_at, keys, scans)):
        raw = _from_eyecite(cite, to_text)
        if raw is not None:
            out.append(raw)
    return out


def _from_eyecite(cite: Any, to_text: Any) -> Raw | None:
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
        return Raw(start, end, key, _case_display(cite, key), AuthorityKind.CASE_LAW, "full", pin, cite)
    if isinstance(cite, FullLawCitation):
        key, kind, sub = _law_key(cite)
        return Raw(start, end, key, key, kind, "full", pin or sub, cite)
    if isinstance(cite, FullJournalCitation):
        key = cite.corrected_citation()
        return Raw(start, end, key, key, AuthorityKind.SECONDARY, "full", pin, cite)
    form = {ShortCaseCitation: "short", SupraCitation: "supra", IdCitation: "id", ReferenceCitation: "reference"}
    for cls, name in form.items():
        if isinstance(cite, cls):
            return Raw(start, end, None, "", AuthorityKind.CASE_LAW, name, pin, cite)
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
    if g.get("year") and "Sess." in reporter:  # "2020 N.C. Sess. Laws 2020-17": a year's session laws
        return f"{g['year']} {reporter} {section}", AuthorityKind.STATE_STATUTE, None
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
    name = _SYLLABUS_PAGES.sub("", name).strip()  # eyecite reads a syllabus's "Pp. 8-13." as a party
    paren = " ".join(p for p in (_court_abbr(m.court), m.year) if p)
    out = f"{name}, {key}" if name else key
    return f"{out} ({paren})" if paren else out


_SYLLABUS_PAGES = re.compile(r"^P{1,2}p?\.\s*\d+(?:\s*[-\u2013]\s*\d+)?\.,?\s*")


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


def _best_displays(raws: list[Raw]) -> dict[str, str]:
    """One display per key: the fullest form any full citation of it gave."""
    best: dict[str, str] = {}
    for r in raws:
        if r.key and len(r.display) > len(best.get(r.key, "")):
            best[r.key] = r.display
    return best


def _bare_rule_sets(raws: list[Raw]) -> dict[str, str]:
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
