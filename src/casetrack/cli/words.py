"""The command line's words for the next steps that texts point to (errors and results carry them
as `Step`s; the MCP server names them as tools, the shell user needs the command to type)."""

from __future__ import annotations

from casetrack.errors import Step, Words, tool_words

# {case} is the case the command works on ("NAME" when none is known yet); step arguments fill the rest.
COMMANDS: dict[str, str] = {
    "choose_case": "Add --case NAME (casetrack cases list shows them), or create one: casetrack cases create NAME",
    "choose_again": "See every case with: casetrack cases list --status all",
    "list_cases": "See every case with: casetrack cases list --status all",
    "list_all_cases": "See every case with: casetrack cases list --status all",
    "show_hidden_cases": "see them with: casetrack cases list --status all",
    "show_archived_case": 'hidden from "casetrack cases list" (add --status archived or --status all to see it)',
    "create_case": "Create one with: casetrack cases create NAME",
    "work_in_case": 'Choose a different name, or work in it with --case "{case_name}".',
    "reopen_case": 'Reopen it with: casetrack cases reopen "{case_name}"',
    "ingest_first": 'Add some first: casetrack ingest PATH --case "{case_name}"',
    "add_files": "Add files with: casetrack ingest PATH --case {case}",
    "next_ingest": 'Next: casetrack ingest PATH --case "{case_name}"',
    "list_documents": 'See them with: casetrack docs list --case "{case_name}"',
    "replace_duplicate": "To ingest it again, remove it first: casetrack docs delete {document_id} --case {case}",
    "keep_new_version": "To keep only the new one: casetrack docs delete {document_id} --case {case} (next time, "
                        "ingest PATH --sync replaces a changed file instead of adding it).",
    "no_active_case": "(none: each command takes --case NAME)",
    "relink_document": 'To read it again, give its file on this computer: casetrack relink "{document}" PATH '
                       "--case {case}, then reindex it.",
    "rebuild_from_text": "(Its embeddings can still be rebuilt from the text already stored: reindex_document with "
                         "reparse=false.)",
}


def command_words(case_name: str | None) -> Words:
    """Steps worded as commands, for a command working on `case_name` (None: not known yet)."""
    case = f'"{case_name}"' if case_name else "NAME"

    def words(step: Step) -> str:
        template = COMMANDS.get(step.action)
        return template.format(case=case, **step.args) if template else tool_words(step)

    return words
