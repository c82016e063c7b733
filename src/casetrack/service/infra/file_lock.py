"""Small OS file locks shared by CaseTrack processes on one data directory.

`flock` on Unix and `msvcrt.locking` on Windows: the operating system releases the lock
when its holder exits or crashes, so a second server takes over from a first one that is
gone without anyone cleaning up a stale lock file. On Linux a flock also excludes a
second open of the same file inside one process, which the tests rely on."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from casetrack.errors import CaseBusy

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try(handle: IO[bytes]) -> bool:
        try:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class FileLock:
    """An exclusive, non-blocking lock on `path`; `acquire()` says whether this holder got it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        return self._handle is not None

    def acquire(self) -> bool:
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+b")
        if not _try(handle):
            handle.close()
            return False
        # Name the holder, for status texts in the other process.
        with contextlib.suppress(OSError):
            handle.seek(0)
            handle.truncate()
            handle.write(str(os.getpid()).encode())
            handle.flush()
        self._handle = handle
        return True

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        with contextlib.suppress(OSError):
            _unlock(handle)
        handle.close()

    def holder_pid(self) -> int | None:
        """The pid written by the current holder, if any (best effort)."""
        try:
            text = self.path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return int(text) if text.isdigit() else None


_thread_locks: dict[Path, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


@contextlib.contextmanager
def exclusive(path: Path, timeout_s: float, what: str) -> Iterator[None]:
    """Hold `path` exclusively for a short read-modify-write, waiting up to `timeout_s`.

    Raises CaseBusy if another process keeps it longer than that."""
    with _thread_locks_guard:
        local = _thread_locks.setdefault(path, threading.Lock())
    if not local.acquire(timeout=timeout_s):
        raise CaseBusy(what, "another task in this CaseTrack process")
    try:
        lock = FileLock(path)
        deadline = time.monotonic() + timeout_s
        while not lock.acquire():
            if time.monotonic() >= deadline:
                raise CaseBusy(what, f"pid {lock.holder_pid() or 'unknown'}")
            time.sleep(0.01)
        try:
            yield
        finally:
            lock.release()
    finally:
        local.release()


def alive(pid: int) -> bool:
    """Whether a process with this pid exists (the holder named in a lock or a watch's state)."""
    if sys.platform == "win32":  # pragma: no cover
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
