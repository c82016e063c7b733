"""CaseTrack's errors. Every message is shown to a user as-is: it says what went
wrong and what to do next. The MCP and CLI edges translate these, nothing else."""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

ISSUES_URL = "https://github.com/casetrack-legal/casetrack/issues"
UPGRADE_URL = "https://casetrack.legal/upgrade"

QUOTE_LIMIT = 80
# Unicode's direction controls (ALM, LRM, RLM, LRE..RLO, LRI..PDI): U+202E shows the text after it reversed.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """An input as an error message quotes it: its first `limit` characters and its length (a 1 MB case
    name came back whole in its error), direction controls written out (\\u202e) so that it cannot display
    reversed. Every error that repeats what it was given goes through this."""
    text = str(value)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text):,} characters)"
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


@dataclass(frozen=True, slots=True)
class Step:
    """A next step a text points to: an action (named as its MCP tool) and its arguments. Each edge
    words it in its own terms: the server as the tool to call (`tool_words`), the command line as
    the command to type (`cli/words.py`)."""

    action: str
    args: Mapping[str, str] = field(default_factory=dict)


# How the MCP tools' user (Claude) is told each step: the PRD's own sentences.
TOOL_WORDS: dict[str, str] = {
    "choose_case": "Create or switch to a case first:\n  - create_case: Create a new case\n"
                   "  - switch_case: Switch to an existing case\n  - list_cases: See all cases",
    "choose_again": "Use list_cases and switch_case.",
    "list_cases": "Use list_cases to see available cases.",
    "list_all_cases": 'Use list_cases (status_filter="all") to see every case.',
    "show_hidden_cases": 'use status_filter="all" to see every case.',
    "show_archived_case": 'hidden from list_cases (use status_filter="archived" or "all" to see it)',
    "create_case": "Create one with create_case.",
    "work_in_case": "Choose a different name, or use switch_case to work in it.",
    "reopen_case": "Use reopen_case to make it active again.",
    "ingest_first": "Ingest documents first with ingest_document or ingest_folder.",
    "add_files": "Add files with ingest_document or ingest_folder.",
    "next_ingest": "This is now your active case.\n\nNext: Ingest documents with ingest_document.",
    "list_documents": "Use list_documents to see the documents in this case.",
    "replace_duplicate": "To ingest it again, delete that document first or use reindex_document to rebuild it.",
    "keep_new_version": "To keep only the new one, delete the old one (delete_document); sync_folder replaces "
                        "changed files instead of adding them.",
    "no_active_case": "(none) - use create_case or switch_case",
    "relink_document": 'To read it again, give its file on this computer: relink_document (document_name="{document}", '
                       "file_path=...), then reindex it.",
    "rebuild_from_text": "reparse=false rebuilds its embeddings from the text already stored.",
}

Words = Callable[[Step], str]


def tool_words(step: Step) -> str:
    """A step as the MCP tools' user is told it."""
    return TOOL_WORDS[step.action].format(**step.args)


def worded(text: str, steps: Sequence[Step], words: Words = tool_words) -> str:
    """`text` followed by each step in `words`."""
    return " ".join([text, *(words(s) for s in steps)]) if steps else text


class CaseTrackError(Exception):
    """Root of every error a user may see. `exit_code` is what the CLI returns. `message` is the text
    for Claude (steps named as tools); `detail` and `steps` let another edge word the steps itself."""

    exit_code = 1

    def __init__(self, message: str, steps: Sequence[Step] = ()) -> None:
        self.detail = message
        self.steps = tuple(steps)
        self.message = worded(message, self.steps)
        super().__init__(self.message)

    def worded(self, words: Words) -> str:
        return worded(self.detail, self.steps, words)


class InvalidInput(CaseTrackError):
    """The request itself is wrong (bad name, bad value, bad path)."""

    exit_code = 2


class NoCaseActive(CaseTrackError):
    def __init__(self) -> None:
        super().__init__("No active case.", [Step("choose_case")])


class NotFound(CaseTrackError):
    """A case, document or chunk does not exist; suggestions name close matches."""

    exit_code = 3

    def __init__(self, kind: str, wanted: str, suggestions: Sequence[tuple[str, str]] = (), hint: str = "",
                 step: Step | None = None) -> None:
        text = f'{kind} not found: "{quoted(wanted)}".'
        if suggestions:
            lines = "\n".join(f"  - {name} (ID: {ident})" for name, ident in suggestions)
            text += f" Did you mean:\n{lines}\nUse the full name or ID."
        elif hint:
            text += f" {hint}"
        super().__init__(text, [step] if step is not None and not suggestions else [])
        self.kind = kind
        self.wanted = wanted


class ConfirmationRequired(CaseTrackError):
    def __init__(self, what: str) -> None:
        super().__init__(f"Deletion requires confirm=true. This will permanently delete {what}. This cannot be undone.")


class CaseReadOnly(CaseTrackError):
    def __init__(self, case_name: str, status: str) -> None:
        super().__init__(
            f'Case "{case_name}" is {status} and read-only: search and browsing work, but documents '
            f"cannot be added or removed.", [Step("reopen_case", {"case_name": case_name})]
        )


class CaseBusy(CaseTrackError):
    """Another process holds the case (or registry) for writing and did not let go in time."""

    exit_code = 4

    def __init__(self, what: str, holder: str) -> None:
        super().__init__(
            f"{what} is being written by another CaseTrack process ({holder}). "
            "Wait for it to finish (a large ingest can take minutes) and try again; "
            "if no other CaseTrack is running, close Claude Desktop/Claude Code windows and retry."
        )


class FutureSchemaVersion(CaseTrackError):
    def __init__(self, found: int, supported: int) -> None:
        super().__init__(
            f"Database schema version {found} is newer than supported version {supported}. Update CaseTrack."
        )


class StoreCorrupt(CaseTrackError):
    def __init__(self, path: str, detail: str) -> None:
        super().__init__(
            f"The CaseTrack database at {path} could not be read ({detail}). "
            f"Nothing was changed. Restore it from a backup or report this at {ISSUES_URL}"
        )


class FreeTierLimit(CaseTrackError):
    def __init__(self, resource: str, current: int, maximum: int, advice: str) -> None:
        super().__init__(
            f"Free tier allows {maximum} {resource} (you have {current}). "
            f"{advice} or upgrade to Pro for unlimited {resource}: {UPGRADE_URL}"
        )


class FileNotFound(CaseTrackError):
    exit_code = 3

    def __init__(self, path: str, note: str = "") -> None:
        super().__init__(f"File not found: {quoted(path, 300)}\n\n"
                         f"Check that the path is correct and the file exists.{note}")


class UnsupportedFormat(CaseTrackError):
    exit_code = 2

    def __init__(self, extension: str, supported: Sequence[str], hint: str = "") -> None:
        super().__init__(
            f"Unsupported file format: {quoted(extension) or '(no extension)'}\n\n"
            f"Supported formats: {', '.join(supported)}" + (f"\n\nThis is {hint}." if hint else "")
        )


class DocumentUnreadable(CaseTrackError):
    """A file that exists but cannot be turned into text (corrupt, encrypted, empty, mislabelled...)."""

    def __init__(self, path: str, reason: str, fix: str) -> None:
        super().__init__(f"Could not read {quoted(path, 300)}: {reason}. {fix}")
        self.reason = reason


class SourceNotHere(CaseTrackError):
    """A document cannot be read again: no source file this machine recorded is there (an imported document's
    path came from the archive and is never opened) and no copy of it is kept in the case."""

    def __init__(self, name: str, recorded: str | None, steps: Sequence[Step]) -> None:
        where = (f"its file is no longer at {recorded}" if recorded else
                 "its source file is not on this computer (it came from an imported case, or its record does not "
                 "prove CaseTrack wrote it here)")
        super().__init__(f'"{name}" was not read again and is unchanged: {where}, and no copy of it is kept in '
                         "the case.", [*steps, Step("rebuild_from_text")])


class DuplicateDocument(CaseTrackError):
    def __init__(self, name: str, document_id: str) -> None:
        super().__init__(
            f'Already ingested: this file is identical (same SHA-256) to "{name}" (ID: {document_id}). '
            "Nothing was changed.", [Step("replace_duplicate", {"document_id": document_id})]
        )
        self.document_id = document_id


class ToolUnavailable(CaseTrackError):
    """A system tool (Tesseract, LibreOffice) that a file needs is not installed."""

    def __init__(self, tool: str, needed_for: str, install: str) -> None:
        super().__init__(f"{tool} is not installed, so CaseTrack cannot {needed_for}. Install it with: {install}")


class ModelUnavailable(CaseTrackError):
    def __init__(self, model: str, reason: str, fix: str) -> None:
        super().__init__(f"Model {model} is not available: {reason}. {fix}")


class UnsafePath(CaseTrackError):
    """A path (usually taken from a record or an archive) that would reach outside the one folder
    an operation may touch. Refused before anything is written or removed."""

    def __init__(self, path: str, root: str, action: str) -> None:
        super().__init__(
            f"CaseTrack refused to {action} {quoted(path, 300)}: it is not inside {root}, "
            "the only folder this may touch. "
            "Nothing outside that folder was changed. The record that named this path is damaged or was "
            f"altered; if it came from an imported case, import the original export again. {ISSUES_URL}"
        )
        self.path = path


class NameTooLong(InvalidInput):
    """A path given to CaseTrack has a part longer than a file or folder name can be (255 bytes on the usual
    file systems): no such file can exist, and none can be written there."""

    def __init__(self, path: object) -> None:
        super().__init__(
            f"This path has a part longer than a file or folder name can be (255 characters): {quoted(path)}. "
            "No such file or folder can exist. Check the path (it may have been pasted with text around it) "
            "and give the path of a file or folder that exists, or a shorter name to write to.")


def from_os_error(exc: BaseException) -> CaseTrackError | None:
    """The error of the tree an OSError means, for the edges, where one reaches them: a path with a part too
    long for any file name (ENAMETOOLONG) is the user's input, not CaseTrack's failure. None otherwise."""
    if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG:
        return NameTooLong(exc.filename if exc.filename is not None else "")
    return None


class Cancelled(BaseException):
    """The work was asked to stop (cancel_ingest, or Ctrl-C in the server) and stopped before storing
    anything. A BaseException, as asyncio.CancelledError is: the `except Exception` that keeps one bad
    file from stopping a folder must not swallow a request to stop the whole job."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.message = f"Cancelled ({why})."


class InternalError(CaseTrackError):
    def __init__(self, detail: str) -> None:
        super().__init__(f"Internal error: {detail}. Please report this at {ISSUES_URL}")
