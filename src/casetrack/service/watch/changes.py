"""Changed paths of one watched folder, held back until they settle.

Editors and copy tools write a file in bursts (create, many writes, rename), and a scanner
may still be appending to a PDF while its first events arrive. A path is handed to the
sync worker only once it has had no event for `debounce_s` and its size and modification
time have stayed the same for as long. Past `max_pending` remembered paths (a folder of
thousands pasted at once), the paths are dropped for one full sync of the folder, which
finds the same changes at a bounded memory cost.

Plain data: the runner owns the lock and the clock and does the `stat` calls outside its
lock; this module only decides."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from casetrack.parse import SUPPORTED_EXTENSIONS
from casetrack.service.ingest.folders import is_ignored
from casetrack.service.watch.store import Watch
from casetrack.service.watch.sync import within

Stat = tuple[int, int] | None  # (size, mtime_ns); None: the path is gone


@dataclass(slots=True)
class Pending:
    last_event: float
    is_dir: bool
    # (size, mtime) at the last look; None once gone. Starts as "not looked at yet", so a
    # deleted path settles as late as the created one beside it: a rename's two halves
    # reach the worker together and become a move, not a removal.
    stat: Stat | str = "unseen"
    stable_since: float = 0.0


@dataclass(slots=True)
class Changes:
    """One watch's changed paths: waiting to settle (`pending`) or settled (`ready`)."""

    max_pending: int
    pending: dict[str, Pending] = field(default_factory=dict)
    ready: set[str] = field(default_factory=set)
    overflow_at: float | None = None  # too many at once: the time of the latest event since

    @property
    def waiting(self) -> int:
        return len(self.pending) + len(self.ready)

    def note(self, path: str, is_dir: bool, now: float) -> bool:
        """Remember an event on `path`. Returns True when this event overflowed the bound."""
        if self.overflow_at is not None:
            self.overflow_at = now
            return False
        entry = self.pending.get(path)
        if entry is not None:
            entry.last_event = now
            entry.is_dir = entry.is_dir or is_dir
            return False
        if self.waiting >= self.max_pending:
            self.pending.clear()
            self.ready.clear()
            self.overflow_at = now
            return True
        self.pending[path] = Pending(now, is_dir)
        return False

    def settle(self, path: str, entry: Pending, stat: Stat, now: float, debounce_s: float) -> None:
        """Move `path` to ready if it is quiet and its `stat` has stayed put for `debounce_s`.
        `entry` is what `pending` held when `stat` was taken: a path dropped meanwhile stays dropped."""
        if self.pending.get(path) is not entry:
            return
        if stat != entry.stat:
            entry.stat, entry.stable_since = stat, now
        elif now - entry.last_event >= debounce_s and now - entry.stable_since >= debounce_s:
            del self.pending[path]
            self.ready.add(path)

    def overflow_settled(self, now: float, debounce_s: float) -> bool:
        """True once, when an overflow has been quiet for `debounce_s`: time for the full sync."""
        if self.overflow_at is not None and now - self.overflow_at >= debounce_s:
            self.overflow_at = None
            return True
        return False

    def take_ready(self) -> set[str]:
        taken, self.ready = self.ready, set()
        return taken

    def retry(self, paths: set[str], now: float) -> None:
        """Watch `paths` again (a sync failed on them), as far as the bound allows."""
        for path in paths:
            if path not in self.pending and len(self.pending) < self.max_pending:
                self.pending[path] = Pending(now, False)


def accepts(watch: Watch, path: str, is_dir: bool, data_dir: Path) -> bool:
    """Whether an event on `path` can matter to the watch: inside its folder, not a temporary,
    system or dot file, not CaseTrack's own data, and of a kind the watch ingests."""
    rel = os.path.relpath(path, watch.folder)
    if rel == "." or rel.startswith(".." + os.sep) or rel == "..":
        return False
    if any(is_ignored(part) for part in Path(rel).parts):
        return False
    if within(Path(path), data_dir):
        return False
    if is_dir:
        return True
    extension = os.path.splitext(path)[1].lower()
    return extension in (watch.extensions or SUPPORTED_EXTENSIONS)


def stat_of(path: str) -> Stat:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns
