"""Folder watches persisted in `<data dir>/watches.json`.

The file is small and shared by every CaseTrack process on the data directory: any
process may add or remove a watch, and the one process that runs watches records each
sync's outcome in it. Every change is a read-modify-write under an OS file lock, written
to a temporary file and renamed over the old one, so a reader never sees half a file."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from casetrack.errors import StoreCorrupt
from casetrack.service.infra.file_lock import exclusive

log = logging.getLogger(__name__)

FILE_NAME = "watches.json"
FORMAT_VERSION = 1

# Schedule name -> seconds between safety-net syncs (None: none). Every schedule except
# "manual" also listens to OS notifications (tool spec 2.21: intervals run in addition).
SCHEDULES: dict[str, float | None] = {
    "on_change": None,
    "hourly": 3600.0,
    "every_6h": 6 * 3600.0,
    "every_12h": 12 * 3600.0,
    "daily": 24 * 3600.0,
    "manual": None,
}


@dataclass(frozen=True, slots=True)
class WatchState:
    """What the process running the watch last recorded about it."""

    status: str = "pending"  # pending | syncing | idle | paused | error
    detail: str = ""  # why it is paused or failing, in words a user can act on
    last_sync_at: float | None = None
    last_sync_kind: str | None = None  # "full" | "changes"
    last_full_sync_at: float | None = None  # what scheduled syncs count from
    last_duration_s: float = 0.0
    last_counts: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    last_error: str | None = None  # what is wrong now: a file still failing, or the last sync's own failure
    last_error_at: float | None = None
    runner_pid: int | None = None
    failing: dict[str, str] = field(default_factory=dict)  # files (relative paths) whose last try failed: why


@dataclass(frozen=True, slots=True)
class Watch:
    id: str
    case_id: str
    folder: str  # absolute, resolved
    schedule: str
    auto_remove_deleted: bool = False
    extensions: tuple[str, ...] | None = None  # ".pdf" style; None = every supported format
    created_at: float = 0.0
    state: WatchState = field(default_factory=WatchState)

    @property
    def short_id(self) -> str:
        return self.id[:8]

    @property
    def interval_s(self) -> float | None:
        return SCHEDULES.get(self.schedule)

    @property
    def notifications(self) -> bool:
        return self.schedule != "manual"


def _state_from(raw: Mapping[str, Any]) -> WatchState:
    def counts(value: object) -> dict[str, int]:
        return {str(k): int(v) for k, v in value.items()} if isinstance(value, dict) else {}

    return WatchState(
        status=str(raw.get("status", "pending")), detail=str(raw.get("detail", "")),
        last_sync_at=_opt_float(raw.get("last_sync_at")), last_sync_kind=raw.get("last_sync_kind"),
        last_full_sync_at=_opt_float(raw.get("last_full_sync_at")),
        last_duration_s=float(raw.get("last_duration_s", 0.0)), last_counts=counts(raw.get("last_counts")),
        totals=counts(raw.get("totals")), last_error=raw.get("last_error"),
        last_error_at=_opt_float(raw.get("last_error_at")),
        runner_pid=int(raw["runner_pid"]) if raw.get("runner_pid") is not None else None,
        failing={str(k): str(v) for k, v in raw["failing"].items()} if isinstance(raw.get("failing"), dict) else {},
    )


def _watch_from(raw: Mapping[str, Any]) -> Watch:
    extensions = raw.get("extensions")
    return Watch(
        id=str(raw["id"]), case_id=str(raw["case_id"]), folder=str(raw["folder"]),
        schedule=str(raw.get("schedule", "on_change")), auto_remove_deleted=bool(raw.get("auto_remove_deleted")),
        extensions=tuple(str(e) for e in extensions) if extensions else None,
        created_at=float(raw.get("created_at", 0.0)), state=_state_from(raw.get("state") or {}),
    )


def _opt_float(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


class WatchStore:
    def __init__(self, data_dir: Path, lock_timeout_s: float) -> None:
        self.path = data_dir / FILE_NAME
        self._lock_path = data_dir / (FILE_NAME + ".lock")
        self._timeout_s = lock_timeout_s

    def signature(self) -> tuple[int, int, int] | None:
        """Changes whenever the file is replaced; cheap enough to poll."""
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def load(self) -> list[Watch]:
        """Every watch. Raises StoreCorrupt if the file cannot be understood."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise StoreCorrupt(str(self.path), f"could not read it ({exc.strerror})") from exc
        try:
            raw = json.loads(text)
            return [_watch_from(w) for w in raw.get("watches", [])]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreCorrupt(str(self.path), f"not a valid watch list ({exc}); fix or delete the file, then "
                                               "add the watches again with watch_folder") from exc

    def update(self, change: Callable[[list[Watch]], list[Watch]]) -> list[Watch]:
        """Apply `change` to the current list under the file lock and save the result atomically.

        Errors raised by `change` leave the file untouched. Raises CaseBusy or StoreCorrupt."""
        with exclusive(self._lock_path, self._timeout_s, "The folder watch list"):
            watches = change(self.load())
            self._save(watches)
            return watches

    def _save(self, watches: list[Watch]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        record = {"version": FORMAT_VERSION, "watches": [asdict(w) for w in watches]}
        tmp = self.path.with_name(f".{FILE_NAME}.{os.getpid()}.{time.monotonic_ns()}.tmp")
        try:
            with tmp.open("w", encoding="utf-8") as handle:
                json.dump(record, handle, indent=1)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
