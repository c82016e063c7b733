"""Ctrl-C for every command: it stops within a second or two, exit code 130, nothing half-written.

Python raises KeyboardInterrupt only between two bytecodes of the main thread, and a command can
spend seconds inside one C call (loading an ONNX model, tokenising a long document, a page in
PDFium): Ctrl-C then waited for it. So a command's work runs on a daemon thread as a job that can be
cancelled (`casetrack.cancel`), while the main thread only waits, ready for Ctrl-C. On Ctrl-C the
work is cancelled and given up to GRACE_S to reach its next checkpoint (every commit is one atomic
batch and checks for cancellation under the write lock, so a commit in progress finishes and none
starts), then the process ends as SIGTERM would end it."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from collections.abc import Callable
from typing import NoReturn, TypeVar

from casetrack import helper_process
from casetrack.cancel import CancelToken, running

T = TypeVar("T")

GRACE_S = 1.0
_WAIT_SLICE_S = 0.1


def interruptible(work: Callable[[], T]) -> T:
    """`work()`, run on a daemon thread that Ctrl-C cancels. Re-raises what it raised; raises
    KeyboardInterrupt on Ctrl-C once the work has stopped or GRACE_S has passed."""
    token = CancelToken()
    outcome: dict[str, object] = {}

    def run() -> None:
        with running(token):
            try:
                outcome["value"] = work()
            except BaseException as exc:  # handed to the main thread, which raises it
                outcome["error"] = exc

    thread = threading.Thread(target=run, name="casetrack-command", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(_WAIT_SLICE_S)  # a short wait, so the main thread sees Ctrl-C at once
    except KeyboardInterrupt:
        token.cancel("Ctrl-C")
        thread.join(GRACE_S)
        raise
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


def end_process(code: int) -> NoReturn:
    """End now, after Ctrl-C has been handled: the helper process is stopped and the log flushed, and the
    interpreter's teardown is skipped. Work still inside one step on a daemon thread holds nothing that
    needs closing, but tearing the interpreter down around it took seconds on a busy laptop."""
    helper_process.stop()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
