"""The command line's words for hints written for Claude.

Service errors and the shared renderers name MCP tools ("Use reopen_case ..."), which is right
for Claude and meaningless at a shell prompt. Every CLI text passes through `for_cli`, which swaps
each such hint for the command to type. Patterns match whole hints, so a text that changes
elsewhere simply shows its original words rather than a half-translated sentence."""

from __future__ import annotations

import re

CASE = "{case}"  # filled with the case the command works on, or NAME when none is known yet

_HINTS: list[tuple[re.Pattern[str], str]] = [(re.compile(pattern, re.DOTALL), words) for pattern, words in (
    (r"No active case\. Create or switch to a case first:.*?list_cases: See all cases",
     "No case chosen. Add --case NAME (casetrack cases list shows them), or create one: casetrack cases create NAME"),
    (r'Created case "([^"]+)"(.*?)This is now your active case\.\n\nNext: Ingest documents with ingest_document\.',
     r'Created case "\1"\2Next: casetrack ingest PATH --case "\1"'),
    (r'A case named "([^"]+)" already exists \(ID: (\w+)\)\. Choose a different name, or use switch_case to work '
     r"in it\.",
     r'A case named "\1" already exists (ID: \2). Choose a different name, or work in it with --case "\1".'),
    (r'Use list_cases \(status_filter="all"\) to see every case\.|Use list_cases to see available cases\.|'
     r"Use list_cases and switch_case\.",
     "See every case with: casetrack cases list --status all"),
    (r'; use status_filter="all" to see every case\.\)', "; see them with: casetrack cases list --status all)"),
    (r"Create one with create_case\.", "Create one with: casetrack cases create NAME"),
    (r'hidden from list_cases \(use status_filter="archived" or "all" to see it\)',
     'hidden from "casetrack cases list" (add --status archived or --status all to see it)'),
    (r'Case "([^"]+)"(.*?)Use reopen_case to make it active again\.',
     r'Case "\1"\2Reopen it with: casetrack cases reopen "\1"'),
    (r'Case "([^"]+)" has no documents to search yet\. Ingest documents first with ingest_document or '
     r"ingest_folder\.",
     r'Case "\1" has no documents to search yet. Add some first: casetrack ingest PATH --case "\1"'),
    (r"Add files with ingest_document or ingest_folder\.", f"Add files with: casetrack ingest PATH --case {CASE}"),
    (r"Use list_documents to see the documents in this case\.",
     f"See them with: casetrack docs list --case {CASE}"),
    (r"\(ID: ([0-9a-f-]+)\)\. Nothing was changed\. To ingest it again, delete that document first or use "
     r"reindex_document to rebuild it\.",
     rf"(ID: \1). Nothing was changed. To ingest it again, remove it first: casetrack docs delete \1 --case {CASE}"),
    (r"\(ID: (\w+)\) was ingested from this same file before it changed, and both versions are now in the "
     r"case\. To keep only the new one, delete the old one \(delete_document\); sync_folder replaces changed "
     r"files instead of adding them\.",
     r"(ID: \1) was ingested from this same file before it changed, and both versions are now in the case. To "
     rf"keep only the new one: casetrack docs delete \1 --case {CASE} (next time, ingest PATH --sync replaces "
     "a changed file instead of adding it)."),
    (r"\btop_k must be between", "--top-k must be between"),
    (r"\(none\) - use create_case or switch_case", "(none: each command takes --case NAME)"),
)]


def for_cli(text: str, case_name: str | None = None) -> str:
    for pattern, words in _HINTS:
        text = pattern.sub(words, text)
    return text.replace(CASE, f'"{case_name}"' if case_name else "NAME")
