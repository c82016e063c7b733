"""Texts and structured results of the case tools (PRD 09 §2.1-2.5)."""

from __future__ import annotations

from casetrack.domain import Case
from casetrack.errors import Step, Words, tool_words
from casetrack.render.formats import date, plural, size


def created(case: Case, words: Words = tool_words) -> str:
    number = f"\nCase number: {case.case_number}" if case.case_number else ""
    return (f'Created case "{case.name}" (ID: {case.short_id}).\nType: {case.case_type.label}{number}\n'
            + words(Step("next_ingest", {"case_name": case.name})))


def case_list(cases: list[Case], active_id: str | None, status_filter: str, hidden: int,
              words: Words = tool_words) -> str:
    label = "" if status_filter == "all" else f" {status_filter}"
    if not cases:
        text = f"No{label} cases."
        text += " " + words(Step("create_case")) if status_filter in ("active", "all") else ""
    else:
        lines = [f"Cases ({len(cases)}{label}):", ""]
        for case in cases:
            current = case.id == active_id
            marker = "* " if current else "  "
            suffix = " <-- current" if current else ""
            lines.append(f"{marker}{case.name} [{case.status.value.upper()}]{suffix}")
            number = f" | No. {case.case_number}" if case.case_number else ""
            lines.append(
                f"  {case.case_type.label}{number} | {plural(case.stats.document_count, 'document')} | "
                f"{plural(case.stats.chunk_count, 'chunk')} | Created {date(case.created_at)} | ID: {case.short_id}"
            )
            lines.append("")
        text = "\n".join(lines).rstrip()
    if hidden:
        text += f'\n\n({plural(hidden, "other case")} not shown; {words(Step("show_hidden_cases"))})'
    return text


def switched(case: Case) -> str:
    text = (
        f'Switched to case "{case.name}" ({plural(case.stats.document_count, "document")}, '
        f"{plural(case.stats.chunk_count, 'chunk')})."
    )
    if not case.writable:
        text += f"\nThis case is {case.status.value}: search and browsing work; use reopen_case to add documents."
    return text


def status_changed(case: Case, previous: str | None = None, words: Words = tool_words) -> str:
    reopen = words(Step("reopen_case", {"case_name": case.name}))
    what = {
        "closed": f"closed. It is read-only now: search and browsing work, ingestion is refused. {reopen}",
        "archived": f"archived. It is read-only and {words(Step('show_archived_case'))}. {reopen}",
        "active": "active again: documents can be added and removed.",
    }[case.status.value]
    if previous == case.status.value:
        return f'Case "{case.name}" was already {case.status.value}; nothing changed.'
    return f'Case "{case.name}" is now {what}'


def deleted(case: Case) -> str:
    docs = plural(case.stats.document_count, "document")
    return f'Deleted case "{case.name}" (ID: {case.short_id}) and all {docs}. Its data folder was removed from disk.'


def info(case: Case, documents_text: str, embedders_text: str) -> str:
    number = f"\nCase number: {case.case_number}" if case.case_number else ""
    return (
        f"Case: {case.name}\nType: {case.case_type.label} | Status: {case.status.value.title()}{number}\n"
        f"Created: {date(case.created_at)} | ID: {case.id}\n\n{documents_text}\n\n"
        f"Total: {plural(case.stats.page_count, 'page')}, {plural(case.stats.chunk_count, 'chunk')}\n"
        f"Storage: {size(case.stats.storage_bytes)} (documents, embeddings and index)\n"
        f"Embedders: {embedders_text}"
    )
