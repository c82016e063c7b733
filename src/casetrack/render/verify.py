"""verify_draft's report (each quotation, its status, the difference, the right citation) and the table of
authorities, as text for a person."""

from __future__ import annotations

import textwrap

from casetrack.render.formats import plural
from casetrack.service.verify.drafts import Verification
from casetrack.verify.authorities.toa import HEADING_ORDER, TableOfAuthorities
from casetrack.verify.model import AuthorityCheck, QuoteCheck, Status

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
