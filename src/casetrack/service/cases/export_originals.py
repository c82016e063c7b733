"""The originals a case export carries (issue 35 §4): each document's own file, so the case can be read
again, and its passages checked against their source, on another machine.

For each document: the copy kept in the case folder (`copy_originals`), else the file it was read from
on this machine, if that is still a regular file with the SHA-256 recorded at ingest (a file changed
since is another document, and is not passed off as this one's original). What could not be read is
named with the reason, for the user to see."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from casetrack.domain import Document
from casetrack.files import NotRegularFile, ReadStalled, document_sha256, sha256_file
from casetrack.store.case_store import CaseStore


@dataclass(frozen=True, slots=True)
class Unread:
    document: str  # its name in the case
    reason: str


@dataclass(frozen=True, slots=True)
class PackedOriginals:
    copied: int
    unread: tuple[Unread, ...]


def pack_originals(store: CaseStore, documents: Sequence[Document], folder: Path) -> PackedOriginals:
    """Copy every document's original it can read to `folder/<document id>/<file name>`."""
    copied, unread = 0, []
    for doc in documents:
        # A kept copy is found from the document's id inside this case's folder, never from the stored
        # path: a damaged record must not pack an unrelated file into the archive.
        kept = store.copy_of(doc.id) if doc.copied_original else None
        source, reason = (kept, None) if kept is not None else _source_file(doc)
        if source is not None:
            target = folder / doc.id / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            reason = _copy(source, target, doc.file_hash if kept is None else None)
        if reason is None:
            copied += 1
        else:
            unread.append(Unread(doc.name, reason))
    return PackedOriginals(copied, tuple(unread))


def _source_file(doc: Document) -> tuple[Path | None, str | None]:
    """The file `doc` was read from, when it still holds the same bytes; else why not."""
    if not doc.original_path:
        return None, "no file on this computer (it was given as content, not a path)"
    path = Path(doc.original_path)
    try:
        digest = document_sha256(path)
    except FileNotFoundError:
        return None, f"{path} is no longer there (moved or deleted)"
    except NotRegularFile as exc:
        return None, f"{path} is {exc.kind}"
    except ReadStalled:
        return None, f"{path} did not finish reading in time (an online-only or network file?)"
    except OSError as exc:
        return None, f"{path} could not be read ({exc.strerror or exc})"
    if digest != doc.file_hash:
        return None, f"{path} has changed since it was ingested"
    return path, None


def _copy(source: Path, target: Path, expected_hash: str | None) -> str | None:
    """Copy `source` to `target`; None when done, else why not (nothing is left at `target`)."""
    try:
        shutil.copy2(source, target)
        if expected_hash is None or sha256_file(target) == expected_hash:
            return None
        reason = f"{source} changed while it was copied"
    except FileNotFoundError:
        reason = f"{source} is no longer there (moved or deleted)"
    except OSError as exc:
        reason = f"{source} could not be read ({exc.strerror or exc})"
    with contextlib.suppress(OSError):
        target.unlink()
    return reason
