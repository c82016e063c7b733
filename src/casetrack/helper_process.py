"""One helper process for CPU-bound Python work on a second core.

Threads cannot share Python work (the GIL), and PDFium cannot run on two threads at once, so
the second core of a laptop sat idle while a document was read, chunked and scanned for the
context graph. The helper is one spawned process that takes half of a long PDF's pages while
this process reads the other half, and then the context-graph extraction while this process
chunks and indexes (benchmarks/ingest.py, 200 pages: 1.95x -> 1.09x the raw extractor's time).

It is only ever an accelerator. A caller asks with `try_submit`; it gets None when the helper
is off, still starting, or busy with another thread's call, and then does the work itself.
A call that fails in any way (the helper crashed, timed out, raised, was killed) raises
HelperFailed, and the caller again does the work itself: nothing depends on the helper.

The helper starts on the first call that wants it (and takes none until it has imported its
modules, ~0.7 s), is spawned rather than forked (a server's threads and RocksDB handles must
not be copied), writes nothing to stdout (the MCP wire), and exits by itself after
IDLE_EXIT_S without work or when this process ends, so an idle server holds no helper.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

import casetrack

log = logging.getLogger(__name__)

T = TypeVar("T")

IDLE_EXIT_S = 600.0
# A helper that dies before it is ready (a module it imports is broken) is not started again and again.
MAX_FAILED_STARTS = 3
_STARTING, _READY, _STALE = "starting", "ready", "stale"


class HelperFailed(Exception):
    """The helper could not deliver a result; the caller does the work itself."""


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


class _Helper:
    def __init__(self, warm: Sequence[str], idle_exit_s: float) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child_end = context.Pipe()
        self.process = context.Process(target=_serve, args=(child_end, tuple(warm), idle_exit_s), daemon=True,
                                       name="casetrack-helper")
        self.idle_exit_s = idle_exit_s
        _start_deaf_to_ctrl_c(self.process)
        child_end.close()
        self.state = _STARTING
        self.last_used = time.monotonic()

    def ready(self) -> bool:
        if self.state == _STARTING and self.conn.poll(0):
            try:
                # CaseTrack upgraded on disk while this process runs: the helper would run other code.
                self.state = _READY if self.conn.recv() == (_READY, casetrack.__version__) else _STALE
                self.last_used = time.monotonic()  # its idle clock started about now
            except (EOFError, OSError):
                self.state = "dead"
        return self.state == _READY and self.process.is_alive()

    def alive(self) -> bool:
        return self.state != "dead" and self.process.is_alive()

    def kill(self) -> None:
        self.state = "dead"
        self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


def _start_deaf_to_ctrl_c(process: multiprocessing.process.BaseProcess) -> None:
    """Start the helper with Ctrl-C blocked from its first instruction. A terminal sends Ctrl-C to every
    process in its foreground group, and the helper's own SIG_IGN (in `_serve`) comes only after it has
    imported its modules (seconds on a busy laptop): a Ctrl-C before that printed its KeyboardInterrupt
    traceback under CaseTrack's one-line message. A blocked signal stays blocked across fork and exec, and
    blocking is per thread, so this works from a job thread too (a handler can change only on the main
    thread). A Ctrl-C meanwhile is not lost: another thread of this process takes it."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no terminal process groups to guard against
        process.start()
        return
    from multiprocessing import resource_tracker

    # Starting the resource tracker (which every spawn does, the first time) unblocks SIGINT in the calling
    # thread: start it before blocking.
    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class Call(Generic[T]):
    """One call running in the helper. Collect it with `result`; leaving it uncollected (an error
    in the caller) waits briefly for the helper to finish, then stops the helper."""

    def __init__(self, pool: _Pool, helper: _Helper) -> None:
        self._pool = pool
        self._helper = helper
        self._open = True

    def result(self, timeout_s: float) -> T:
        """The call's return value. Raises HelperFailed on any failure or after `timeout_s`."""
        if not self._open:
            raise HelperFailed("the result was already collected")
        try:
            answered = self._helper.conn.poll(timeout_s)
            status, value = self._helper.conn.recv() if answered else ("lost", f"no answer within {timeout_s:.0f} s")
        except Exception as exc:  # the helper died (EOF), or its answer could not be read
            status, value = "lost", f"it stopped or its answer was unreadable ({exc or type(exc).__name__})"
        finally:
            self._open = False
            self._helper.last_used = time.monotonic()
        if status == "lost":
            self._pool.discard(self._helper, value)
        self._pool.release()
        if status != "ok":
            raise HelperFailed(value)
        self._pool.served += 1
        return value  # type: ignore[return-value]  # what fn returned, pickled across

    def result_or_none(self, timeout_s: float, work: str) -> T | None:
        """The result, or None when the helper failed, said in the log: the caller then does `work` itself."""
        try:
            return self.result(timeout_s)
        except HelperFailed as exc:
            log.info("The helper process did not %s (%s); doing it here", work, exc)
            return None

    def __enter__(self) -> Call[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._open:
            with contextlib.suppress(HelperFailed):
                self.result(timeout_s=2.0)


class _Pool:
    def __init__(self) -> None:
        self.enabled = False
        self.warm: tuple[str, ...] = ()
        self.idle_exit_s = IDLE_EXIT_S
        self.served = 0
        self.failed_starts = 0
        self._helper: _Helper | None = None
        self._busy = threading.Lock()
        self._guard = threading.Lock()

    def try_submit(self, fn: Callable[..., T], *args: Any) -> Call[T] | None:
        if not self.enabled or not self._busy.acquire(blocking=False):
            return None
        helper = None
        try:
            helper = self._ready_helper()
            if helper is not None:
                helper.conn.send((fn, args))
                helper.last_used = time.monotonic()
                return Call(self, helper)
        except Exception as exc:  # cannot start a process, a broken pipe, arguments that cannot be pickled
            if helper is not None:
                self.discard(helper, f"the call could not be sent ({exc})")
            else:
                log.warning("The helper process could not start (%s); this process does all the work.", exc)
                self.enabled = False
        self._busy.release()
        return None

    def _ready_helper(self) -> _Helper | None:
        """The helper when it takes calls; otherwise start one (if there is none) and say None."""
        with self._guard:
            helper = self._helper
            idle = time.monotonic() - helper.last_used if helper is not None and helper.state == _READY else 0.0
            if helper is not None and idle > helper.idle_exit_s * 0.9:
                helper.kill()  # it is about to exit by itself: do not race it with a call
                helper = None
            if helper is None or not helper.alive():
                if helper is not None and helper.state == _STARTING:  # it died before it was ready
                    self.failed_starts += 1
                    if self.failed_starts >= MAX_FAILED_STARTS:
                        log.warning("The helper process failed to start %d times (exit code %s); this process "
                                    "does all the work.", self.failed_starts, helper.process.exitcode)
                        self.enabled = False
                        self._helper = None
                        return None
                self._helper = _Helper(self.warm, self.idle_exit_s)
                return None
            if not helper.ready():
                if helper.state == _STALE:
                    log.warning("CaseTrack was updated while this process runs (the helper process found another "
                                "version); this process does all the work until it is restarted.")
                    self.enabled = False
                    self._helper = None
                    helper.kill()
                return None
            self.failed_starts = 0
            return helper

    def release(self) -> None:
        self._busy.release()

    def discard(self, helper: _Helper, why: str) -> None:
        helper.process.join(timeout=0.1)
        # Exit code 0: it ended by itself, idle, just as a call was sent; anything else is worth a warning.
        level = logging.INFO if helper.process.exitcode == 0 else logging.WARNING
        log.log(level, "The helper process was stopped: %s. This process does the work itself.", why)
        with self._guard:
            if self._helper is helper:
                self._helper = None
        helper.kill()

    def wait_ready(self, timeout_s: float) -> bool:
        """Start the helper if needed and wait until it takes calls (benchmarks and tests)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._ready_helper() is not None:
                return True
            time.sleep(0.02)
        return False

    @property
    def helper(self) -> _Helper | None:
        return self._helper

    def stop(self) -> None:
        with self._guard:
            helper, self._helper = self._helper, None
        if helper is not None:
            helper.kill()


_pool = _Pool()


def enable(warm: Sequence[str] = (), on: bool = True) -> None:
    """Let callers use the helper (the composition root decides: not on one core, not in constrained
    memory mode). `warm` names the modules the helper imports before it takes calls."""
    _pool.enabled = on and usable_cores() >= 2
    _pool.warm = tuple(warm)
    _pool.failed_starts = 0


def enabled() -> bool:
    return _pool.enabled


def try_submit(fn: Callable[..., T], *args: Any) -> Call[T] | None:
    """Run `fn(*args)` in the helper, or None when the helper cannot take it now (do it here).
    `fn` must be a module-level function; arguments and result travel pickled."""
    return _pool.try_submit(fn, *args)


def calls_served() -> int:
    """How many calls the helper has answered in this process's lifetime (diagnostics and tests)."""
    return _pool.served


def configure_idle_exit(seconds: float) -> None:
    """After how long without work a helper started from now on exits by itself."""
    _pool.idle_exit_s = seconds


def pid() -> int | None:
    """The helper's process id while it runs (diagnostics and tests)."""
    helper = _pool.helper
    return helper.process.pid if helper is not None and helper.alive() else None


def wait_ready(timeout_s: float = 30.0) -> bool:
    return _pool.wait_ready(timeout_s)


def stop() -> None:
    _pool.stop()


def _serve(conn: Connection, warm: tuple[str, ...], idle_exit_s: float) -> None:
    """The helper's loop: answer (fn, args) with ("ok", value) or ("error", why), one at a time."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent, which then ends this process
    if hasattr(signal, "pthread_sigmask"):  # blocked until now (see _start_deaf_to_ctrl_c); ignored from here
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    os.dup2(2, 1)  # stdout is the parent's MCP wire: anything printed here goes to stderr instead
    sys.stdout = sys.stderr
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    for name in warm:
        importlib.import_module(name)
    conn.send((_READY, casetrack.__version__))
    while conn.poll(idle_exit_s):
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):  # the parent has gone
            return
        try:
            reply: tuple[str, Any] = ("ok", fn(*args))
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            try:
                conn.send(reply)
            except (OSError, EOFError):  # the parent has gone
                return
            except Exception as exc:  # a result that cannot be pickled
                conn.send(("error", f"the result could not be sent back ({exc})"))
        except (OSError, EOFError):
            return
