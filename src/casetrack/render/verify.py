"""verify_draft's report (each quotation, its status, the difference, the right citation) and the table of
authorities, as text for a person and as structured content."""

from __future__ import annotations

import textwrap
from dataclasses import asdict
from typing import Any

from casetrack.render.formats import plural
from casetrack.service.verify.drafts import Verification
from casetrack.verify.authorities.toa import HEADING_ORDER, TableOfAuthorities
from casetrack.verify.model import AuthorityCheck, Cited, Place, QuoteCheck, Status

LABELS = {
    Status.VERIFIED: "VERIFIED",
    Status.WRONG_LOCATION: "WRONG LOCATION",
    Status.DIFFERS: "DIFFERS",
    Status.NOT_FOUND: "NOT FOUND",
    Status.LOCATION_UNCHECKED: "IN THE DOCUMENT, PLACE NOT CHECKED",
}
WIDTH = 100
QUOTE_CHARS = 400


def summary_counts(v: Verification) -> dict[str, int]:
    counts = {status.value: 0 for status in Status}
    for q in v.report.quotes:
        counts[q.status.value] += 1
    return counts


def verification_text(v: Verification) -> str:
    report = v.report
    counts = summary_counts(v)
    parts = [f"{LABELS[Status(s)].lower()} {n}" for s, n in counts.items() if n]
    lines = [f'Checked {plural(len(report.quotes), "quotation")} in {v.draft.name} against case "{v.case.name}"'
             + (f": {', '.join(parts)}." if parts else "."),
             "Every quotation is verified." if report.quotes and report.all_verified else
             ("No quotation in the draft cites the record." if not report.quotes else
              "Quotations not verified need your attention before filing.")]
    if report.skipped:
        lines.append(f"({plural(report.skipped, 'short quotation')} citing nothing, such as defined terms, "
                     "not checked.)")
    for n, q in enumerate(report.quotes, start=1):
        lines += ["", *_quote_lines(n, q)]
    if report.authorities:
        lines += ["", *_authority_lines(report.authorities)]
    return "\n".join(lines)


def _quote_lines(n: int, q: QuoteCheck) -> list[str]:
    where = f" (draft p. {q.draft_page}{', block quotation' if q.block else ''})" if q.draft_page else ""
    lines = [f"{n}. {LABELS[q.status]}{where}", *_wrapped(f"“{_clip(q.quote)}”", "   ")]
    if q.cited is None:
        lines.append("   Cited: nothing")
    else:
        resolved = q.cited.resolved or "not resolved in this case"
        lines.append(f"   Cited: {q.cited.text} -> {resolved}")
    if q.differences:
        lines.append("   Differences: " + "; ".join(str(d) for d in q.differences))
    if q.alterations:
        lines.append(f"   Alterations in brackets (accepted, not checked): {', '.join(q.alterations)}")
    if q.found is not None:
        label = {Status.VERIFIED: "Found at", Status.DIFFERS: "Closest passage"}.get(q.status, "The words are at")
        lines.append(f"   {label}: {q.found.citation}")
        if q.status is not Status.VERIFIED:
            lines += _wrapped(f"Source reads: “{_clip(' '.join(q.found.text.split()))}”", "   ")
    if q.note:
        lines += _wrapped(q.note, "   ")
    return lines


def _authority_lines(authorities: tuple[AuthorityCheck, ...]) -> list[str]:
    held = sum(1 for a in authorities if a.in_case)
    lines = [f"Authorities cited: {len(authorities)} ({held} in this case, {len(authorities) - held} not in this "
             "case: those cannot be checked locally)"]
    for a in authorities:
        pages = ", ".join(str(p) for p in a.draft_pages)
        if not a.in_case:
            lines.append(f"  - {a.display} (draft p. {pages}): not in this case, cannot be checked locally")
            continue
        lines.append(f"  - {a.display} (draft p. {pages}): in this case as {a.document_name}")
        for pin in a.pins:
            state = {True: "inside the opinion", False: "OUTSIDE the opinion's pages",
                     None: "not checked (the copy does not show the reporter's pages)"}[pin.inside]
            at = f", at {pin.passage.citation}" if pin.passage is not None else ""
            lines.append(f"      pin cite {pin.pin}: {state}{at}")
    return lines


def _wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def _clip(text: str) -> str:
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS - 1].rstrip() + "…"


# --- structured -----------------------------------------------------------------------------------------


def verification_dict(v: Verification) -> dict[str, Any]:
    report = v.report
    return {
        "case": v.case.name,
        "draft": v.draft.name,
        "draft_pages": report.draft_pages,
        "draft_pages_estimated": report.pages_estimated,
        "all_verified": report.all_verified,
        "summary": summary_counts(v),
        "quotes": [quote_dict(q) for q in report.quotes],
        "authorities": [authority_dict(a) for a in report.authorities],
        "skipped_short_quotations": report.skipped,
        "seconds": round(v.seconds, 3),
    }


def quote_dict(q: QuoteCheck) -> dict[str, Any]:
    return {
        "quote": q.quote,
        "draft_page": q.draft_page,
        "block": q.block,
        "cited": cited_dict(q.cited) if q.cited is not None else None,
        "status": q.status.value,
        "found": place_dict(q.found) if q.found is not None else None,
        "differences": [{"quote": d.quote, "source": d.source, "kind": d.kind} for d in q.differences],
        "alterations": list(q.alterations),
        "elided": q.elided,
        "ocr_noise": q.ocr_noise,
        "similarity": q.similarity,
        "note": q.note,
    }


def cited_dict(c: Cited) -> dict[str, Any]:
    out = asdict(c)
    out["pages"] = list(c.pages) if c.pages else None
    out["lines"] = list(c.lines) if c.lines else None
    return out


def place_dict(p: Place) -> dict[str, Any]:
    return asdict(p)


def authority_dict(a: AuthorityCheck) -> dict[str, Any]:
    return {
        "key": a.key, "display": a.display, "kind": a.kind, "draft_pages": list(a.draft_pages),
        "in_case": a.in_case, "document_id": a.document_id, "document_name": a.document_name,
        "passage": place_dict(a.passage) if a.passage is not None else None,
        "pins": [{"pin": p.pin, "inside": p.inside,
                  "passage": place_dict(p.passage) if p.passage is not None else None} for p in a.pins],
        "note": a.note,
    }


# --- table of authorities ---------------------------------------------------------------------------------

TOA_WIDTH = 78


def toa_text(table: TableOfAuthorities, draft_name: str, docx_path: str | None = None) -> str:
    lines = ["TABLE OF AUTHORITIES", ""]
    if not table.entries:
        return f"No cases, statutes or rules are cited in {draft_name}."
    for heading in HEADING_ORDER:
        entries = table.under(heading)
        if not entries:
            continue
        lines += [f"{heading}{'Page(s)':>{TOA_WIDTH - len(heading)}}", ""]
        for entry in entries:
            lines += _leader_lines(entry.authority, entry.pages_text)
        lines.append("")
    if table.pages_estimated:
        lines.append(f"Page numbers are estimates: {draft_name} has no fixed pages (save it as PDF for exact "
                     "page numbers).")
    if docx_path:
        lines.append(f"Written as a Word file: {docx_path}")
    return "\n".join(lines).rstrip()


def _leader_lines(authority: str, pages: str) -> list[str]:
    """The entry wrapped with a hanging indent, its last line led by dots to the page numbers."""
    room = TOA_WIDTH - len(pages) - 4
    wrapped = textwrap.wrap(authority, room, subsequent_indent="    ") or [""]
    last = wrapped[-1]
    wrapped[-1] = f"{last} {'.' * max(3, TOA_WIDTH - len(last) - len(pages) - 2)} {pages}"
    return wrapped


def toa_dict(table: TableOfAuthorities, draft_name: str, docx_path: str | None) -> dict[str, Any]:
    return {
        "draft": draft_name,
        "pages_estimated": table.pages_estimated,
        "passim_pages": table.passim_pages,
        "headings": {h: [{"authority": e.authority, "key": e.key, "pages": list(e.pages), "passim": e.passim}
                         for e in table.under(h)] for h in HEADING_ORDER if table.under(h)},
        "docx_path": docx_path,
    }
