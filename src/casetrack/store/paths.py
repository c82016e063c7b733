"""The one gate every removal of a case's files passes through.

Paths that CaseTrack removes are re-derived from its own ids inside the folder an operation owns
(a case folder, the `cases/` folder), never taken from a record; this module checks the result
once more, after resolving links and `..`, so a damaged or hostile record can never make a
delete reach outside."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from casetrack.errors import UnsafePath


def contained(root: Path, target: Path, action: str) -> Path:
    """`target` (not resolved through a final symlink) if it lies strictly inside `root`.

    Raises UnsafePath otherwise: `..`, an absolute path elsewhere, `root` itself, or a folder
    reached through a symbolic link that leads out of `root`."""
    base = root.resolve()
    parent = target.parent.resolve()  # the last component itself may be a link: it is removed, not followed
    final = parent / target.name
    if target.name in ("", ".", "..") or (parent != base and base not in parent.parents):
        raise UnsafePath(str(target), str(root), action)
    return final


def remove_tree(root: Path, target: Path, action: str = "remove") -> bool:
    """Remove `target` (a folder, a file or a link; a link is removed, never followed) if it lies
    inside `root`. Returns whether anything was there. Raises UnsafePath otherwise."""
    final = contained(root, target, action)
    if final.is_symlink() or final.is_file():
        final.unlink(missing_ok=True)
        return True
    if not final.exists():
        return False
    shutil.rmtree(final, ignore_errors=True)
    return True


def regular_file(path: Path) -> bool:
    """A real file, not a link, FIFO or device."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
