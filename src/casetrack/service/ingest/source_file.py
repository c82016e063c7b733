"""A document's file as CaseTrack reads it: only a regular file (not a named pipe, a device or a
socket, which would hold an ingest forever), and its bytes read within a deadline proportional to
its size (an online-only cloud file that never downloads, a network share that stopped answering),
stopped by its job's cancellation."""

from __future__ import annotations

import os
from pathlib import Path

from casetrack import cancel
from casetrack.errors import DocumentUnreadable, FileNotFound, InvalidInput, UnsupportedFormat, quoted
from casetrack.files import (
    READ_GRACE_S,
    NotRegularFile,
    ReadStalled,
    document_sha256,
    kind_of,
    relative_note,
    user_path,
)
from casetrack.parse import CONVERSION_HINTS, SUPPORTED_EXTENSIONS, SUPPORTED_LABEL


def check_file(raw: str) -> Path:
    """The absolute path of an ingestible file. Raises FileNotFound, InvalidInput or UnsupportedFormat."""
    if not raw or not str(raw).strip():
        raise InvalidInput("Give the path of a file to ingest, e.g. /Users/sarah/Cases/Smith/Complaint.pdf")
    path = user_path(str(raw))
    if not path.exists():
        raise FileNotFound(str(path), relative_note(str(raw), "/Users/sarah/Cases/Smith/Complaint.pdf"))
    if path.is_dir():
        raise InvalidInput(f"{quoted(path, 300)} is a folder. Use ingest_folder to ingest every document in a folder.")
    if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
        raise UnsupportedFormat(path.suffix.lower(), [SUPPORTED_LABEL], CONVERSION_HINTS.get(path.suffix.lower(), ""))
    if (kind := kind_of(path.stat().st_mode)) is not None:
        raise not_a_file(path, kind)
    if not os.access(path, os.R_OK):
        raise DocumentUnreadable(str(path), "permission denied", "Check that your user account can open the file.")
    return path.resolve()


def not_a_file(path: Path, kind: str) -> InvalidInput:
    """The refusal of a path that is not a regular file: what it is, and (for a link) what it points at."""
    target = path.resolve()
    link = f" (a link to {target})" if target != path.absolute() else ""
    return InvalidInput(f"{quoted(path, 300)}{link} is {kind}. CaseTrack reads only regular files: "
                        "give the path of the document itself.")


STALLED_FIX = ("It may be an online-only cloud file (OneDrive, Dropbox, iCloud, Google Drive) that has not "
               "downloaded, or on a network share that stopped answering. Make it available offline (in OneDrive "
               "or Dropbox: right-click it, then \"Always keep on this device\") or copy it to this computer, then "
               "ingest it again. If the share is only slow, raise read_timeout_s in config.toml. Other documents "
               "are not held up by this one.")


def file_sha256(path: Path, grace_s: float = READ_GRACE_S) -> str:
    """The SHA-256 of a document's file, read within a deadline proportional to its size and stopped
    by its job's cancellation. Raises InvalidInput (not a regular file), DocumentUnreadable (stalled,
    unreadable) or Cancelled."""
    try:
        return document_sha256(path, cancel.checkpoint, grace_s)
    except NotRegularFile as exc:
        raise not_a_file(path, exc.kind) from None
    except ReadStalled as exc:
        if exc.size is None:
            what = f"opening it did not finish within {exc.waited_s:.0f} s"
        else:
            what = f"reading it stalled ({_megabytes(exc.done)} of {_megabytes(exc.size)} read in {exc.waited_s:.0f} s)"
        raise DocumentUnreadable(str(path), what, STALLED_FIX) from None
    except OSError as exc:
        raise DocumentUnreadable(str(path), f"it could not be read ({exc.strerror or exc})",
                                 "Check that the file opens on this computer, then ingest it again.") from None


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size:,} bytes"
