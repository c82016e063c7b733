"""Where parsers keep temporary copies of client content: pages rendered for OCR, a .doc converted to
DOCX, an e-mail's attached files, pictures taken out of a Word document.

They go in `ParseOptions.scratch_dir` (the service sets `<data dir>/tmp/`), not the system's shared temp
folder: a client's pages must not be left where other users and programs look, and a process killed
mid-ingest (a laptop closing, the server ended by its client) cannot remove its own. Two servers may share
a data directory, so each folder is named by the process that made it, and `remove_leftovers` (run at
start-up) removes only the folders of processes that are no longer running.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import psutil

from casetrack.parse.options import ParseOptions

log = logging.getLogger(__name__)

# No ingest keeps a scratch folder this long: one older belongs to a process whose id was reused.
STALE_AFTER_S = 24 * 3600
_OWNER = re.compile(r"casetrack-(\d+)-")


def scratch_folder(options: ParseOptions, purpose: str) -> tempfile.TemporaryDirectory[str]:
    """A new private folder (mode 0700) for this process's temporary files, removed when the `with` block ends.
    In `options.scratch_dir` when set (created if missing), else the system's temp folder."""
    root = options.scratch_dir
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryDirectory(prefix=f"casetrack-{os.getpid()}-{purpose}-", dir=root)


def remove_leftovers(root: Path) -> list[str]:
    """Remove what processes that are no longer running left in `root` (the names removed)."""
    try:
        entries = list(root.iterdir())
    except FileNotFoundError:
        return []
    removed = []
    now = time.time()
    for entry in entries:
        owner = _OWNER.match(entry.name)
        try:
            stale = now - entry.lstat().st_mtime > STALE_AFTER_S
        except FileNotFoundError:
            continue  # its owner removed it just now
        if owner is not None and psutil.pid_exists(int(owner.group(1))) and not stale:
            continue  # a running process's (this one's too: a second CaseTrack in one process, as tests make)
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed.append(entry.name)
    if removed:
        log.info("Removed what a stopped ingest left in %s: %s", root, ", ".join(removed))
    return removed
